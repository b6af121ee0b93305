package match

import (
	"time"

	"arbiter/clock"
)

// Status is the machine-readable state printed by "status --json".
type Status struct {
	Match *StatusMatch  `json:"match"`
	Game  *StatusGame   `json:"game"`
	Games []StatusEntry `json:"games"`
	Seq   int64         `json:"seq"`
	Head  string        `json:"head"`
	At    string        `json:"at"`
	// RecordedLate are the events of a protected match recorded more than
	// LateAfter after the instant they claim (given with the arbiter's
	// credential), each with both instants.
	RecordedLate []StatusLate `json:"recorded_late"`
}

// StatusLate is an event recorded late: the instant it claims and the
// instant it was received.
type StatusLate struct {
	Seq      int64  `json:"seq"`
	Game     int    `json:"game"`
	Kind     string `json:"kind"`
	Role     Role   `json:"role"`
	Actor    string `json:"actor"`
	At       string `json:"at"`
	Received string `json:"received"`
	LateMS   int64  `json:"late_ms"`
}

// StatusMatch summarises the match.
type StatusMatch struct {
	Title        string             `json:"title"`
	Site         string             `json:"site,omitempty"`
	Arbiter      string             `json:"arbiter,omitempty"`
	Players      []string           `json:"players"`
	Computer     string             `json:"computer,omitempty"`
	Operator     string             `json:"operator,omitempty"`
	GamesPlanned int                `json:"games_planned"`
	Score        map[string]float64 `json:"score"`
	Result       string             `json:"result"`
	TimeControl  map[string]string  `json:"time_control"`
	// TimeZone is the match's zone (match new --tz), in which people read
	// its times of day; empty for a match without one (UTC).
	TimeZone string `json:"time_zone,omitempty"`
}

// StatusGame is the game in progress (or the last finished one).
type StatusGame struct {
	Number      int         `json:"number"`
	White       string      `json:"white"`
	Black       string      `json:"black"`
	State       GameState   `json:"state"`
	Result      string      `json:"result"`
	Termination string      `json:"termination"`
	FEN         string      `json:"fen"`
	Ply         int         `json:"ply"`
	ToMove      string      `json:"to_move"`
	LastMove    string      `json:"last_move,omitempty"`
	DrawOffer   string      `json:"draw_offer,omitempty"`
	Clock       StatusClock `json:"clock"`
}

// StatusClock holds both clocks read at the status instant.
type StatusClock struct {
	White   SideClock `json:"white"`
	Black   SideClock `json:"black"`
	Running string    `json:"running"`
}

// SideClock is one side's clock.
type SideClock struct {
	RemainingMS    int64  `json:"remaining_ms"`
	Display        string `json:"display"`
	Period         int    `json:"period"`
	Moves          int    `json:"moves"`
	MovesToControl *int   `json:"moves_to_control"`
	Flag           any    `json:"flag"` // false, or an object once the time has run out
}

// FlagInfo describes a fallen flag.
type FlagInfo struct {
	At           string `json:"at,omitempty"`
	First        bool   `json:"first"`
	OrderUnknown bool   `json:"order_unknown,omitempty"` // of an Article 6.11 finding, or both fell at one instant: never claimable
	Moves        int    `json:"moves"`
	Required     int    `json:"required"`
	RequiredDone bool   `json:"required_done"`
}

// StatusEntry is one row of the match table.
type StatusEntry struct {
	Number int       `json:"number"`
	White  string    `json:"white"`
	Black  string    `json:"black"`
	Result string    `json:"result"`
	State  GameState `json:"state"`
}

// StatusAt reads the state at instant at.
func (s *State) StatusAt(at time.Time) Status {
	st := Status{Games: []StatusEntry{}, Seq: s.Seq, Head: s.Head, At: at.UTC().Format(time.RFC3339Nano), RecordedLate: []StatusLate{}}
	for _, l := range s.Late {
		st.RecordedLate = append(st.RecordedLate, StatusLate{Seq: l.Seq, Game: l.Game, Kind: l.Kind, Role: l.Role, Actor: l.Actor,
			At: l.At.UTC().Format(time.RFC3339Nano), Received: l.Received.UTC().Format(time.RFC3339Nano), LateMS: l.Late().Milliseconds()})
	}
	if s.Match == nil {
		return st
	}
	m := s.Match
	st.Match = &StatusMatch{Title: m.Title, Site: m.Site, Arbiter: m.Arbiter, Players: m.Players[:], Computer: m.Computer,
		Operator: m.Operator, GamesPlanned: m.GamesPlanned, Score: s.Score(), Result: s.MatchResult(), TimeControl: map[string]string{}, TimeZone: m.TimeZone}
	for name, c := range m.Controls {
		st.Match.TimeControl[name] = c.String()
	}
	for _, g := range s.Games {
		st.Games = append(st.Games, StatusEntry{Number: g.Number, White: g.White, Black: g.Black, Result: g.Result, State: g.State})
	}
	g := s.CurrentGame()
	if g == nil {
		return st
	}
	sg := &StatusGame{Number: g.Number, White: g.White, Black: g.Black, State: g.State, Result: g.Result,
		Termination: string(g.Termination), ToMove: g.ToMove().String()}
	if g.Sheet != nil {
		sg.FEN = g.Sheet.FEN()
		sg.Ply = g.Sheet.Ply()
		if es := g.Sheet.Entries(); len(es) > 0 {
			sg.LastMove = es[len(es)-1].SAN
		}
	}
	if g.Offer != nil {
		sg.DrawOffer = g.Offer.By.String()
	}
	sg.Clock = clockStatus(g.Clock, at, func(side clock.Side, f clock.Flag) (int, bool) {
		return requiredDone(g, side, f)
	})
	st.Game = sg
	return st
}

// ClockStatus reads both clocks at an instant. required_done is the
// clock's own count (StatusAt counts from the scoresheet, as a claim does).
func ClockStatus(c clock.Clock, at time.Time) StatusClock { return clockStatus(c, at, nil) }

// clockStatus is ClockStatus with done counting the moves a fallen flag's
// side had completed when it fell and telling whether they were the moves
// required (nil: the clock's counter).
func clockStatus(c clock.Clock, at time.Time, done func(clock.Side, clock.Flag) (int, bool)) StatusClock {
	sc := StatusClock{Running: "none"}
	if r, ok := c.Running(); ok {
		sc.Running = r.String()
	}
	first, anyFirst, unknown := c.FirstFlag(at)
	for _, side := range []clock.Side{clock.White, clock.Black} {
		rem := c.Remaining(side, at)
		txt, _ := c.Display(side, at, clock.DisplayOptions{})
		one := SideClock{RemainingMS: int64(rem / time.Millisecond), Display: txt, Period: c.Period(side) + 1, Moves: c.Moves(side), Flag: false}
		if n, ok := c.MovesToControl(side); ok {
			one.MovesToControl = &n
		}
		if f := c.Flag(side, at); f.Fallen {
			fi := FlagInfo{First: anyFirst && first == side && !unknown && !f.OrderUnknown, OrderUnknown: f.OrderUnknown || unknown,
				Moves: f.Moves, Required: f.Required, RequiredDone: f.RequiredDone()}
			if done != nil {
				fi.Moves, fi.RequiredDone = done(side, f)
			}
			if !f.At.IsZero() {
				fi.At = f.At.UTC().Format(time.RFC3339Nano)
			}
			one.Flag = fi
		}
		if side == clock.White {
			sc.White = one
		} else {
			sc.Black = one
		}
	}
	return sc
}
