package match

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/scoresheet"
	"arbiter/store"
)

// Event kinds. Each is documented with its payload in docs/events.md.
const (
	KindMatchNew      = "match.new"
	KindGameSchedule  = "game.schedule"
	KindGameStart     = "game.start"
	KindGamePostpone  = "game.postpone"
	KindGameEnd       = "game.end"
	KindMove          = "move"
	KindPress         = "press"
	KindPause         = "pause"
	KindResume        = "resume"
	KindAdjust        = "adjust"
	KindDrawOffer     = "draw.offer"
	KindDrawAccept    = "draw.accept"
	KindDrawDecline   = "draw.decline"
	KindFlag          = "flag"
	KindIncident      = "incident"
	KindRecovery      = "recovery"
	KindCorrect       = "correct"
	KindAmend         = "amend"
	KindClaim         = "claim"
	KindPeopleChanged = "people"
	KindEngineMove    = "engine.move"
	KindEngineStart   = "engine.start"
	KindEngineStop    = "engine.stop"
)

// MatchNewPayload creates the match.
type MatchNewPayload struct {
	// ID is the match's random id (NewMatchID), signed with the match by
	// the arbiter's first key: 'verify --match' tells this match from
	// another made with the same key file. Records made before it have none.
	ID           string            `json:"match_id,omitempty"`
	Title        string            `json:"title"`
	Site         string            `json:"site,omitempty"`
	Arbiter      string            `json:"arbiter,omitempty"`
	Players      [2]string         `json:"players"`
	Computer     string            `json:"computer,omitempty"`
	Operators    []string          `json:"operators,omitempty"`
	Appeals      []string          `json:"appeals,omitempty"`
	Games        int               `json:"games"`
	Controls     map[string]string `json:"controls"` // player name -> PGN TimeControl
	PINHash      string            `json:"pin_hash,omitempty"`
	PINSalt      string            `json:"pin_salt,omitempty"`
	Credential   *Credential       `json:"credential,omitempty"` // the arbiter's (credential.go)
	ForfeitAfter int64             `json:"forfeit_after_ms"`
	Game1White   string            `json:"game1_white"`
	Lots         string            `json:"lots"`
	LotsDraw     string            `json:"lots_draw,omitempty"` // the random bytes drawn (hex), for the record
	TimeZone     string            `json:"time_zone,omitempty"` // IANA zone name (match new --tz); "" = UTC
}

// GamePayload names a game and optionally a reason.
type GamePayload struct {
	Game   int    `json:"game"`
	Start  string `json:"start,omitempty"` // RFC 3339, game.schedule
	White  string `json:"white,omitempty"`
	Black  string `json:"black,omitempty"`
	Reason string `json:"reason,omitempty"`
	// game.start from a position: the FEN, and each clock when given
	// (nanoseconds; absent: the control's time for the period the FEN's
	// move number puts the side in).
	FEN     string `json:"fen,omitempty"`
	WhiteNS *int64 `json:"white_ns,omitempty"`
	BlackNS *int64 `json:"black_ns,omitempty"`
}

// MovePayload records a move. Press tells whether the move event itself
// presses the mover's clock (false when the clock was pressed before, or the
// move ended the game).
type MovePayload struct {
	SAN   string `json:"san"`
	UCI   string `json:"uci"`
	Press bool   `json:"press"`
	Input string `json:"input,omitempty"`
	// A move that presses the clock, given at a station, carries the
	// press's stamp as a press does.
	PressStamp
}

// SidePayload names a side.
type SidePayload struct {
	Side   string `json:"side"`
	Reason string `json:"reason,omitempty"`
	Call   bool   `json:"call,omitempty"`
	Cause  string `json:"cause,omitempty"` // pause: fault|power-failure|unplayable|correction|other ("" = other)
	PressStamp
}

// PressStamp is how a press given at a station was timed (docs/stations.md;
// in a press, and in a move that presses the clock): the instant stamped
// where it happened, the first receipt by any record holder (which, and the
// round trip it measured to the sender), the sender's clock uncertainty,
// the receipt's (match.Stamp); raised: the stamp was raised to receipt
// minus round trip; lowered: it was later than the receipt (within the
// receiving clock's uncertainty) and lowered to it; clamped: the receipt
// lay before the clock's previous press, which the stamp did not, and the
// press is recorded at that previous press, no earlier (tx.clockBound);
// correction: it arrived late and corrects the clocks
// shown. Empty for a press given where the record is.
type PressStamp struct {
	PressedNS            int64  `json:"pressed_ns,omitempty"`
	ReceivedNS           int64  `json:"received_ns,omitempty"`
	ReceivedBy           string `json:"received_by,omitempty"`
	RTTNS                int64  `json:"rtt_ns,omitempty"`
	UncertaintyNS        int64  `json:"uncertainty_ns,omitempty"`
	ReceiptUncertaintyNS int64  `json:"receipt_uncertainty_ns,omitempty"`
	Raised               bool   `json:"raised,omitempty"`
	Lowered              bool   `json:"lowered,omitempty"`
	Clamped              bool   `json:"clamped,omitempty"`
	Correction           bool   `json:"correction,omitempty"`
}

// pressStamp is the stamp a station's command carries (nil: none).
func pressStamp(st *Stamp) PressStamp {
	if st == nil {
		return PressStamp{}
	}
	return PressStamp{PressedNS: st.Pressed.UnixNano(), ReceivedNS: st.Received.UnixNano(), ReceivedBy: st.ReceivedBy,
		RTTNS: int64(st.RTT), UncertaintyNS: int64(st.Uncertainty), ReceiptUncertaintyNS: int64(st.ReceiptUncertainty),
		Raised: st.Raised, Lowered: st.Lowered, Clamped: st.Clamped, Correction: st.Correction}
}

// AdjustPayload is an arbiter's clock correction.
type AdjustPayload struct {
	Side   string `json:"side"`
	Op     string `json:"op"` // "add" or "set"
	MS     int64  `json:"ms"` // add: signed delta; set: new remaining
	NS     int64  `json:"ns,omitempty"`
	Moves  *int   `json:"moves,omitempty"`
	Period *int   `json:"period,omitempty"` // 1-based
	Reason string `json:"reason"`
	Rule   string `json:"rule,omitempty"`
	// Why is Reason as a phrase where the core gave the reason (a recovery
	// bonus), for a face to say it in its language (absent in older records)
	Why *phrase.Error `json:"why,omitempty"`
}

// EndPayload ends a game.
type EndPayload struct {
	Result      string `json:"result"`
	Termination string `json:"termination"`
	Reason      string `json:"reason,omitempty"`
	// Why is Reason as a code and arguments (a flag's 6.9 verdict), for a
	// console to say it in its language (absent in older records)
	Why *phrase.Error `json:"why,omitempty"`
}

// FlagPayload records a fallen flag observed or claimed. Side is the flag
// the verdict is about; Claimed, when set, is the flag that was claimed
// when the other one had fallen first and decided (6.8). FellAt is the
// instant Side's flag fell (RFC 3339, derived from the clock, not the
// instant of the record); for "both", WhiteFellAt and BlackFellAt.
type FlagPayload struct {
	Side         string `json:"side"` // white|black|both
	OrderUnknown bool   `json:"order_unknown,omitempty"`
	Verdict      string `json:"verdict,omitempty"`
	Reason       string `json:"reason,omitempty"`
	// Why is Reason as a code (its English format) and arguments, so that
	// a console says the verdict in its language (absent in older records)
	Why         *phrase.Error `json:"why,omitempty"`
	Claimed     string        `json:"claimed,omitempty"`
	FellAt      string        `json:"fell_at,omitempty"`
	WhiteFellAt string        `json:"white_fell_at,omitempty"`
	BlackFellAt string        `json:"black_fell_at,omitempty"`
}

// IncidentPayload is an entry of the incident log.
type IncidentPayload struct {
	Kind   string `json:"kind"`
	Text   string `json:"text"`
	Rule   string `json:"rule,omitempty"`
	Effect string `json:"effect,omitempty"`
	Name   string `json:"name,omitempty"`   // new operator / arbiter
	Result string `json:"result,omitempty"` // appeal decision changing the result
	Refers int64  `json:"refers,omitempty"` // seq of the ruling an appeal contests, or of the appeal a decision closes
	Extra  any    `json:"extra,omitempty"`
	// Why is Text as a phrase where the core wrote the text (a
	// suspension), for a face to say it in its language (absent in older
	// records)
	Why *phrase.Error `json:"why,omitempty"`
}

// RecoveryPayload records that the program was away while a clock ran.
type RecoveryPayload struct {
	AwayMS  int64  `json:"away_ms"`
	Running string `json:"running"`
	Text    string `json:"text"`
}

func decode(e store.Event, v any) error {
	if err := json.Unmarshal(e.Payload, v); err != nil {
		return fmt.Errorf("event %d (%s): bad payload: %w", e.Seq, e.Kind, err)
	}
	return nil
}

// StationKindPrefix starts the kinds of the events that stations record
// about themselves (claims of authority, members joining): they are part of
// the chain but change nothing in the match.
const StationKindPrefix = "station."

// Apply advances the state by one event. It fails only on a log that this
// version of Arbiter cannot interpret; the state is then unspecified.
func (s *State) Apply(e store.Event) error {
	if err := s.apply(e); err != nil {
		return fmt.Errorf("match: replay event %d (%s): %w", e.Seq, e.Kind, err)
	}
	s.noteActed(e)
	s.noteLate(e)
	s.Seq = e.Seq
	s.Head = e.Hash
	if !SystemEvent(e) {
		s.MatchSeq = e.Seq
		if e.At.After(s.LastAt) {
			s.LastAt = e.At
		}
	}
	return nil
}

// SystemEvent reports whether e is the system's own (a station's event, a
// recovery note) or a wrong credential's (auth.fail): such events go into
// the log in order with the instant they claim and the instant they were
// received, and never bound a command's instant (State.LastAt).
func SystemEvent(e store.Event) bool {
	return e.Role == string(RoleSystem) || e.Kind == KindAuthFail
}

// LateEvent is an event of a protected match recorded more than LateAfter
// after the instant it claims (given with the arbiter's credential: a
// recovery, a replay): status --json and the report show it as recorded late.
type LateEvent struct {
	Seq      int64     `json:"seq"`
	Game     int       `json:"game"`
	Kind     string    `json:"kind"`
	Role     Role      `json:"role"`
	Actor    string    `json:"actor"`
	At       time.Time `json:"at"`
	Received time.Time `json:"received"`
	// In is the game whose incident log shows it: its own, or for a
	// match-level event the game in progress then (else the first).
	In int `json:"-"`
}

// Late is how much later than its instant the event was received.
func (l LateEvent) Late() time.Duration { return l.Received.Sub(l.At) }

// noteLate keeps e among the events recorded late (State.Late).
func (s *State) noteLate(e store.Event) {
	if e.Received.IsZero() || SystemEvent(e) || !s.Protected() || e.Received.Sub(e.At) <= LateAfter {
		return
	}
	in := e.Game
	if g := s.CurrentGame(); in == 0 && g != nil {
		in = g.Number
	}
	s.Late = append(s.Late[:len(s.Late):len(s.Late)], LateEvent{Seq: e.Seq, Game: e.Game, Kind: e.Kind, Role: Role(e.Role), Actor: e.Actor, At: e.At, Received: e.Received, In: max(in, 1)})
}

func (s *State) apply(e store.Event) error {
	if strings.HasPrefix(e.Kind, StationKindPrefix) {
		return nil // the stations' own events (package station) change no match state
	}
	h := eventHandlers[e.Kind]
	if s.Match == nil && e.Kind != KindMatchNew {
		return fmt.Errorf("no match yet")
	}
	if e.Game == 0 || e.Kind == KindMatchNew {
		if h.match == nil {
			return fmt.Errorf("unknown match-level event kind %q", e.Kind)
		}
		return h.match(s, e)
	}
	if s.Game(e.Game) == nil {
		return fmt.Errorf("no game %d", e.Game)
	}
	if h.game == nil {
		return fmt.Errorf("unknown event kind %q", e.Kind)
	}
	return h.game(s, s.own(e.Game), e)
}

func applyMatchNew(s *State, e store.Event) error {
	var p MatchNewPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	return s.applyMatchNew(e, p)
}

func (s *State) applyMatchNew(e store.Event, p MatchNewPayload) error {
	if s.Match != nil {
		return fmt.Errorf("a match exists already")
	}
	m := &Match{
		ID: p.ID, Title: p.Title, Site: p.Site, Arbiter: p.Arbiter, Players: p.Players, Computer: p.Computer,
		Operators: p.Operators, Appeals: p.Appeals, GamesPlanned: p.Games, PINHash: p.PINHash, PINSalt: p.PINSalt,
		ForfeitAfter: time.Duration(p.ForfeitAfter) * time.Millisecond, Game1White: p.Game1White, Lots: p.Lots,
		Created: e.At, Controls: map[string]clock.Control{}, TimeZone: p.TimeZone,
	}
	if len(p.Operators) > 0 {
		m.Operator = p.Operators[0]
	}
	for name, spec := range p.Controls {
		c, err := clock.ParseTimeControl(spec)
		if err != nil {
			return err
		}
		m.Controls[name] = c
	}
	if p.Credential != nil {
		m.Credential = p.Credential
		s.Auth = s.Auth.withCred(p.Credential, e)
	}
	s.Match, s.sharedMatch = m, false
	s.Games = nil
	s.shared = [sharedGames / 64]uint64{} // games created here belong to this state
	for n := 1; n <= p.Games; n++ {
		s.Games = append(s.Games, &Game{Number: n, White: m.WhiteOf(n), Black: m.Opponent(m.WhiteOf(n)), State: Scheduled, Result: "*"})
	}
	return nil
}

// applyMatchIncident applies an incident of the match (no game's): a
// replacement changes who holds a role.
func applyMatchIncident(s *State, e store.Event) error {
	var p IncidentPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	s.applyPeople(p)
	return nil
}

// applyPeople updates who holds a role after a replacement incident.
func (s *State) applyPeople(p IncidentPayload) {
	switch p.Kind {
	case "operator-replaced":
		s.ownMatch().Operator = p.Name
	case "arbiter-replaced":
		s.ownMatch().Arbiter = p.Name
	}
}

type gameHandler func(s *State, g *Game, e store.Event) error

// eventHandler applies one kind of event: match, one recorded at the
// match's level (game 0); game, one recorded in a game.
type eventHandler struct {
	match func(s *State, e store.Event) error
	game  gameHandler
}

// eventHandlers apply the events by kind: the one table of them (the
// stations' own events, StationKindPrefix, change no match state).
var eventHandlers = map[string]eventHandler{
	KindMatchNew:      {match: applyMatchNew},
	KindCredentialAdd: {match: applyCredentialAdd},
	KindAuthFail:      {match: applyAuthFail},
	KindGameSchedule:  {game: applySchedule},
	KindGameStart:     {game: applyStart},
	KindGamePostpone:  {game: applyPostpone},
	KindGameEnd:       {game: applyEnd},
	KindMove:          {game: applyMove},
	KindPress:         {game: applyPress},
	KindPause:         {game: applyPause},
	KindResume:        {game: applyResume},
	KindAdjust:        {game: applyAdjust},
	KindDrawOffer:     {game: applyDrawOffer},
	KindDrawAccept:    {game: applyDrawAnswer},
	KindDrawDecline:   {game: applyDrawAnswer},
	KindFlag:          {game: applyFlag},
	KindIncident:      {match: applyMatchIncident, game: applyIncident},
	KindRecovery:      {game: applyRecovery},
	KindCorrect:       {game: applyCorrect},
	KindAmend:         {game: applyAmend},
	KindClaim:         {game: applyClaim},
	KindArrive:        {game: applyArrive},
	KindEngineMove:    {game: applyEngineMove},
	KindEngineStart:   {match: applyEngineStart},
	KindEngineStop:    {match: applyEngineStop},
}

func applySchedule(s *State, g *Game, e store.Event) error {
	var p GamePayload
	if err := decode(e, &p); err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, p.Start)
	if err != nil {
		return err
	}
	g.Scheduled = t
	return nil
}

func applyStart(s *State, g *Game, e store.Event) error {
	wc, ok1 := s.Match.Controls[g.White]
	bc, ok2 := s.Match.Controls[g.Black]
	if !ok1 || !ok2 {
		return fmt.Errorf("no time control for the players")
	}
	var p GamePayload
	if err := decode(e, &p); err != nil {
		return err
	}
	sheet, err := scoresheet.NewSheet(p.FEN)
	if err != nil {
		return err
	}
	c := clock.New(wc, bc)
	g.startMoves, g.startClock = [2]int{}, [2]time.Duration{}
	if p.FEN != "" {
		if c, err = setUpClock(c, sheet, p, e.At); err != nil {
			return err
		}
		g.startMoves = startMoves(sheet)
		g.startClock = [2]time.Duration{c.Remaining(clock.White, e.At), c.Remaining(clock.Black, e.At)}
		g.corrCredit = [2]time.Duration{c.Credit(clock.White), c.Credit(clock.Black)}
	}
	toMove := clock.White
	if sheet.ToMove() == chess.Black {
		toMove = clock.Black
	}
	if c, err = c.StartSide(toMove, e.At); err != nil {
		return err
	}
	g.Sheet = sheet
	g.Clock = c
	g.State = Running
	g.Started = e.At
	g.FirstEvent = e.Seq
	g.Result = "*"
	s.Current = g.Number - 1
	return nil
}

// startMoves is how many moves each side had completed in the position a
// sheet starts from, by its FEN's move number: with White to move at move
// N both have made N−1; with Black to move White has made N.
func startMoves(sheet *scoresheet.Sheet) [2]int {
	f := strings.Fields(sheet.StartFEN())
	n := 1
	if len(f) == 6 {
		if k, err := strconv.Atoi(f[5]); err == nil && k > 0 {
			n = k
		}
	}
	if len(f) == 6 && f[1] == "b" {
		return [2]int{n, n - 1}
	}
	return [2]int{n - 1, n - 1}
}

// setUpClock sets the move counters (and so the periods) of a game started
// from a position, and each clock as given or else to the control's time for
// that period.
func setUpClock(c clock.Clock, sheet *scoresheet.Sheet, p GamePayload, at time.Time) (clock.Clock, error) {
	moves := startMoves(sheet)
	given := [2]*int64{p.WhiteNS, p.BlackNS}
	for _, s := range []clock.Side{clock.White, clock.Black} {
		var err error
		if c, err = c.SetMoves(s, moves[s], at); err != nil {
			return c, err
		}
		ctl := c.Control(s)
		if ctl.Mode != clock.Timed {
			continue
		}
		d := ctl.PeriodAt(c.Period(s)).Duration
		if given[s] != nil {
			d = time.Duration(*given[s])
		}
		if c, err = c.SetRemaining(s, d, at); err != nil {
			return c, err
		}
	}
	return c, nil
}

func applyPostpone(s *State, g *Game, e store.Event) error {
	var p GamePayload
	if err := decode(e, &p); err != nil {
		return err
	}
	g.State = Postponed
	g.Reason = p.Reason
	g.Incidents = append(g.Incidents, s.incident(g, e, IncidentPostponed, p.Reason, "rule 3", ""))
	return nil
}

func applyEnd(s *State, g *Game, e store.Event) error {
	var p EndPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	p.Why = helpmateMoves(p.Why)
	if g.Clock.Started() && !g.Clock.Stopped() {
		c, err := g.Clock.Stop(e.At)
		if err != nil {
			return err
		}
		g.Clock = c
	}
	g.Result = p.Result
	g.Termination = scoresheet.Termination(p.Termination)
	g.Reason = p.Reason
	g.Why = recordedPhrase(p.Reason, p.Why, g) // an older record's resignation too
	g.Ended = e.At
	g.Offer, g.OfferNext, g.Pressed = nil, nil, nil
	if p.Termination == string(scoresheet.TermForfeit) {
		g.State = Forfeited
	} else {
		g.State = Finished
	}
	if g.Started.IsZero() {
		g.Started = e.At
	}
	s.Current = g.Number - 1
	text := phrase.Errorf("%s (%s)", p.Result, phrase.Word(p.Termination))
	if flag := flagSaying(g, p.Reason); flag != nil {
		// the flag's incident says the verdict: the result names it
		// rather than saying it a second time
		text = phrase.Errorf("%s (%s): the verdict on the flag, #%d", p.Result, phrase.Word(p.Termination), flag.Seq)
	} else if p.Reason != "" {
		text = phrase.Errorf("%s (%s): %s", p.Result, phrase.Word(p.Termination), reasonArg(p.Reason, p.Why, g))
	}
	inc := s.said(g, e, IncidentResult, "", text, phrase.Errorf("clocks stopped"))
	inc.Why = p.Why
	g.Incidents = append(g.Incidents, inc)
	return nil
}

// flagSaying is the flag incident of g whose text is reason, the verdict
// a game ended on (nil when none says it).
func flagSaying(g *Game, reason string) *Incident {
	if reason == "" {
		return nil
	}
	for i := len(g.Incidents) - 1; i >= 0; i-- {
		if in := &g.Incidents[i]; in.Kind == IncidentFlag && in.Text == reason {
			return in
		}
	}
	return nil
}

// ReasonSaidByFlag reports whether g's end reason is the verdict a flag
// incident of g says word for word, so that a report says it once.
func (g *Game) ReasonSaidByFlag() bool { return flagSaying(g, g.Reason) != nil }

func applyMove(s *State, g *Game, e store.Event) error {
	var p MovePayload
	if err := decode(e, &p); err != nil {
		return err
	}
	mover := g.ToMove()
	entry, err := g.Sheet.Play(p.UCI)
	if err != nil {
		return err
	}
	var r reading
	switch {
	case g.Pressed != nil:
		r = g.pressReading
		g.Pressed = nil
	case p.Press:
		c, err := g.Clock.Press(mover, e.At)
		if err != nil {
			return err
		}
		g.Clock = c
		r = g.completion(mover, e.At)
	default:
		r = g.completion(mover, e.At)
	}
	entry.At = r.at
	entry.Used = r.used
	entry.Elapsed = r.ran
	entry.ClockWhite = r.white
	entry.ClockBlack = r.black
	if g.OfferNext != nil && *g.OfferNext == mover {
		// the move made with the offer carries its (=), whether the offer
		// still stands or was answered before the move
		entry.DrawOffer = true
		g.OfferNext = nil
	}
	if g.Offer != nil && g.Offer.By != mover && entry.Ply > g.Offer.Ply {
		// The opponent made a move after the offer: it lapses.
		g.Offer, g.OfferNext = nil, nil
	}
	return nil
}

// reading is what the scoresheet records when a move is completed.
type reading struct {
	at           time.Time
	used         time.Duration // charged to the mover's main time
	ran          time.Duration // the mover's clock ran: delay included, stopped time excluded ([%emt])
	white, black time.Duration
}

// completion records the mover's move as completed at instant at: the time
// it took is the growth of the mover's charged time since their previous
// completion (the mover's clock does not run in between).
func (g *Game) completion(mover clock.Side, at time.Time) reading {
	used, ran := g.Clock.Used(mover, at), g.Clock.Ran(mover, at)
	r := reading{at: at, used: used - g.usedMark[mover], ran: ran - g.ranMark[mover],
		white: g.Clock.Remaining(clock.White, at), black: g.Clock.Remaining(clock.Black, at)}
	g.usedMark[mover], g.ranMark[mover] = used, ran
	return r
}

// markUsed re-bases the per-move timing after a correction of the clocks.
func (g *Game) markUsed(at time.Time) {
	g.usedMark[clock.White] = g.Clock.Used(clock.White, at)
	g.usedMark[clock.Black] = g.Clock.Used(clock.Black, at)
	g.ranMark[clock.White] = g.Clock.Ran(clock.White, at)
	g.ranMark[clock.Black] = g.Clock.Ran(clock.Black, at)
}

func sideOf(name string) (clock.Side, error) { return clock.ParseSide(name) }

// decodeSide decodes the payload of an event that names a side.
func decodeSide(e store.Event) (SidePayload, clock.Side, error) {
	var p SidePayload
	if err := decode(e, &p); err != nil {
		return p, 0, err
	}
	side, err := sideOf(p.Side)
	return p, side, err
}

func applyPress(s *State, g *Game, e store.Event) error {
	_, side, err := decodeSide(e)
	if err != nil {
		return err
	}
	c, err := g.Clock.Press(side, e.At)
	if err != nil {
		return err
	}
	g.Clock = c
	g.Pressed = &side
	g.PressedAt = e.At
	g.pressReading = g.completion(side, e.At)
	return nil
}

func applyPause(s *State, g *Game, e store.Event) error {
	var p SidePayload
	if err := decode(e, &p); err != nil {
		return err
	}
	running, _ := g.Clock.Running()
	c, err := g.Clock.Pause(e.At)
	if err != nil {
		return err
	}
	g.Clock = c
	g.State = Paused
	g.Paused = PauseInfo{Reason: p.Reason, Call: p.Call, By: Role(e.Role), ToMove: running, Cause: p.Cause}
	kind, rule := "pause", "6.12a"
	if p.Call {
		kind, rule = "call", "6.12b"
	}
	text := p.Reason
	var said *phrase.Error
	if p.Cause != "" && p.Cause != CauseOther {
		text = strings.TrimSpace("cause: " + causeWord(p.Cause).String() + ". " + p.Reason)
		said = phrase.Errorf("cause: %s.", causeWord(p.Cause))
		if p.Reason != "" {
			said = phrase.Errorf("cause: %s. %s", causeWord(p.Cause), phrase.Word(p.Reason))
		}
	}
	inc := s.said(g, e, kind, rule, nil, phrase.Errorf("clocks stopped"))
	inc.Text, inc.Said = text, sameText(text, said)
	g.Incidents = append(g.Incidents, inc)
	return nil
}

func applyResume(s *State, g *Game, e store.Event) error {
	_, side, err := decodeSide(e)
	if err != nil {
		return err
	}
	c, err := g.Clock.Resume(side, e.At)
	if err != nil {
		return err
	}
	g.Clock = c
	g.State = Running
	g.Paused = PauseInfo{}
	g.Incidents = append(g.Incidents, s.said(g, e, "resume", "6.12c", phrase.Errorf("%s's clock runs again", colour(side)), phrase.Errorf("clock started")))
	return nil
}

func applyAdjust(s *State, g *Game, e store.Event) error {
	var p AdjustPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	side, err := sideOf(p.Side)
	if err != nil {
		return err
	}
	before := g.clocksAt(e.At)
	c, effect, err := adjustClock(g.Clock, side, p, e.At)
	if err != nil {
		return err
	}
	g.Clock = c
	rule := p.Rule
	if rule == "" {
		rule = "6.10"
	}
	inc := s.said(g, e, IncidentAdjust, rule, nil, effect)
	inc.Text, inc.Said = p.Reason, recordedPhrase(p.Reason, p.Why, g)
	inc.Before = &before
	g.Incidents = append(g.Incidents, inc)
	return nil
}

// adjustClock applies an adjustment to a clock value and describes it
// ("White +0:05:00, move counter 20").
func adjustClock(c clock.Clock, side clock.Side, p AdjustPayload, at time.Time) (clock.Clock, *phrase.Error, error) {
	d := time.Duration(p.MS)*time.Millisecond + time.Duration(p.NS)
	var err error
	var effect *phrase.Error
	switch p.Op {
	case "add":
		c, err = c.AddTime(side, d, at)
		effect = phrase.Errorf("%s %s", colour(side), clock.FormatCorrection(d))
	case "set":
		c, err = c.SetRemaining(side, d, at)
		effect = phrase.Errorf("%s set to %s", colour(side), clock.FormatReading(d))
	default:
		return c, nil, fmt.Errorf("unknown adjustment %q", p.Op)
	}
	if err != nil {
		return c, nil, err
	}
	if p.Moves != nil {
		c, err = c.SetMoves(side, *p.Moves, at)
		if err != nil {
			return c, nil, err
		}
		effect = phrase.Errorf("%s, move counter %d", effect, *p.Moves)
	}
	if p.Period != nil {
		c, err = c.SetPeriod(side, *p.Period-1, at)
		if err != nil {
			return c, nil, err
		}
		effect = phrase.Errorf("%s, period %d", effect, *p.Period)
	}
	return c, effect, nil
}

func applyDrawOffer(s *State, g *Game, e store.Event) error {
	_, side, err := decodeSide(e)
	if err != nil {
		return err
	}
	// An offer may be made on either clock (Article 9.1: after one's move
	// is the proper moment, any other still counts). It stands until the
	// opponent answers it or completes a move after it; a move completed
	// by a press awaiting its entry counts as made.
	entries := g.Sheet.Entries()
	made := len(entries)
	if g.Pressed != nil {
		made++
	}
	g.Offer = &Offer{By: side, Ply: made}
	switch n := len(entries); {
	case g.Pressed != nil || g.ToMove() == side:
		// before the offerer's move is entered (his press awaits it) or
		// made (his clock runs, or the opponent's press awaits its entry):
		// the (=) goes with that move
		g.OfferNext = &side
	case n > 0 && sideOfColor(entries[n-1].Color) == side:
		// offered with the move just made: "(=)" goes with that move (an
		// edit: the entries may be shared with a clone of the sheet)
		g.Sheet.Edit(n, func(e *scoresheet.Entry) { e.DrawOffer = true })
	}
	g.Incidents = append(g.Incidents, s.said(g, e, "draw offer", "rule 8/14", phrase.Errorf("%s offers a draw", g.Name(side)), nil))
	return nil
}

func applyDrawAnswer(s *State, g *Game, e store.Event) error {
	_, side, err := decodeSide(e)
	if err != nil {
		return err
	}
	kind, text := "draw decline", phrase.Errorf("%s declines the draw offer", g.Name(side))
	if e.Kind == KindDrawAccept {
		kind, text = "draw accept", phrase.Errorf("%s accepts the draw offer", g.Name(side))
	}
	// the offer is answered; an offer made before the offerer's move keeps
	// its (=) for that move
	g.Offer = nil
	g.Incidents = append(g.Incidents, s.said(g, e, kind, "rule 8/14", text, nil))
	return nil
}

func applyFlag(s *State, g *Game, e store.Event) error {
	var p FlagPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	p.Why = helpmateMoves(p.Why)
	if p.OrderUnknown {
		c, err := g.Clock.BothFlagsOrderUnknown(e.At)
		if err != nil {
			return err
		}
		g.Clock = c
		g.flagged = [2]bool{true, true}
	} else if side, err := sideOf(p.Side); err == nil {
		g.flagged[side] = true
	}
	who := phrase.Word(p.Side) // as the rest names a side: "White", "Black"
	if side, err := sideOf(p.Side); err == nil {
		who = colour(side)
	}
	// "Black's flag fell at …", as the verdict after it says it: before,
	// "Black flag fell at …; can mate (Black's flag fell at …)"
	text := phrase.Errorf("%s's flag fell", who)
	fell, _ := time.Parse(time.RFC3339Nano, p.FellAt)
	if !fell.IsZero() {
		text = phrase.Errorf("%s's flag fell at %s", who, s.Match.Instant(fell))
	}
	if p.OrderUnknown {
		text = phrase.Errorf("both flags fallen, order unknown: the game continues")
		w, _ := time.Parse(time.RFC3339Nano, p.WhiteFellAt)
		b, _ := time.Parse(time.RFC3339Nano, p.BlackFellAt)
		if !w.IsZero() && !b.IsZero() {
			text = phrase.Errorf("both flags fallen (White's at %s, Black's at %s), order unknown: the game continues", s.Match.Instant(w), s.Match.Instant(b))
		}
	}
	var reason any = p.Reason // an older record's verdict: as recorded
	if why := sameText(p.Reason, p.Why); why != nil {
		reason = why
	}
	switch {
	case p.Reason != "" && !p.OrderUnknown && strings.Contains(p.Reason, text.Error()):
		// the verdict says whose flag fell, when, the verdict and its
		// line: said once. Before, "White's flag fell at …; can mate
		// (White's flag fell at … Black can still checkmate, e.g. …)"
		text = phrase.Errorf("%s", reason)
	case p.Reason != "":
		if p.Verdict != "" {
			text = phrase.Errorf("%s; %s", text, phrase.Word(p.Verdict))
		}
		text = phrase.Errorf("%s (%s)", text, reason)
	case p.Verdict != "":
		text = phrase.Errorf("%s; %s", text, phrase.Word(p.Verdict))
	}
	rule := "6.8/6.9"
	if p.OrderUnknown {
		rule = "6.11"
	}
	inc := s.said(g, e, IncidentFlag, rule, text, nil)
	inc.Why = p.Why
	if !fell.IsZero() {
		inc.At = fell // the console, the PGN and the PDF show when the flag fell, not when it was recorded
	}
	g.Incidents = append(g.Incidents, inc)
	return nil
}

func applyIncident(s *State, g *Game, e store.Event) error {
	var p IncidentPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	s.applyPeople(p)
	inc := s.incident(g, e, p.Kind, p.Text, p.Rule, p.Effect)
	inc.Said = recordedPhrase(p.Text, p.Why, g)
	inc.EffectSaid = sameText(p.Effect, effectPhrase(p.Effect, g))
	g.Incidents = append(g.Incidents, inc)
	if h, ok := incidentEffects[p.Kind]; ok {
		return h(s, g, e, p)
	}
	return nil
}

// incidentEffects are the automatic effects of incident kinds on the game
// as the record is replayed (procedures.go).
var incidentEffects = map[string]func(s *State, g *Game, e store.Event, p IncidentPayload) error{
	IncidentAppeal:         keepRefers,
	IncidentAppealDecision: applyAppealDecision,
}

func applyRecovery(s *State, g *Game, e store.Event) error {
	var p RecoveryPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	inc := s.incident(g, e, IncidentRecovery, p.Text, "rule 7", "")
	inc.Said = recoveryPhrase(p)
	g.Incidents = append(g.Incidents, inc)
	return nil
}

// clocksAt are both clocks (White's, Black's) at instant at.
func (g *Game) clocksAt(at time.Time) [2]time.Duration {
	return [2]time.Duration{g.Clock.Remaining(clock.White, at), g.Clock.Remaining(clock.Black, at)}
}

// incident builds an incident-log entry with both clock readings at the event.
func (s *State) incident(g *Game, e store.Event, kind, text, rule, effect string) Incident {
	inc := Incident{Seq: e.Seq, At: e.At, Role: Role(e.Role), Actor: e.Actor, Kind: kind, Text: text, Rule: rule, Effect: effect}
	if g.Sheet != nil {
		inc.Ply = g.Sheet.Ply()
	}
	if g.Clock.Started() {
		inc.WhiteClock = g.Clock.Remaining(clock.White, e.At)
		inc.BlackClock = g.Clock.Remaining(clock.Black, e.At)
	}
	return inc
}
