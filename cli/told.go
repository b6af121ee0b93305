package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
)

// What a writing command tells once its events are committed: one line on
// standard output, read from the command's own events (match.Result) — what
// was recorded, as which event and in which game, and then the clocks as
// 'status' shows them, or the game's end. 'game start' and 'arrive' tell
// their own lines the same way; a script tells nothing (play -v says "ok
// N"). docs/cli.md, "What a writing command prints".

// recorded is the command's last event of kind: its number, its game and
// the instant it claims, with its payload decoded into p (nil: not read).
type recorded struct {
	seq  int64
	game int
	at   time.Time
}

func recordedEvent(res match.Result, kind string, p any) (recorded, bool) {
	for i := len(res.Events) - 1; i >= 0; i-- {
		if e := res.Events[i]; e.Kind == kind {
			if p != nil && json.Unmarshal(e.Payload, p) != nil {
				return recorded{}, false
			}
			return recorded{seq: e.Seq, game: e.Game, at: e.At}, true
		}
	}
	return recorded{}, false
}

// as says which event the command was recorded as, and in which game.
func (e recorded) as() string {
	if e.game < 1 {
		return fmt.Sprintf("recorded as event %d", e.seq)
	}
	return fmt.Sprintf("recorded as event %d (game %d)", e.seq, e.game)
}

// after is what follows the event in its game: the game's end the command
// caused ("game over, 1-0 (checkmate)"), else the clocks at the event's
// instant as 'status' shows them ("Black's clock runs (White 0:14:58,
// Black 0:15:00)"); "" outside a game in progress.
func (r *runner) after(res match.Result, e recorded) string {
	if end, ok := res.Ended(); ok {
		return fmt.Sprintf(": game over, %s (%s)", end.Result, end.Termination)
	}
	g := r.app.State().Game(e.game)
	if g == nil || !g.Live() {
		return ""
	}
	white, _ := g.Clock.Display(clock.White, e.at, clock.DisplayOptions{})
	black, _ := g.Clock.Display(clock.Black, e.at, clock.DisplayOptions{})
	if s, ok := g.Clock.Running(); ok {
		return fmt.Sprintf("; %s's clock runs (White %s, Black %s)", match.Colour(s), white, black)
	}
	return fmt.Sprintf("; the clocks are stopped (White %s, Black %s)", white, black)
}

// tellRecorded prints "WHAT recorded as event N (game G)" and what follows
// it, for the command's last event of kind.
func (r *runner) tellRecorded(res match.Result, kind, what string) {
	if r.inPlay {
		return
	}
	if e, ok := recordedEvent(res, kind, nil); ok {
		r.out("%s %s%s\n", what, e.as(), r.after(res, e))
	}
}

// moveLabel is the move as the command line's refusals write it: "23.Nd2",
// "1…e5".
func moveLabel(number int, black bool, san string) string {
	if black {
		return fmt.Sprintf("%d…%s", number, san)
	}
	return fmt.Sprintf("%d.%s", number, san)
}

// toldMove says the move recorded: with its number and ply, the event it is
// and the clocks, or the game's end ("1.e4 recorded as event 3 (game 1,
// ply 1); Black's clock runs (White 0:15:10, Black 0:15:00)").
func toldMove(r *runner, res match.Result) {
	var p match.MovePayload
	e, ok := recordedEvent(res, match.KindMove, &p)
	if !ok || r.inPlay {
		return
	}
	what, where := p.SAN, e.as()
	if g := r.app.State().Game(e.game); g != nil && g.Sheet != nil {
		entries := g.Sheet.Entries()
		for i := len(entries) - 1; i >= 0; i-- {
			if x := entries[i]; x.SAN == p.SAN && x.UCI == p.UCI {
				what = moveLabel(x.Number, x.Color == chess.Black, x.SAN)
				where = fmt.Sprintf("recorded as event %d (game %d, ply %d)", e.seq, e.game, x.Ply)
				break
			}
		}
	}
	also := ""
	var inc match.IncidentPayload
	if ie, ok := recordedEvent(res, match.KindIncident, &inc); ok && inc.Kind == match.IncidentNotEngine {
		also = fmt.Sprintf("; not the engine's move: incident %s recorded as event %d", inc.Kind, ie.seq)
	}
	r.out("%s %s%s%s\n", what, where, r.after(res, e), also)
}

// sideWho is a side of game n as "White (NAME)"; side as the record writes
// it ("white", "black").
func (r *runner) sideWho(n int, side string) string {
	s, err := clock.ParseSide(side)
	if err != nil {
		return side
	}
	if g := r.app.State().Game(n); g != nil {
		return fmt.Sprintf("%s (%s)", match.Colour(s), g.Name(s))
	}
	return match.Colour(s)
}

// toldSide tells a command whose event names a side (a press, a draw offer).
func toldSide(kind, what string) func(r *runner, res match.Result) {
	return func(r *runner, res match.Result) {
		var p match.SidePayload
		e, ok := recordedEvent(res, kind, &p)
		if !ok || r.inPlay {
			return
		}
		r.out("%s %s %s%s\n", what, r.sideWho(e.game, p.Side), e.as(), r.after(res, e))
	}
}

// toldAs tells a command by its last event of kind as what.
func toldAs(kind, what string) func(r *runner, res match.Result) {
	return func(r *runner, res match.Result) { r.tellRecorded(res, kind, what) }
}

// toldPress also says how the press's move is entered.
func toldPress(r *runner, res match.Result) {
	var p match.SidePayload
	e, ok := recordedEvent(res, match.KindPress, &p)
	if !ok || r.inPlay {
		return
	}
	r.out("clock press by %s %s%s; enter the move with 'move MOVE --pressed'\n", r.sideWho(e.game, p.Side), e.as(), r.after(res, e))
}

// toldAdjust says the correction and the clocks after it.
func toldAdjust(r *runner, res match.Result) {
	var p match.AdjustPayload
	e, ok := recordedEvent(res, match.KindAdjust, &p)
	if !ok || r.inPlay {
		return
	}
	d := time.Duration(p.MS)*time.Millisecond + time.Duration(p.NS)
	change := clock.FormatCorrection(d)
	if p.Op == "set" {
		change = "set to " + clock.FormatReading(d)
	}
	side := p.Side
	if s, err := clock.ParseSide(p.Side); err == nil {
		side = match.Colour(s)
	}
	r.out("correction of %s's clock (%s) %s%s\n", side, change, e.as(), r.after(res, e))
}

// toldEnd tells a command that ends the game (resign, result, forfeit).
func toldEnd(what string) func(r *runner, res match.Result) {
	return func(r *runner, res match.Result) { r.tellRecorded(res, match.KindGameEnd, what) }
}

// toldLoss tells a command that ends the game against a side (resign,
// forfeit), naming the side: the one the result gives nothing.
func toldLoss(what string) func(r *runner, res match.Result) {
	return func(r *runner, res match.Result) {
		e, ok := recordedEvent(res, match.KindGameEnd, nil)
		end, ended := res.Ended()
		if !ok || !ended || r.inPlay {
			return
		}
		side := "white"
		if end.Result == "1-0" {
			side = "black"
		}
		r.out("%s %s %s%s\n", what, r.sideWho(e.game, side), e.as(), r.after(res, e))
	}
}

// toldSchedule says the scheduled start in the match's time zone.
func toldSchedule(r *runner, res match.Result) {
	var p match.GamePayload
	e, ok := recordedEvent(res, match.KindGameSchedule, &p)
	if !ok || r.inPlay {
		return
	}
	when := p.Start
	if t, err := time.Parse(time.RFC3339Nano, p.Start); err == nil {
		when = r.app.State().Match.LocalTime(t, "2006-01-02 15:04:05")
	}
	r.out("start of game %d at %s recorded as event %d\n", p.Game, when, e.seq)
}

// toldIncident says the incident logged and the clocks, then prints a
// setup card (rule 12).
func toldIncident(r *runner, res match.Result) {
	var p match.IncidentPayload
	if e, ok := recordedEvent(res, match.KindIncident, &p); ok && !r.inPlay {
		r.out("incident %s %s%s\n", p.Kind, e.as(), r.after(res, e))
	}
	if card, ok := res.SetupCard(r.app.State(), nil); ok {
		r.out("%s", card)
	}
}

// toldAmend says the ply amended, from what to what.
func toldAmend(r *runner, res match.Result) {
	var p match.AmendPayload
	e, ok := recordedEvent(res, match.KindAmend, &p)
	if !ok || r.inPlay {
		return
	}
	old, now := p.Old, p.SAN
	if g := r.app.State().Game(e.game); g != nil && g.Sheet != nil && p.Ply >= 1 && p.Ply <= g.Sheet.Ply() {
		x := g.Sheet.Entries()[p.Ply-1]
		old, now = moveLabel(x.Number, x.Color == chess.Black, p.Old), moveLabel(x.Number, x.Color == chess.Black, x.SAN)
	}
	r.out("amendment of ply %d from %s to %s %s%s\n", p.Ply, old, now, e.as(), r.after(res, e))
}

// toldPostpone says the game postponed.
func toldPostpone(r *runner, res match.Result) {
	var p match.GamePayload
	if e, ok := recordedEvent(res, match.KindGamePostpone, &p); ok && !r.inPlay {
		r.out("postponement of game %d recorded as event %d\n", p.Game, e.seq)
	}
}

// toldCredentialCheck says whose credential was found right; it records
// nothing of its own.
func toldCredentialCheck(r *runner, _ match.Result) {
	if r.inPlay {
		return
	}
	if !r.app.State().Protected() {
		r.out("unprotected match: no credential is needed, so none was checked; nothing recorded\n")
		return
	}
	whose := "the arbiter's"
	if r.g.PIN == "" && (r.g.KeyFile == "" || r.g.Role != match.RoleArbiter) {
		switch r.g.Role {
		case match.RoleOperator:
			whose = "the operator's"
		case match.RoleWhite:
			whose = "White's"
		case match.RoleBlack:
			whose = "Black's"
		}
	}
	r.out("%s credential is right; nothing recorded\n", whose)
}

// toldEngineMove says the engine's move recorded (with --play, the move
// played too).
func toldEngineMove(r *runner, res match.Result) {
	var p match.EngineMovePayload
	e, ok := recordedEvent(res, match.KindEngineMove, &p)
	if !ok || r.inPlay {
		return
	}
	r.out("the engine's move %s for ply %d %s\n", match.EngineChoice{EngineMovePayload: p}.Label(), p.Ply, e.as())
	toldMove(r, res) // with --play: the move too, on a line of its own
}
