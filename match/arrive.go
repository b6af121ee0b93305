package match

import (
	"time"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/store"
)

// Article 6.6 speaks of a player's arrival at the board, not of his first
// move: "a player who arrives at the board more than one hour after the
// scheduled start loses the game". The arbiter records the arrival
// ('arrive'); a player who arrived within the forfeit time is not
// defaulted (Forfeit), one who arrived later still may be.

// KindArrive is the event of a player's arrival at the board.
const KindArrive = "arrive"

// ArrivePayload records who arrived, with which colour, and when.
type ArrivePayload struct {
	Player    string `json:"player"`
	Side      string `json:"side"`
	ArrivedAt string `json:"arrived_at"` // RFC 3339, UTC
}

// Arrive records that Player arrived at the board of the game in
// progress, else of the next game to be started ('arrive'; the arbiter's),
// at At: an instant the arbiter saw, which may lie before the record's
// last event but never after the command's own instant (nil: the
// command's instant).
type Arrive struct {
	Player string     `json:"player"`
	At     *time.Time `json:"at,omitempty"`
}

func (Arrive) Kind() string { return "arrive" }

// Validate checks that a player is named.
func (a Arrive) Validate() error {
	if err := checkText("the player", a.Player, true); err != nil {
		return refuseAs(CodeArriveNeedsPlayer)
	}
	return nil
}

func (a Arrive) run(t *tx, _ *Result) error {
	if err := t.require("arrive", RoleArbiter); err != nil {
		return err
	}
	if err := a.Validate(); err != nil {
		return err
	}
	if _, err := t.match(); err != nil {
		return err
	}
	g := t.st.CurrentGame()
	if g == nil || !g.Live() {
		if g = t.st.nextGame(); g == nil {
			return refuseAs(CodeAllGamesPlayed)
		}
	}
	side, ok := g.Side(a.Player)
	if !ok {
		return refuseAs(CodeNotPlayerOfGame, a.Player, g.Number, g.White, g.Black)
	}
	at := t.cmd.At
	if a.At != nil {
		at = a.At.UTC()
	}
	if at.After(t.cmd.At) {
		return refuseAs(CodeArrivalAhead, g.Name(side), t.st.Match.LocalTime(at, "15:04:05.000"), t.st.Match.LocalTime(t.cmd.At, "15:04:05.000"))
	}
	if was := g.Arrived[side]; !was.IsZero() {
		return refuseAs(CodeArrivedAlready, t.st.whoPlays(g, side), g.Number, t.st.Match.LocalTime(was, "15:04:05"))
	}
	return t.emit(g.Number, KindArrive, ArrivePayload{Player: g.Name(side), Side: side.String(), ArrivedAt: at.Format(time.RFC3339Nano)})
}

func applyArrive(s *State, g *Game, e store.Event) error {
	var p ArrivePayload
	if err := decode(e, &p); err != nil {
		return err
	}
	side, err := sideOf(p.Side)
	if err != nil {
		return err
	}
	at, err := time.Parse(time.RFC3339Nano, p.ArrivedAt)
	if err != nil {
		return err
	}
	g.Arrived[side] = at
	text := phrase.Errorf("%s (%s) arrived at the board at %s", p.Player, colour(side), s.Match.LocalTime(at, "15:04:05"))
	g.Incidents = append(g.Incidents, s.said(g, e, "arrival", "6.6", text, nil))
	return nil
}

// arrivedInTime refuses to default side in g when his arrival is recorded
// by the deadline of Article 6.6 (an arrival after it does not save him).
func (t *tx) arrivedInTime(g *Game, side clock.Side, deadline time.Time, limit, what any, base time.Time) error {
	at := g.Arrived[side]
	if at.IsZero() || at.After(deadline) {
		return nil
	}
	m := t.st.Match
	return refuseAs(CodePlayerArrived, t.st.whoPlays(g, side), m.LocalTime(at, "15:04:05"), limit, what, m.LocalTime(base, "15:04:05"))
}

// Arrived is the arrival the command recorded and its instant.
func (r Result) Arrived() (ArrivePayload, time.Time, bool) {
	var p ArrivePayload
	if _, ok := r.event(KindArrive, &p); !ok {
		return p, time.Time{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, p.ArrivedAt)
	return p, at, err == nil
}
