package gui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/match"
)

// correctionGame plays a game under "4 moves in 1 minute, then 1 minute"
// in which White's 4th move (ply 7) was relayed wrongly and the mistake is
// found 45 s into White's 5th move. By hand:
//
//	White used 5+5+5+40 = 55 s for moves 1–4, then 45 s: 100 s at discovery.
//	record:        60 − 55 = 0:00:05           Black 60 − 3 = 0:00:57
//	proportional:  60 − 100×4/4 = −0:00:40: refused (Black 60 − 4×3/4 = 0:00:57;
//	               White's 4th move counts as made: he made it before it was relayed)
//	keep:          120 − 100 = 0:00:20 (period 2)  Black 120 − 4 = 0:01:56
//	set:           the readings given
//
// Kasparov (White) is the human: an operator's error gives him 5 minutes.
func correctionGame(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("4/60:60", "")
	h.c.do(actStartGame)
	for _, m := range []struct {
		think time.Duration
		san   string
	}{{5 * time.Second, "e4"}, {time.Second, "e5"}, {5 * time.Second, "Nf3"}, {time.Second, "Nc6"},
		{5 * time.Second, "Bc4"}, {time.Second, "Bc5"}, {40 * time.Second, "d3"}, {time.Second, "d6"}} {
		h.ft.advance(m.think)
		h.typeMove(m.san)
	}
	if h.ply() != 8 {
		t.Fatalf("ply %d, want 8 (%s)", h.ply(), h.c.moveErr.Text)
	}
	h.ft.advance(45 * time.Second)
	return h
}

// openCorrection opens the dialog and points it at ply 7.
func openCorrection(t *testing.T, h *harness) *correctDialog {
	t.Helper()
	h.c.do(actCorrect)
	cd := h.c.correcting
	if cd == nil {
		t.Fatalf("no correction dialog (error %q)", refusalShown(h.c))
	}
	if cd.ply.Text != "8" {
		t.Errorf("the dialog proposes ply %q, want 8 (the last move)", cd.ply.Text)
	}
	cd.ply.SetText("7")
	return cd
}

func TestCorrectionDialogShowsFourOutcomes(t *testing.T) {
	h := correctionGame(t)
	cd := openCorrection(t, h)

	t.Run("all four methods are shown side by side with both sides' figures", func(t *testing.T) {
		want := map[string][2]string{
			// the final readings: Kasparov's with his 5 minutes (rule 10)
			match.MethodRecord:       {"White: 0:05:05 (period 1, 3 moves, with +0:05:00 rule 10)", "Black: 0:00:57 (period 1, 3 moves)"},
			match.MethodProportional: {"White: -0:00:40 (period 1, 3 moves)", "Black: 0:00:57 (period 1, 3 moves)"},
			match.MethodKeep:         {"White: 0:05:20 (period 2, 3 moves, with +0:05:00 rule 10)", "Black: 0:01:56 (period 2, 3 moves)"},
			match.MethodSet:          {"White: period 1, 3 moves", "Black: period 1, 3 moves"},
		}
		for _, m := range match.CorrectionMethods {
			col := cd.cols[m]
			if col == nil {
				t.Fatalf("no column for %s", m)
			}
			if got := [2]string{col.white.Text, col.black.Text}; got != want[m] {
				t.Errorf("%s shows %q, want %q", m, got, want[m])
			}
			if col.work.Text == "" {
				t.Errorf("%s does not say how its figures were obtained", m)
			}
		}
		if cd.setW.Text != "0:00:05" || cd.setB.Text != "0:00:57" {
			t.Errorf("set starts at %s / %s, want the record's readings for ply 7", cd.setW.Text, cd.setB.Text)
		}
		if !strings.Contains(cd.summary.Text, "4. d3") || !strings.Contains(cd.summary.Text, "4... d6") {
			t.Errorf("summary %q does not name the mistaken and struck moves", cd.summary.Text)
		}
	})
	t.Run("the clocks are stopped while the dialog is open, by a pause for a correction (rule 10 / 6.13)", func(t *testing.T) {
		g := h.game()
		if g.State != match.Paused || g.Paused.Cause != match.CauseCorrection {
			t.Fatalf("state %s (cause %q) with the dialog open", g.State, g.Paused.Cause)
		}
		if e, _ := h.last(match.KindPause); e.Role != "arbiter" {
			t.Errorf("the pause is recorded as %q", e.Role)
		}
		before := cd.cols[match.MethodKeep].white.Text
		h.ft.advance(time.Minute)
		cd.preview()
		if got := cd.cols[match.MethodKeep].white.Text; got != before {
			t.Errorf("the proposal drifted while the dialog was open: %q → %q", before, got)
		}
	})
	t.Run("under 6.13 no bonus is shown", func(t *testing.T) {
		cd.cause.SetSelected(cd.cause.Options[1])
		if got := cd.cols[match.MethodRecord].white.Text; got != "White: 0:00:05 (period 1, 3 moves)" {
			t.Errorf("record under 6.13 shows %q", got)
		}
		cd.cause.SetSelected(cd.cause.Options[0])
	})
	t.Run("picking a move on the scoresheet sets the ply, and set follows it", func(t *testing.T) {
		cd.plies.Select(4) // ply 5, 3. Bc4
		if cd.ply.Text != "5" || !strings.Contains(cd.summary.Text, "3. Bc4") {
			t.Errorf("ply %q, summary %q after picking 3. Bc4", cd.ply.Text, cd.summary.Text)
		}
		rec, _ := cd.opts.Outcome(match.MethodRecord)
		if want := clock.FormatReading(rec.Sides[clock.White].Remaining.Truncate(time.Second)); cd.setW.Text != want {
			t.Errorf("set White %q after the ply changed, want the record's %q", cd.setW.Text, want)
		}
		cd.ply.SetText("7")
	})
	t.Run("a refused proportional outcome shows its figure and cannot be chosen", func(t *testing.T) {
		col := cd.cols[match.MethodProportional]
		if !col.choose.Disabled() {
			t.Error("the refused method can be chosen")
		}
		if !col.why.Visible() || !strings.Contains(col.why.Text, "-0:00:40") {
			t.Errorf("refusal shown %v %q, want the figure -0:00:40", col.why.Visible(), col.why.Text)
		}
		for _, m := range []string{match.MethodRecord, match.MethodKeep, match.MethodSet} {
			if cd.cols[m].choose.Disabled() {
				t.Errorf("%s cannot be chosen", m)
			}
		}
	})
	h.golden("correct.xml")
	t.Run("a reset without a reason is refused in the dialog and writes nothing", func(t *testing.T) {
		seq := h.core.State().Seq
		test.Tap(cd.cols[match.MethodRecord].choose)
		if h.core.State().Seq != seq || !cd.errText.Visible() || !strings.Contains(cd.errText.Text, "reason") {
			t.Errorf("seq %d→%d, error %q", seq, h.core.State().Seq, cd.errText.Text)
		}
	})
}

func TestCorrectionDialogAppliesTheChosenMethod(t *testing.T) {
	tests := []struct {
		name         string
		method       string
		noBonus      bool
		setW, setB   string
		white, black string
	}{
		{"record sets each side from the record, and the human gets 5 minutes (rule 10)", match.MethodRecord, false, "", "", "0:05:05", "0:00:57"},
		{"keep leaves the readings, and the human gets 5 minutes (rule 10)", match.MethodKeep, false, "", "", "0:05:20", "0:01:56"},
		{"set takes the arbiter's readings; no bonus when waived", match.MethodSet, true, "0:10:00", "0:09:00", "0:10:00", "0:09:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := correctionGame(t)
			cd := openCorrection(t, h)
			cd.reason.SetText("the operator relayed 4. d3 instead of 4. d4")
			cd.noBonus.SetChecked(tt.noBonus)
			if tt.method == match.MethodSet {
				cd.setW.SetText(tt.setW)
				cd.setB.SetText(tt.setB)
			}
			test.Tap(cd.cols[tt.method].choose)
			if cd.errText.Visible() {
				t.Fatalf("refused: %s", cd.errText.Text)
			}
			g := h.game()
			if g.State != match.Paused || h.ply() != 6 {
				t.Fatalf("state %s ply %d, want paused at ply 6", g.State, h.ply())
			}
			if l, r := h.c.clocks[0].time.Text, h.c.clocks[1].time.Text; l != tt.white || r != tt.black {
				t.Errorf("clocks %s / %s, want %s / %s", l, r, tt.white, tt.black)
			}
			if got := g.Clock.Moves(clock.White); got != 3 {
				t.Errorf("White's moves %d, want 3", got)
			}
			sheet := strings.Join(h.c.sheet.shown, "\n")
			if !strings.Contains(sheet, struckMark+" 4. d3") || !strings.Contains(sheet, struckMark+" 4... d6") {
				t.Errorf("struck moves not shown as struck:\n%s", sheet)
			}
			if !strings.Contains(topDialogTexts(h.c), "Position before 4. d3 restored") {
				t.Errorf("no confirmation: %q", topDialogTexts(h.c))
			}
			t.Run("the confirmation says the method mid-sentence in small letters", func(t *testing.T) {
				if want := "restored (" + match.MethodEffect(tt.method) + ")"; !strings.Contains(topDialogTexts(h.c), want) {
					t.Errorf("want %q in %q", want, topDialogTexts(h.c))
				}
			})
			t.Run("the notice says once that the arbiter resumes", func(t *testing.T) {
				if n := strings.Count(h.c.notice.Text, "resumes"); n != 1 {
					t.Errorf("the notice says it %d times: %q", n, h.c.notice.Text)
				}
			})
		})
	}
}

// Struck-out moves stand in the console's scoresheet where they were played,
// struck through, just before the move that replaced them (issue 14).
func TestStruckMovesStandWhereTheyWerePlayed(t *testing.T) {
	h := correctionGame(t)
	cd := openCorrection(t, h)
	cd.reason.SetText("the operator relayed 4. d3 instead of 4. d4")
	test.Tap(cd.cols[match.MethodKeep].choose)
	if cd.errText.Visible() {
		t.Fatalf("refused: %s", cd.errText.Text)
	}
	h.key("Return")
	t.Run("before the replacement the struck moves follow the last move", func(t *testing.T) {
		rows := h.c.sheet.shown
		if n := len(rows); n != 5 || !strings.HasPrefix(rows[3], struckMark+" 4. d3") || !strings.HasPrefix(rows[4], struckMark+" 4... d6") {
			t.Errorf("scoresheet:\n%s", strings.Join(rows, "\n"))
		}
	})
	h.c.do(actResume)
	h.ft.advance(2 * time.Second)
	h.typeMove("d4")
	h.ft.advance(2 * time.Second)
	h.typeMove("d6")
	t.Run("after it they stand before the move that replaced them", func(t *testing.T) {
		rows := h.c.sheet.shown
		want := []string{"  1.", "  2.", "  3.", struckMark + " 4. d3", struckMark + " 4... d6", "  4. d4"}
		if len(rows) != len(want) {
			t.Fatalf("scoresheet has %d rows, want %d:\n%s", len(rows), len(want), strings.Join(rows, "\n"))
		}
		for i, w := range want {
			if !strings.HasPrefix(rows[i], w) {
				t.Errorf("row %d = %q, want it to start %q", i, rows[i], w)
			}
		}
		if !strings.Contains(rows[3], "struck out") {
			t.Errorf("the struck row does not say so: %q", rows[3])
		}
	})
}

// German piece letters in the scoresheet and the audience display.
func TestGermanPieceLetters(t *testing.T) {
	inGerman(t)
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.c.do(actAudience)
	for _, mv := range []string{"Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7", "O-O", "O-O", "d3", "d6", "Qd2", "Qd7", "Re1", "Re8", "Kh1"} {
		h.typeMove(mv)
	}
	sheet := strings.Join(h.c.sheet.shown, "\n")
	for _, want := range []string{"Sf3", "Sf6", "Lg2", "Dd2", "Te1", "Kh1"} {
		if !strings.Contains(sheet, want) {
			t.Errorf("the German scoresheet lacks %s:\n%s", want, sheet)
		}
	}
	if got := h.c.audience.moves.Text; !strings.Contains(got, "8. Kh1") {
		t.Errorf("the audience display shows %q", got)
	}
}

// In German at 1280×800, with a refusal shown (a method refused with its
// figure, and a reset without a reason), no column's readings, refusal or
// calculation lie behind its button: the proportional one ("Anteilig") lost
// its calculation behind its button. What a column cannot show at once
// scrolls above the button.
func TestTheCorrectionDialogShowsNoCalculationBehindItsButtonWithARefusalShown(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		t.Run(language, func(t *testing.T) {
			if language == "de" {
				inGerman(t)
			}
			h := correctionGame(t)
			cd := openCorrection(t, h)
			test.Tap(cd.cols[match.MethodRecord].choose) // no reason: refused in the dialog
			if !cd.errText.Visible() || !cd.cols[match.MethodProportional].why.Visible() {
				t.Fatal("no refusal is shown")
			}
			// the window's driver lays a dialog out again when a text in it
			// grows; the test canvas does not
			cd.d.Resize(fyne.NewSize(1180, 700))
			abs := fyne.CurrentApp().Driver().AbsolutePositionForObject
			win := h.c.win.Canvas().Size()
			for _, m := range match.CorrectionMethods {
				col := cd.cols[m]
				button := abs(col.choose)
				if button.Y+col.choose.Size().Height > win.Height+0.5 {
					t.Errorf("%s: the button lies below the %.0f px window (at %.0f)", m, win.Height, button.Y)
				}
				if bottom := abs(col.body).Y + col.body.Size().Height; bottom > button.Y+0.5 {
					t.Errorf("%s: the column reaches down to %.0f, behind its button at %.0f", m, bottom, button.Y)
				}
				for _, l := range []*widget.Label{col.white, col.black, col.why, col.work} {
					if !l.Visible() || l.Text == "" {
						continue
					}
					if !slices.Contains(test.LaidOutObjects(col.body), fyne.CanvasObject(l)) {
						t.Errorf("%s: %q is not in the column's scroll", m, l.Text)
					}
				}
			}
		})
	}
}
