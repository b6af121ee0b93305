// Package match is the application core of Arbiter: the match, its games and
// every command an arbiter, an operator or a player can give.
//
// The record is an append-only log of events (package store). The state of the
// match is never stored: it is rebuilt by replaying the events in order. A
// command validates itself against the current state, turns into one or more
// events, and those events are appended in one transaction before anyone sees
// their effect. The GUI, the command line and scripts all call the same
// methods of App, so they can never disagree.
//
// Time is taken from each event's instant: the clocks (package clock) are
// values advanced by the instants recorded in the log, so replaying the log
// reproduces every clock reading exactly.
package match

import (
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/scoresheet"
	"arbiter/store"
)

// Role is who gives a command.
type Role string

// Word lets a refusal's translation translate the role.
func (r Role) Word() phrase.Word { return phrase.Word(r) }

const (
	RoleArbiter  Role = "arbiter"
	RoleOperator Role = "operator"
	RoleWhite    Role = "white"
	RoleBlack    Role = "black"
	RoleSystem   Role = "system"
)

// GameState is where a game stands.
type GameState string

// Word lets a refusal's translation translate the state.
func (s GameState) Word() phrase.Word { return phrase.Word(s) }

const (
	Scheduled GameState = "scheduled"
	Running   GameState = "running"
	Paused    GameState = "paused"
	Finished  GameState = "finished"
	Postponed GameState = "postponed"
	Forfeited GameState = "forfeited"
)

// Match is the match as configured, with the people currently in each role.
type Match struct {
	ID           string // the random match id of match.new ("" in records made before it)
	Title        string
	Site         string
	Arbiter      string    // the arbiter now officiating (rule 17 may replace)
	Players      [2]string // in the order given at creation
	Computer     string    // the player who is a computer, "" if none
	Operators    []string  // operators named at creation
	Operator     string    // the operator now at the board (rule 4 may replace)
	Appeals      []string  // appeals board members
	GamesPlanned int
	Controls     map[string]clock.Control // per player name
	PINHash      string                   // older records: hex sha256(salt || pin); "" = no PIN
	PINSalt      string
	Credential   *Credential   // the arbiter's credential; nil = an unprotected match (credential.go)
	ForfeitAfter time.Duration // Article 6.6: default one hour
	Game1White   string        // colour of game 1 by lots; then alternating (rule 3)
	Lots         string        // how the colours were drawn: "app" or "physical" or "given"
	Created      time.Time
	TimeZone     string // IANA zone name the match is played in; "" = UTC (see Location)
}

// Human is the player who is not the computer ("" when no computer plays).
func (m *Match) Human() string {
	if m.Computer == "" {
		return ""
	}
	if m.Players[0] == m.Computer {
		return m.Players[1]
	}
	return m.Players[0]
}

// Opponent of a player.
func (m *Match) Opponent(name string) string {
	if m.Players[0] == name {
		return m.Players[1]
	}
	return m.Players[0]
}

// WhiteOf is White in game n: game 1 by lots, then alternating irrespective
// of postponement or forfeiture (rule 3).
func (m *Match) WhiteOf(n int) string {
	if n%2 == 1 {
		return m.Game1White
	}
	return m.Opponent(m.Game1White)
}

// Incident is one entry of a game's incident log.
type Incident struct {
	Seq        int64
	At         time.Time
	Ply        int // plies recorded when it happened
	Role       Role
	Actor      string
	Kind       string
	Text       string
	Rule       string // the rule it applies, e.g. "rule 10", "6.12b"
	Effect     string // effect on the clocks, "" if none
	WhiteClock time.Duration
	BlackClock time.Duration
	// Before are both clocks (White's, Black's) just before an adjustment
	// or a correction set them, at the same instant; nil for the other
	// kinds, whose clocks it did not change. WhiteClock and BlackClock
	// are the clocks after it.
	Before *[2]time.Duration
	Refers int64 // appeal: the decision it contests; appeal-decision: the appeal it closes
	// Why is the reason in Text as a code and arguments, for a console to
	// say it in its language: a flag's verdict (nil where the record has none)
	Why *phrase.Error
	// Said is Text as a phrase (Said.Error() == Text), for a face to say it
	// in its language; nil for words a person typed, and for texts an
	// older record stored in English that no phrase is known for
	Said *phrase.Error
	// EffectSaid is Effect as a phrase, as Said is Text
	EffectSaid *phrase.Error
}

// FlagRecorded reports whether the record holds a flag event about side's
// flag in this game (its verdict, or Article 6.11's finding for both).
func (g *Game) FlagRecorded(side clock.Side) bool { return g.flagged[side] }

// Offer is a pending draw offer.
type Offer struct {
	By  clock.Side
	Ply int // ply count when offered
}

// Game is one game of the match.
type Game struct {
	Number      int
	White       string
	Black       string
	State       GameState
	Scheduled   time.Time // zero if not scheduled
	Started     time.Time
	Ended       time.Time
	Result      string // "*" while undecided
	Termination scoresheet.Termination
	Reason      string
	Why         *phrase.Error // Reason as a code and arguments (a 6.9 verdict) for a face to say in its language; nil for free text
	Clock       clock.Clock
	Sheet       *scoresheet.Sheet
	Incidents   []Incident
	Offer       *Offer       // pending draw offer
	OfferNext   *clock.Side  // a side that offered before moving: its next move carries (=)
	Pressed     *clock.Side  // a press recorded before its move (move --pressed pending)
	Arrived     [2]time.Time // each side's arrival at the board (Article 6.6), zero until recorded
	PressedAt   time.Time
	Paused      PauseInfo
	FirstEvent  int64 // seq of the game's first event
	// Engine is the computer's engine's latest move recorded in the game
	// (engine.move); EngineFor says whether it is for the position now.
	Engine *EngineChoice

	usedMark     [2]time.Duration // each side's charged time at its last completed move
	ranMark      [2]time.Duration // each side's running time at its last completed move
	startMoves   [2]int           // moves each side had completed in the start position (FEN)
	startClock   [2]time.Duration // each clock at the start of a game from a position (FEN); zero otherwise
	pressReading reading          // the reading of a press awaiting its move
	corrCredit   [2]time.Duration // the part of each clock's Credit that position resets (correct) set, not bonuses
	flagged      [2]bool          // a flag event named this side's flag (or both, 6.11)
}

// PauseInfo tells why the clocks stand still during a game.
type PauseInfo struct {
	Reason string
	Call   bool // a player stopped the clocks to call the arbiter (6.12b)
	By     Role
	ToMove clock.Side
	Cause  string // the arbiter's pause: fault|power-failure|unplayable|correction|other ("" before causes were recorded)
}

// Side returns the colour a player has in this game.
func (g *Game) Side(name string) (clock.Side, bool) {
	switch name {
	case g.White:
		return clock.White, true
	case g.Black:
		return clock.Black, true
	}
	return 0, false
}

// Name of the player of a side.
func (g *Game) Name(s clock.Side) string {
	if s == clock.White {
		return g.White
	}
	return g.Black
}

// Offerer is the side a draw offer is by when no side is named (Article
// 9.1.2.2: a player offers after making his move): the side whose press
// awaits its move, else the side that made the last move.
func (g *Game) Offerer() clock.Side {
	if g.Pressed != nil {
		return *g.Pressed
	}
	return g.ToMove().Other()
}

// ToMove is the side to move in the game's current position.
func (g *Game) ToMove() clock.Side {
	if g.Sheet == nil {
		return clock.White
	}
	if g.Sheet.ToMove() == chess.White {
		return clock.White
	}
	return clock.Black
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.State == Finished || g.State == Forfeited }

// Live reports whether the game is in progress (clocks running or paused).
func (g *Game) Live() bool { return g.State == Running || g.State == Paused }

func (g *Game) clone() *Game {
	c := *g
	if g.Sheet != nil {
		c.Sheet = g.Sheet.Clone()
	}
	c.Incidents = append([]Incident(nil), g.Incidents...)
	if g.Offer != nil {
		o := *g.Offer
		c.Offer = &o
	}
	if g.OfferNext != nil {
		s := *g.OfferNext
		c.OfferNext = &s
	}
	if g.Pressed != nil {
		s := *g.Pressed
		c.Pressed = &s
	}
	return &c
}

// State is the whole match as rebuilt from the log up to event Seq.
type State struct {
	Match   *Match // nil before "match new"
	Games   []*Game
	Current int // index into Games of the game in progress or last finished; -1 before game 1
	Seq     int64
	Head    string
	// LastAt is the record's time: the latest instant of its events but
	// the system's own and wrong credentials' (SystemEvent). A command may
	// not claim an earlier one; a press or a move only not one before its
	// game's last clock event.
	LastAt time.Time
	// MatchSeq is the seq of the last event that is not a system event
	// (SystemEvent): a station whose replica holds it lacks nothing a
	// command is checked or signed against (docs/stations.md).
	MatchSeq int64
	// Late are the events of a protected match recorded late (noteLate).
	Late []LateEvent
	Auth authState // credentials and recent wrong attempts (credential.go)
	// Bridge is the engine bridge the record knows to play the computer's
	// side (engine.start, until its engine.stop or a take-over; bridge.go);
	// nil when none, and in records written before bridges were recorded.
	Bridge *Bridge

	// shared: bit i (of the first sharedGames games) set while Games[i]
	// is the game of the state this one was cloned from, which an event
	// that changes the game copies first (own); in the state, not beside
	// it, so that a command's working copy is one allocation fewer
	// (docs/performance.md, "Move and commit, thirteenth pass")
	shared [sharedGames / 64]uint64
	// sharedMatch: Match is the state's it was cloned from, which an event
	// that changes the match copies first (ownMatch)
	sharedMatch bool
}

// ownMatch returns the match for modification, copying it first if it is
// shared with the state this one was cloned from: a command's working copy
// of the state copied it at every command, though few events change it
// (docs/performance.md, "Commit and move, ninth pass").
func (s *State) ownMatch() *Match {
	if s.sharedMatch {
		m := *s.Match
		s.Match = &m
		s.sharedMatch = false
	}
	return s.Match
}

// own returns game n for modification, cloning it first if it is shared
// with the state this one was cloned from.
func (s *State) own(n int) *Game {
	i := n - 1
	if i < sharedGames && s.shared[i/64]&(1<<(i%64)) != 0 {
		s.Games[i] = s.Games[i].clone()
		s.shared[i/64] &^= 1 << (i % 64)
	}
	return s.Games[i]
}

// sharedGames is how many games a clone can share with the state it was
// cloned from (a match has at most maxGames); a record of more has the
// games past them copied by the clone.
const sharedGames = 128

// NewState is the state of an empty log.
func NewState() *State { return &State{Current: -1} }

// Game returns game n (1-based) or nil.
func (s *State) Game(n int) *Game {
	if n < 1 || n > len(s.Games) {
		return nil
	}
	return s.Games[n-1]
}

// CurrentGame is the game in progress, or the last finished one, or nil.
func (s *State) CurrentGame() *Game {
	if s.Current < 0 {
		return nil
	}
	return s.Games[s.Current]
}

// Score is each player's points: 1 for a win, ½ for a draw.
func (s *State) Score() map[string]float64 {
	score := map[string]float64{}
	if s.Match == nil {
		return score
	}
	for _, p := range s.Match.Players {
		score[p] = 0
	}
	for _, g := range s.Games {
		switch g.Result {
		case "1-0":
			score[g.White]++
		case "0-1":
			score[g.Black]++
		case "1/2-1/2":
			score[g.White] += 0.5
			score[g.Black] += 0.5
		}
	}
	return score
}

// Standing is the match's result so far, as data: the rule of who has won
// is here once, and each face (the console, the PDF, status) words it.
type Standing struct {
	Players [2]string
	Points  [2]float64
	// Played counts the games over; Planned is the match's length.
	Played, Planned int
	// Winner is the index in Players of the player who has more than half
	// the planned games' points, or -1.
	Winner int
	// Drawn: every planned game is over and the points are level.
	Drawn bool
}

// Standing is the match's result so far (the zero Standing, Winner -1,
// before the match is created).
func (s *State) Standing() Standing {
	st := Standing{Winner: -1}
	if s.Match == nil {
		return st
	}
	sc := s.Score()
	st.Players = s.Match.Players
	st.Points = [2]float64{sc[st.Players[0]], sc[st.Players[1]]}
	st.Planned = s.Match.GamesPlanned
	for _, g := range s.Games {
		if g.Over() {
			st.Played++
		}
	}
	half := float64(st.Planned) / 2
	switch {
	case st.Points[0] > half:
		st.Winner = 0
	case st.Points[1] > half:
		st.Winner = 1
	case st.Played == st.Planned && st.Points[0] == st.Points[1]:
		st.Drawn = true
	}
	return st
}

// Phrase says the standing in one phrase: "Garry Kasparov wins the match
// 4–2", "the match is drawn 3–3", else both scores ("Garry Kasparov 1 –
// Deep Blue 1").
func (st Standing) Phrase() *phrase.Error {
	a, b := st.Players[0], st.Players[1]
	pa, pb := Points(st.Points[0]), Points(st.Points[1])
	switch {
	case st.Winner == 0:
		return phrase.Errorf("%s wins the match %s–%s", a, pa, pb)
	case st.Winner == 1:
		return phrase.Errorf("%s wins the match %s–%s", b, pb, pa)
	case st.Drawn:
		return phrase.Errorf("the match is drawn %s–%s", pa, pb)
	}
	return phrase.Errorf("%s %s – %s %s", a, pa, b, pb)
}

// MatchResult describes the match result so far in one sentence, in
// English ("" before the match is created): status's result.
func (s *State) MatchResult() string {
	if s.Match == nil {
		return ""
	}
	return s.Standing().Phrase().Error()
}

// Points formats a score with ½.
func Points(p float64) string {
	whole := int(p)
	half := p-float64(whole) >= 0.5
	switch {
	case half && whole == 0:
		return "½"
	case half:
		return itoa(whole) + "½"
	}
	return itoa(whole)
}

// after reports whether s is the match after exactly the record evs: its
// seq and head are those of evs's last event (none: an empty record). A
// nil state is after no record.
func (s *State) after(evs []store.Event) bool {
	if s == nil || s.Seq != int64(len(evs)) {
		return false
	}
	if len(evs) == 0 {
		return s.Head == ""
	}
	return s.Head == evs[len(evs)-1].Hash
}

func (s *State) clone() *State {
	c := *s
	c.Games = append([]*Game(nil), s.Games...)
	c.sharedMatch = s.Match != nil // copied when an event changes it (ownMatch)
	// Games are cloned lazily, when an event first touches them (own).
	c.shared = [sharedGames / 64]uint64{}
	for i := range c.Games {
		if i >= sharedGames {
			c.Games[i] = c.Games[i].clone()
			continue
		}
		c.shared[i/64] |= 1 << (i % 64)
	}
	return &c
}
