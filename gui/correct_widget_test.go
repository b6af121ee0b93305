package gui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"arbiter/match"
	"arbiter/service"
)

// The correction dialog on its own, as fyne-io/calculator tests its
// widget: it reads the match through its feed, shows the four outcomes and
// gives the reset it is asked for to the feed, with no console behind it.
// The game is correctionGame's, played on a real record.
func TestTheCorrectionDialogShowsTheRecordAndGivesTheResetToItsFeed(t *testing.T) {
	ctx := context.Background()
	app, err := service.Open(ctx, filepath.Join(t.TempDir(), "m.arbiter"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.DB().Close() })
	now := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	arbiter := func() match.Cmd { return match.Cmd{At: now, Actor: match.Actor{Role: match.RoleArbiter}} }
	spec := defaultSpec()
	spec.White, spec.Control = "Garry Kasparov", "4/60:60"
	if _, err := app.Do(ctx, arbiter(), spec); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Do(ctx, arbiter(), match.GameStart{}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		think time.Duration
		san   string
	}{{5 * time.Second, "e4"}, {time.Second, "e5"}, {5 * time.Second, "Nf3"}, {time.Second, "Nc6"},
		{5 * time.Second, "Bc4"}, {time.Second, "Bc5"}, {40 * time.Second, "d3"}, {time.Second, "d6"}} {
		now = now.Add(m.think)
		if _, err := app.Do(ctx, arbiter(), match.Move{Input: m.san}); err != nil {
			t.Fatalf("%s: %v", m.san, err)
		}
	}
	now = now.Add(45 * time.Second)
	if _, err := app.Do(ctx, arbiter(), match.Pause{Reason: "position correction"}); err != nil {
		t.Fatal(err)
	}

	var asked []match.Correct
	var refused []error
	var done []string
	closed := 0
	fa := test.NewTempApp(t)
	win := fa.NewWindow("console")
	cd := newCorrectDialog(win, app.State().CurrentGame(), correctFeed{
		state: app.State,
		now:   func() time.Time { return now },
		correct: func(method string, args match.Correct) error {
			asked = append(asked, args)
			if _, err := app.Do(ctx, arbiter(), args); err != nil {
				return err
			}
			done = append(done, method)
			return nil
		},
		onRefused: func(err error) { refused = append(refused, err) },
		onClosed:  func() { closed++ },
	})
	cd.d.Show()

	t.Run("it proposes the last move and shows the record's readings for the ply chosen", func(t *testing.T) {
		if cd.ply.Text != "8" {
			t.Errorf("proposes ply %q, want 8", cd.ply.Text)
		}
		cd.ply.SetText("7")
		if !strings.Contains(cd.summary.Text, "4. d3") || !strings.Contains(cd.summary.Text, "4... d6") {
			t.Errorf("summary %q does not name the mistaken and the struck move", cd.summary.Text)
		}
		if got := cd.cols[match.MethodRecord].white.Text; got != "White: 0:05:05 (period 1, 3 moves, with +0:05:00 rule 10)" {
			t.Errorf("the record's column says %q", got)
		}
		if col := cd.cols[match.MethodProportional]; col.choose.Disabled() == false || !col.why.Visible() {
			t.Errorf("proportional (White −0:00:40) can be chosen: %q", col.why.Text)
		}
	})
	t.Run("a reset without a reason is refused in the dialog and told, and nothing is asked of the feed", func(t *testing.T) {
		test.Tap(cd.cols[match.MethodKeep].choose)
		if len(asked) != 0 || len(refused) != 1 || !cd.errText.Visible() || !strings.Contains(cd.errText.Text, "reason") {
			t.Errorf("asked %v, told %v, shown %q", asked, refused, cd.errText.Text)
		}
	})
	t.Run("choosing a method gives the reset to the feed, then tells it done and closed", func(t *testing.T) {
		cd.reason.SetText("the operator relayed 4. d3 instead of 4. d4")
		test.Tap(cd.cols[match.MethodKeep].choose)
		want := match.Correct{Ply: 7, Method: match.MethodKeep, Reason: "the operator relayed 4. d3 instead of 4. d4", Cause: match.CauseOperatorError}
		if len(asked) != 1 || asked[0] != want {
			t.Fatalf("asked %+v, want %+v", asked, want)
		}
		if len(done) != 1 || done[0] != methodWord(match.MethodKeep) || closed != 1 {
			t.Errorf("done %v, closed %d times (error %q)", done, closed, cd.errText.Text)
		}
		if g := app.State().CurrentGame(); g.Sheet.Ply() != 6 {
			t.Errorf("the record's game is at ply %d after the reset, want 6", g.Sheet.Ply())
		}
	})
}
