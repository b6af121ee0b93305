//go:build !nostation

package stations

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/match"
)

// Give gives a command, as a value, over the link: c says who gives it,
// with which credential and when (c.Words is not read), and the result is
// the command's events as this station's record holds them once the
// authority committed them (match.ResultOf), so that a face words the
// outcome of a command run by the authority as it words one run here. A
// command whose fields are refused (Validate) is refused here, before
// anything is sent. Every face that gives commands at a station's record
// gives them through Give — the console (gui/forward.go) and the engine
// bridge (package engine) — and the command line's words it sends
// (CommandWords) are the one place the wire is known: issue 25's phase B
// changes them into the command's canonical encoding underneath.
func (l *Link) Give(ctx context.Context, c Command, cmd match.Command) (match.Result, Result, error) {
	if err := cmd.Validate(); err != nil {
		return match.Result{}, Result{}, err
	}
	words, err := CommandWords(cmd)
	if err != nil {
		return match.Result{}, Result{}, err
	}
	c.Words = words
	res, err := l.Send(ctx, c)
	if err != nil {
		return match.Result{}, res, err
	}
	r, err := l.resultOf(ctx, res)
	return r, res, err
}

// CommandWords are the words the command line takes for cmd (docs/cli.md),
// which the authority reads back into the same value: the station's wire
// carries words until it carries the value itself (issue 25, phase B).
func CommandWords(cmd match.Command) ([]string, error) {
	game := func(w []string, n int) []string {
		if n != 0 {
			w = append(w, strconv.Itoa(n))
		}
		return w
	}
	opt := func(w []string, flag, v string) []string {
		if v != "" {
			w = append(w, flag, v)
		}
		return w
	}
	flag := func(w []string, name string, on bool) []string {
		if on {
			w = append(w, name)
		}
		return w
	}
	switch x := cmd.(type) {
	case match.GameSchedule:
		return append(game([]string{"game", "schedule"}, x.Game), "--start", x.Start.UTC().Format(time.RFC3339Nano)), nil
	case match.GameStart:
		w := opt(game([]string{"game", "start"}, x.Game), "--fen", x.FEN)
		if x.White != nil {
			w = append(w, "--white", clock.FormatExact(*x.White))
		}
		if x.Black != nil {
			w = append(w, "--black", clock.FormatExact(*x.Black))
		}
		return w, nil
	case match.GamePostpone:
		return append(game([]string{"game", "postpone"}, x.Game), "--reason", x.Reason), nil
	case match.Move:
		return opt(flag(flag([]string{"move", x.Input}, "--pressed", x.Pressed), "--not-engine", x.NotEngine), "--reason", x.Reason), nil
	case match.Press:
		return []string{"press"}, nil
	case match.Pause:
		return flag(opt(opt([]string{"pause"}, "--reason", x.Reason), "--cause", x.Cause), "--call", x.Call), nil
	case match.Resume:
		return []string{"resume"}, nil
	case match.Adjust:
		corr := "+" + x.D.String()
		switch {
		case x.Set:
			corr = "=" + clock.FormatExact(x.D)
		case x.D < 0:
			corr = "-" + (-x.D).String()
		}
		w := []string{"adjust", x.Side.String(), corr}
		if x.Moves != nil {
			w = append(w, "--moves", strconv.Itoa(*x.Moves))
		}
		if x.Period != nil {
			w = append(w, "--period", strconv.Itoa(*x.Period))
		}
		return append(w, "--reason", x.Reason), nil
	case match.DrawOffer:
		w := []string{"draw", "offer"}
		if x.Side != nil {
			w = append(w, x.Side.String())
		}
		return w, nil
	case match.DrawAccept:
		return []string{"draw", "accept"}, nil
	case match.DrawDecline:
		return []string{"draw", "decline"}, nil
	case match.Resign:
		return []string{"resign", x.Side.String()}, nil
	case match.Decide:
		return []string{"result", x.Result, "--reason", x.Reason}, nil
	case match.LogIncident:
		w := opt([]string{"incident", x.Incident, "--text", x.Text}, "--name", x.Name)
		w = flag(flag(w, "--in-hall", x.InHall), "--remote", x.Remote)
		w = opt(w, "--result", x.Result)
		if x.Refers != 0 {
			w = append(w, "--refers", strconv.FormatInt(x.Refers, 10))
		}
		return w, nil
	case match.Flag:
		return flag([]string{"flag", x.Side}, "--order-unknown", x.OrderUnknown), nil
	case match.Correct:
		w := []string{"correct", "--ply", strconv.Itoa(x.Ply), "--method", x.Method}
		if x.Method == match.MethodSet {
			w = append(w, "--white", clock.FormatExact(x.White), "--black", clock.FormatExact(x.Black))
		}
		w = flag(opt(w, "--cause", x.Cause), "--no-bonus", x.NoBonus)
		return append(w, "--reason", x.Reason), nil
	case match.Amend:
		return []string{"amend", "--ply", strconv.Itoa(x.Ply), x.Input, "--reason", x.Reason}, nil
	case match.Claim:
		return opt([]string{"claim", x.Draw}, "--move", x.Move), nil
	case match.Forfeit:
		return []string{"forfeit", x.Side.String(), "--reason", x.Reason}, nil
	case match.Arrive:
		w := []string{"arrive", "--player", x.Player}
		if x.At != nil {
			w = append(w, "--at", x.At.UTC().Format(time.RFC3339Nano))
		}
		return w, nil
	case match.EngineMove:
		w := []string{"engine", "move", "--game", strconv.Itoa(x.Game), "--ply", strconv.Itoa(x.Ply), "--fen", x.FEN, "--uci", x.UCI,
			"--received", x.Received.UTC().Format(time.RFC3339Nano)}
		w = opt(w, "--eval", x.Eval)
		if x.Depth != 0 {
			w = append(w, "--depth", strconv.Itoa(x.Depth))
		}
		if x.Nodes != 0 {
			w = append(w, "--nodes", strconv.FormatInt(x.Nodes, 10))
		}
		w = flag(w, "--pondered", x.Pondered)
		w = append(w, "--transcript", x.File, "--lines", strconv.Itoa(x.Lines), "--bytes", strconv.FormatInt(x.Bytes, 10), "--sha256", x.SHA256)
		if x.From != 0 {
			w = append(w, "--from", strconv.Itoa(x.From))
		}
		w = opt(w, "--line-hashes", strings.Join(x.LineHashes, ","))
		return flag(w, "--play", x.Play), nil
	}
	return nil, fmt.Errorf("%s is not given at a station", cmd.Kind())
}

// resultOf is the result of the command the authority answered with res
// (its last event, res.Seq), read from this station's record: the events
// up to it that share its instant (a command's events, a recovery note
// written with it among them, carry the command's instant).
func (l *Link) resultOf(ctx context.Context, res Result) (match.Result, error) {
	if l.rdb == nil {
		if _, err := l.replica(ctx); err != nil {
			return match.Result{}, err
		}
	}
	evs, err := l.rdb.EventsAfter(ctx, max(int64(res.Seq)-4, 0))
	if err != nil {
		return match.Result{}, err
	}
	last := -1
	for i, e := range evs {
		if uint64(e.Seq) == res.Seq {
			last = i
		}
	}
	if last < 0 {
		return match.Result{}, nil
	}
	first := last
	for first > 0 && evs[first-1].At.Equal(evs[last].At) {
		first--
	}
	return match.ResultOf(evs[first : last+1]), nil
}
