package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/match"
)

// stopUnanswered is a record whose authority does not answer the bridge's
// stop, as a station's when no authority answers within stopWithin.
type stopUnanswered struct {
	Record
	station string
}

func (s stopUnanswered) Give(ctx context.Context, cmd match.Command) (match.Result, error) {
	if _, ok := cmd.(match.EngineStop); ok {
		return match.Result{}, errors.New("station: no authority answered command 0f0f0f0f: context deadline exceeded")
	}
	return s.Record.Give(ctx, cmd)
}

func (s stopUnanswered) Station() string { return s.station }

// TestABridgeWhoseStopIsNotRecordedSaysWhatTheRecordHoldsAndWhatToDo: when
// the bridge's stop (engine.stop) cannot be recorded, its last line and the
// note its status keeps ('engine status') say that the stop is not
// recorded and why, what the record holds and what not (it still names the
// bridge, so a move of the computer by hand needs --not-engine), and what
// to do. Before, one line named the error after a parenthesis, and the
// status said only "stopped".
func TestABridgeWhoseStopIsNotRecordedSaysWhatTheRecordHoldsAndWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		rule    string
		station string
		says    []string
	}{
		{"on one machine it says what is and is not recorded and that engine run takes over", "", []string{
			"stopped, but its stop is NOT recorded (station: no authority answered",
			"Recorded: what the bridge recorded before, its engine's moves and faults (this record holds events up to ",
			"Not recorded: that it stopped, so the record still names it as the bridge that plays Deep Blue",
			"unless given with --not-engine --reason TEXT",
			"What to do: 'engine run' here takes over from it (recorded)",
			"'move MOVE --not-engine --reason TEXT'"}},
		{"at a station it sends the operator to station status first", "laptop", []string{
			"stopped, but its stop is NOT recorded (station: no authority answered",
			"What to do: once 'station status' shows an authority again, 'engine run' here takes over from it (recorded)"}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, "")
			rec, err := Open(r.ctx, r.path, match.Actor{Role: match.RoleOperator}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var log []string
			ctx, cancel := context.WithCancel(r.ctx)
			done := make(chan error, 1)
			go func() {
				err := Run(ctx, stopUnanswered{rec, tc.station}, r.told(Options{Cmd: fakeCmd("-delay", "20ms"), Play: true, Restarts: DefaultRestarts,
					Logf: func(f string, a ...any) { mu.Lock(); log = append(log, sprintf(f, a...)); mu.Unlock() }}))
				rec.Close()
				done <- err
			}()
			r.waitFor("the engine's first move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 1 })
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("the bridge ended with %v", err)
			}
			mu.Lock()
			last := log[len(log)-1]
			mu.Unlock()
			s, _, err := ReadStatus(r.path, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.says {
				if !strings.Contains(last, want) {
					t.Errorf("the bridge's last line lacks %q:\n%s", want, last)
				}
			}
			if s.State != StateStopped || s.Note != last {
				t.Errorf("the status says %s, note %q; want stopped with the last line", s.State, s.Note)
			}
			if b := r.state().Bridge; b == nil {
				t.Error("the record holds no bridge: the stop was recorded after all")
			}
		})
	}
}
