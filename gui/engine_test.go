package gui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/engine"
	"arbiter/engine/fake"
	"arbiter/match"
	"arbiter/service"
)

// engineMoveFor records, as the bridge would, the engine's move uci for
// the position the game stands in.
func (h *harness) engineMoveFor(uci, eval string) {
	h.t.Helper()
	g := h.game()
	cmd := match.EngineMove{Game: g.Number, Ply: g.Sheet.Ply() + 1, FEN: g.Sheet.FEN(), UCI: uci, Received: h.ft.Now(), Eval: eval, Depth: 18,
		EngineTranscript: match.EngineTranscript{File: "game-1.log", Lines: 20, Bytes: 900, SHA256: strings.Repeat("0f", 32)}}
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleOperator}}, cmd); err != nil {
		h.t.Fatal(err)
	}
	h.c.refresh()
}

// humanMoves plays Kasparov's (White's) move as himself.
func (h *harness) humanMoves(mv string) {
	h.t.Helper()
	h.ft.advance(time.Minute)
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleWhite}}, match.Move{Input: mv}); err != nil {
		h.t.Fatal(err)
	}
	h.c.refresh()
}

// engineChoseC5 is a console in operator mode after 1.e4, the engine's
// 1…c5 (its evaluation eval) recorded, ten seconds on, the move field
// emptied of the offer.
func engineChoseC5(t *testing.T, eval string) *harness {
	h := newHarness(t, match.RoleOperator, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.humanMoves("e4")
	h.engineMoveFor("c7c5", eval)
	h.ft.advance(10 * time.Second)
	h.c.moveEntry.SetText("")
	return h
}

func TestInOperatorModeTheEnginesMoveIsSaidLargeAndOfferedInTheMoveField(t *testing.T) {
	h := newHarness(t, match.RoleOperator, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.humanMoves("e4")
	if h.c.engineLine.Visible() {
		t.Fatalf("the engine line shows %q before the engine answered", h.c.engineLine.Text)
	}
	h.engineMoveFor("c7c5", "cp 25")
	if got, want := h.c.engineLine.Text, "Deep Blue plays 1…c5 — make it on the board, then press"; !h.c.engineLine.Visible() || got != want {
		t.Fatalf("the engine line shows %q, want %q", got, want)
	}
	if got := h.c.moveEntry.Text; got != "c5" {
		t.Fatalf("the move field holds %q, want the engine's move offered", got)
	}
	t.Run("in arbiter mode it is not shown", func(t *testing.T) {
		h.c.mode = match.RoleArbiter
		h.c.refresh()
		if h.c.engineLine.Visible() {
			t.Fatalf("the engine line shows %q in arbiter mode", h.c.engineLine.Text)
		}
		h.c.mode = match.RoleOperator
		h.c.refresh()
	})
	t.Run("once the move is made the line and the offer go", func(t *testing.T) {
		h.ft.advance(10 * time.Second)
		h.c.win.Canvas().Focus(h.c.moveEntry)
		h.c.moveEntry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter on the offered move (typing first)
		if g := h.game(); g.Sheet.Ply() != 2 || g.Sheet.Entries()[1].SAN != "c5" {
			t.Fatalf("the offered move was not recorded: %s", g.Sheet.FEN())
		}
		if h.c.engineLine.Visible() || h.c.moveEntry.Text != "" {
			t.Fatalf("after the move the engine line shows %q and the field %q", h.c.engineLine.Text, h.c.moveEntry.Text)
		}
	})
}

func TestAnotherMoveOfTheComputerIsRefusedAndMayBeRecordedAsNotTheEngines(t *testing.T) {
	h := engineChoseC5(t, "cp 25")
	refusedThenNotTheEngines(t, h, "e5", "1…e5 is not the engine's move: Deep Blue plays 1…c5 (an operator's error, rule 10)", "the operator misread the screen")
}

// refusedThenNotTheEngines types the computer's move, checks the refusal
// under the move field and the dialog that offers to record it as not the
// engine's, then gives the reason and confirms: the move is recorded with a
// not-engine incident naming the reason.
func refusedThenNotTheEngines(t *testing.T, h *harness, move, refusal, why string) {
	t.Helper()
	h.typeMove(move)
	if got := h.c.moveErr.Text; !strings.Contains(got, refusal) {
		t.Fatalf("the refusal under the move field says %q", got)
	}
	if h.c.notEngine == nil || !strings.Contains(topDialogTexts(h.c), "Not the engine's move") {
		t.Fatalf("no dialog asks whether to record the move as not the engine's: %q", topDialogTexts(h.c))
	}
	if h.ply() != 1 {
		t.Fatal("the refused move was recorded")
	}
	// the reason is given and the dialog confirmed
	reason := topEntries(t, h.c)[0]
	reason.SetText(why)
	reason.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if h.ply() != 2 {
		t.Fatal("the move was not recorded as not the engine's")
	}
	incs := h.game().Incidents
	if last := incs[len(incs)-1]; last.Kind != match.IncidentNotEngine || !strings.Contains(last.Text, why) {
		t.Fatalf("the last incident is %+v", last)
	}
}

func TestTheComputersMoveBeforeTheMatchsBridgeAnsweredIsRefusedAndMayBeRecordedAsNotTheEngines(t *testing.T) {
	h := newHarness(t, match.RoleOperator, "")
	h.newMatch("acm1996", "")
	// the bridge at the operator's laptop plays (its start replicated here)
	start := match.EngineStart{Bridge: "0a0a0a0a0a0a", Station: "laptop", PID: 4170, Cmd: "/usr/games/stockfish"}
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleOperator}}, start); err != nil {
		t.Fatal(err)
	}
	h.c.do(actStartGame)
	h.humanMoves("e4")
	refusedThenNotTheEngines(t, h, "e5", "1…e5: the engine bridge at laptop plays for Deep Blue and has not answered for this position yet", "the laptop froze")
}

func TestTheHumansDrawOfferIsShownBesideTheEnginesEvaluation(t *testing.T) {
	h := engineChoseC5(t, "cp -134")
	h.typeMove("c5")
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleWhite}}, match.DrawOffer{}); err != nil {
		t.Fatal(err)
	}
	h.c.refresh()
	want := "Garry Kasparov offers a draw. The engine's evaluation: -1.34 (depth 18). Accept (Ctrl+Shift+D) or decline (Ctrl+Shift+E) for Deep Blue (rule 14)."
	if got := h.c.engineLine.Text; !h.c.engineLine.Visible() || got != want {
		t.Fatalf("the engine line shows %q, want %q", got, want)
	}
}

func TestOperatorEngineStartsAndStopsTheBridgeInTheConsole(t *testing.T) {
	h := newHarness(t, match.RoleOperator, "")
	spec := defaultSpec()
	spec.White = "Deep Blue" // the computer moves first
	spec.Control = "acm1996"
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
		t.Fatal(err)
	}
	h.c.do(actStartGame)
	h.c.do(actEngine)
	v := h.c.engineDlg
	if v == nil {
		t.Fatal("Operator → Engine… opened no dialog")
	}
	if shown := strings.Join(labelTexts(v.box), "\n"); !strings.Contains(shown, "No engine runs for this record") || v.start.Disabled() || !v.stop.Disabled() {
		t.Fatalf("before a start the dialog shows %q (start disabled %v, stop disabled %v)", shown, v.start.Disabled(), v.stop.Disabled())
	}
	v.cmd.SetText("'" + os.Args[0] + "' " + fake.Arg)
	v.play.SetChecked(true)
	test.Tap(v.start)
	// the bridge runs in its own goroutine: the console reads its move
	// when the bridge tells it (engineChanged, on the UI thread)
	h.ui.until(t, "the engine's move", nil, func() bool { return h.ply() >= 1 })
	h.c.refreshEngineDialog()
	if shown := strings.Join(labelTexts(v.box), "\n"); !strings.Contains(shown, "Engine: Fake Engine") || !v.start.Disabled() || v.stop.Disabled() {
		t.Fatalf("while it runs the dialog shows %q (start disabled %v, stop disabled %v)", shown, v.start.Disabled(), v.stop.Disabled())
	}
	r := h.c.engine
	test.Tap(v.stop)
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the bridge did not stop")
	}
	if s, _, _ := engine.ReadStatus(h.dbPath, time.Now()); s.State != engine.StateStopped {
		t.Fatalf("after Stop the bridge's status says %s", s.State)
	}
}

// TestTheConsoleTakesOverFromAGoneBridgeOnlyWithAReason: the record knows
// the laptop's bridge plays (one engine per match); the console's Engine
// dialog names it, a start is refused naming the laptop, and a start with
// the reason under "Take over from a gone bridge" takes over, recorded.
func TestTheConsoleTakesOverFromAGoneBridgeOnlyWithAReason(t *testing.T) {
	h := newHarness(t, match.RoleOperator, "")
	spec := defaultSpec()
	spec.White = "Deep Blue" // the computer's turn: a take-over at another station is allowed
	spec.Control = "acm1996"
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
		t.Fatal(err)
	}
	laptop := match.EngineStart{Bridge: "0a0a0a0a0a0a", Station: "laptop", PID: 4170, Cmd: "/usr/games/stockfish"}
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleOperator}}, laptop); err != nil {
		t.Fatal(err)
	}
	h.c.do(actStartGame)
	h.c.do(actEngine)
	v := h.c.engineDlg
	if shown := strings.Join(labelTexts(v.box), "\n"); !strings.Contains(shown, "The record knows the bridge 0a0a0a0a0a0a at laptop (process 4170) plays the computer: one engine per match") {
		t.Fatalf("the dialog shows %q", shown)
	}
	v.cmd.SetText("'" + os.Args[0] + "' " + fake.Arg)
	v.play.SetChecked(true)
	for _, tc := range []struct {
		name, reason string
		refused      bool
	}{
		{"a start is refused naming the laptop's bridge", "", true},
		{"a start with the reason takes over from it", "the laptop died", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v.takeOver.SetText(tc.reason)
			test.Tap(v.start)
			r := h.c.engine
			if tc.refused {
				// its end is told on the console's UI thread
				h.ui.until(t, "the bridge to end", nil, func() bool { return r.err != nil || h.c.engine != r })
				err := r.err
				h.c.refreshEngineDialog()
				if match.ErrorCode(err) != match.CodeEngineBridgeRuns {
					t.Fatalf("the bridge ended with %v", err)
				}
				if shown := strings.Join(v.lines, "\n"); !strings.Contains(shown, "An engine bridge already plays for the computer in this match, at laptop (process 4170") {
					t.Fatalf("the dialog shows %q", shown)
				}
				return
			}
			h.ui.until(t, "the engine's move", nil, func() bool { return h.ply() >= 1 })
			b := h.core.State().Bridge
			if b == nil || b.PID != os.Getpid() || b.Replaces != laptop.Bridge || b.Reason != "the laptop died" {
				t.Fatalf("the record knows the bridge %+v, want the console's taking over from the laptop's", b)
			}
			test.Tap(v.stop)
			<-r.done
		})
	}
}

// bridgeSays writes the status a running bridge serving game 1 would
// write now, and redraws the console.
func (h *harness) bridgeSays(s engine.Status) {
	h.t.Helper()
	h.bridgeWrites(s)
	h.c.refresh()
}

// bridgeWrites writes the status a running bridge serving game 1 would
// write now.
func (h *harness) bridgeWrites(s engine.Status) {
	h.t.Helper()
	s.Game, s.BridgePID, s.Updated = 1, os.Getpid(), time.Now().UTC().Format(time.RFC3339Nano)
	b, err := json.Marshal(s)
	if err != nil {
		h.t.Fatal(err)
	}
	path := engine.StatusPath(h.c.recordPath())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// TestTheBridgesStatusWriteReadsNothingOfTheRecordAndItsCommandOnlyWhatFollows:
// the console's bridge tells it of each status write (up to five a second)
// and of each command it gave (engine.Options.Changed). A status write
// changes nothing of the record: the console shows the status and reads no
// event (another process's move stays unread until the console's poll); a
// command of the bridge is read at once, from the console's last event on.
func TestTheBridgesStatusWriteReadsNothingOfTheRecordAndItsCommandOnlyWhatFollows(t *testing.T) {
	h := engineChoseC5(t, "cp -734")
	other, err := service.Open(h.ctx, h.dbPath) // another process on the record
	if err != nil {
		t.Fatal(err)
	}
	defer other.DB().Close()
	if _, err := other.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleOperator}}, match.Move{Input: "c5"}); err != nil {
		t.Fatal(err)
	}
	below := -5.0
	h.bridgeWrites(engine.Status{State: engine.StateIdle, Eval: "cp -734", ResignBelow: &below, ResignMoves: 5, SuggestResign: true})
	seq := h.core.State().Seq
	t.Run("a status write shows the status and reads no event", func(t *testing.T) {
		h.c.engineChanged(false)
		if got := h.core.State().Seq; got != seq {
			t.Fatalf("after a status write the console's state holds event %d, read from the record (it held %d)", got, seq)
		}
		if got := h.c.engineLine.Text; !strings.Contains(got, "you may resign for Deep Blue") {
			t.Fatalf("after the status write the engine line shows %q", got)
		}
	})
	t.Run("a command of the bridge reads the events after the console's", func(t *testing.T) {
		h.c.engineChanged(true)
		if got, want := h.core.State().Seq, other.State().Seq; got != want || h.ply() != 2 {
			t.Fatalf("after the bridge's command the console holds event %d (ply %d), the record %d", got, h.ply(), want)
		}
		if got := h.c.engineLine.Text; strings.Contains(got, "plays 1…c5") {
			t.Fatalf("once c5 is read the engine line still shows %q", got)
		}
	})
}

func TestTheBridgesSuggestionToResignIsShownToTheOperatorWhoDecides(t *testing.T) {
	h := engineChoseC5(t, "cp -734")
	below := -5.0
	move := "Deep Blue plays 1…c5 — make it on the board, then press"
	suggestion := "The engine's evaluation stayed at or below -5.00 for 5 of its moves in a row: you may resign for Deep Blue (rule 14)."
	for _, tc := range []struct {
		name string
		s    engine.Status
		want string
	}{
		{"without a threshold nothing is suggested", engine.Status{State: engine.StateIdle, Eval: "cp -734"}, move},
		{"below the threshold for fewer moves nothing is suggested", engine.Status{State: engine.StateIdle, Eval: "cp -734", ResignBelow: &below, ResignMoves: 5}, move},
		{"below it for the moves set the operator is told he may resign", engine.Status{State: engine.StateIdle, Eval: "cp -734", ResignBelow: &below, ResignMoves: 5, SuggestResign: true}, move + "\n" + suggestion},
		{"a bridge that stopped suggests nothing", engine.Status{State: engine.StateStopped, ResignBelow: &below, ResignMoves: 5, SuggestResign: true}, move},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.bridgeSays(tc.s)
			if got := h.c.engineLine.Text; got != tc.want {
				t.Fatalf("the engine line shows %q, want %q", got, tc.want)
			}
			if lines := strings.Join(engineLines(tc.s, true), "\n"); (tc.s.ResignBelow != nil) != strings.Contains(lines, "-5.00") {
				t.Fatalf("the Engine dialog shows %q", lines)
			}
		})
	}
	if g := h.game(); !g.Live() {
		t.Fatal("the game ended: only the operator resigns")
	}
}

// TestTheEngineDialogNeverShowsAnEarlierAnswerAsTheLastMoveWhileTheEngineSearches:
// while the engine searches (thinking or pondering) its bestmove answered an
// earlier position — after a rule 10 correction the engine searches again
// on the ply it answered before — so the Engine dialog shows the search's
// evaluation and not "Last move", which an operator could relay as the
// answer (engine status says it the same way). Before, it showed "Last
// move" whenever a bestmove was present.
func TestTheEngineDialogNeverShowsAnEarlierAnswerAsTheLastMoveWhileTheEngineSearches(t *testing.T) {
	for _, tc := range []struct {
		name      string
		s         engine.Status
		want, not string
	}{
		{"thinking: the search's evaluation, no last move", engine.Status{State: engine.StateThinking, BestMove: "f8c5", Eval: "cp -33", Depth: 29}, "Searching: evaluation -0.33, depth 29 so far", "f8c5"},
		{"pondering: the search's evaluation, no last move", engine.Status{State: engine.StatePondering, BestMove: "f8c5", Eval: "cp 12", Depth: 7}, "Searching: evaluation +0.12, depth 7 so far", "f8c5"},
		{"thinking before any evaluation: neither", engine.Status{State: engine.StateThinking, BestMove: "f8c5"}, "Game 0, ply 0", "f8c5"},
		{"idle: the last move the record holds", engine.Status{State: engine.StateIdle, BestMove: "f8c5", Eval: "cp -33", Depth: 29}, "Last move f8c5, evaluation -0.33, depth 29", "Searching"},
		{"stopped: the last move the record holds", engine.Status{State: engine.StateStopped, BestMove: "a2a3", Eval: "cp 17", Depth: 3}, "Last move a2a3, evaluation +0.17, depth 3", "Searching"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := strings.Join(engineLines(tc.s, true), "\n")
			if !strings.Contains(lines, tc.want) || strings.Contains(lines, tc.not) {
				t.Fatalf("the Engine dialog shows:\n%s\nwant %q and not %q", lines, tc.want, tc.not)
			}
		})
	}
}
