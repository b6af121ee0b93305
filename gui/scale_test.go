package gui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
)

// The board and the clock digits grow with the window, 1280×800 to
// 3840×2160 (issue 14).
func TestTheBoardAndClockDigitsGrowWithTheWindow(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(time.Second)
	lastSide, lastDigits := float32(0), float32(0)
	for _, sz := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1920, Height: 1080}, {Width: 3840, Height: 2160}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", sz.Width, sz.Height), func(t *testing.T) {
			h.c.win.Resize(sz)
			h.c.win.Content().Refresh()
			h.c.win.Content().Refresh() // the digits' new height is laid out
			side := h.c.board.side(h.c.board.Size())
			digits := h.c.clocks[0].time.TextSize
			if side <= lastSide || digits <= lastDigits {
				t.Errorf("board %.0f px (was %.0f), digits %.0f (was %.0f): both must grow", side, lastSide, digits, lastDigits)
			}
			if side < 0.6*sz.Height {
				t.Errorf("the board is %.0f px in a %.0f px high window: it leaves space unused", side, sz.Height)
			}
			if w := h.c.clocks[0].time.obj.Size().Width; w > h.c.clocks[0].obj.Size().Width {
				t.Errorf("the digits (%.0f px) overflow their clock (%.0f px)", w, h.c.clocks[0].obj.Size().Width)
			}
			lastSide, lastDigits = side, digits
		})
	}
}

// Text size changes are reversible and never push the window past a
// 1280×800 screen or the action bar off it, in either language.
func TestTextSizeChangesAreReversibleAndKeepTheBarOnScreen(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		t.Run(language, func(t *testing.T) {
			if language == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			t.Cleanup(func() { h.c.setScale(1) })
			before := h.c.win.Content().MinSize()
			for i := 0; i < 5; i++ {
				h.c.do(actTextBigger)
				h.c.refresh()
				min := h.c.win.Content().MinSize()
				if min.Width > 1280 || min.Height > 800 {
					t.Errorf("at %.0f %% text the console needs %.0f×%.0f px", h.c.scale*100, min.Width, min.Height)
				}
			}
			for i := 0; i < 5; i++ {
				h.c.do(actTextSmaller)
			}
			h.c.refresh()
			if h.c.scale != 1 {
				t.Errorf("five steps up and five down leave the text at %.0f %%", h.c.scale*100)
			}
			if after := h.c.win.Content().MinSize(); after != before {
				t.Errorf("the console's minimum was %v and is %v after returning to 100 %%", before, after)
			}
		})
	}
}

// A reading with tenths (under ten seconds, and a fallen flag's 0:00:00.0)
// still fits its clock.
func TestAReadingWithTenthsFitsItsClock(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("10", "")
	h.c.do(actStartGame)
	h.ft.advance(11 * time.Second)
	h.c.win.Content().Refresh()
	cv := h.c.clocks[0]
	if cv.time.Text != "0:00:00.0" {
		t.Fatalf("White's clock shows %q", cv.time.Text)
	}
	if w, have := fyne.MeasureText(cv.time.Text, cv.time.TextSize, cv.time.TextStyle).Width, cv.obj.Size().Width; w > have {
		t.Errorf("the reading needs %.0f px; its clock is %.0f px wide", w, have)
	}
}

// Every column of the scoresheet is readable in full at every supported
// window size (1280×800 and up), at the normal and larger text sizes, in
// English and in German: each move's row, as drawn, shows the move, the
// time used and the full clock reading after it, and fits the width the
// sheet is given (nothing is cut off at its right edge). The clocks' names
// are shown whole too, never shortened with an ellipsis.
func TestEveryScoresheetColumnIsReadableAtEverySupportedSize(t *testing.T) {
	// the larger text is gui-check's (two steps up); 150 % on 1920×1080
	sizes := []struct {
		size  fyne.Size
		scale float32
	}{
		{fyne.NewSize(1280, 800), 1}, {fyne.NewSize(1280, 800), 1.2},
		{fyne.NewSize(1920, 1080), 1}, {fyne.NewSize(1920, 1080), 1.2}, {fyne.NewSize(1920, 1080), 1.5},
	}
	for _, language := range []string{"en", "de"} {
		for _, tc := range sizes {
			t.Run(fmt.Sprintf("%s/%.0fx%.0f/%.0f%%", language, tc.size.Width, tc.size.Height, tc.scale*100), func(t *testing.T) {
				if language == "de" {
					inGerman(t)
				}
				h := newHarness(t, match.RoleArbiter, "")
				// as in gui-check: Deep Blue has White in game 1, so that
				// "Garry Kasparov — Schwarz" is the longer name line
				spec := defaultSpec()
				spec.White = "Deep Blue"
				if err := h.core.NewMatch(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
					t.Fatal(err)
				}
				h.c.do(actStartGame)
				for _, mv := range game1996Plies[:14] {
					h.ft.advance(7 * time.Second)
					h.typeMove(mv)
				}
				t.Cleanup(func() { h.c.setScale(1) })
				h.c.setScale(tc.scale)
				h.c.win.Resize(tc.size)
				h.c.refresh()
				h.c.win.Content().Refresh()
				h.c.win.Content().Refresh() // the digits' new height is laid out

				shown := drawnTexts(h.c.sheet)
				// a scroll bar may stand over the right edge of the rows
				room := h.c.sheet.Size().Width - 2*theme.ScrollBarSmallSize()
				if len(shown) == 0 || room <= 0 {
					t.Fatalf("the scoresheet (%v) shows %q", h.c.sheet.Size(), shown)
				}
				for _, row := range shown {
					if w := fyne.MeasureText(row, sheetTextSize(), fyne.TextStyle{Monospace: true}).Width; w > room {
						t.Errorf("the row %q needs %.0f px; the scoresheet shows %.0f px of it", row, w, room)
					}
				}
				// the sheet follows the game: the last moves are in view,
				// each with its time used and the clock after it
				g := h.game()
				for _, e := range g.Sheet.Entries()[g.Sheet.Ply()-4:] {
					after := e.ClockWhite
					if e.Color == chess.Black {
						after = e.ClockBlack
					}
					cols := clock.FormatUsed(e.Used) + " " + clock.FormatReading(after.Truncate(time.Second))
					if !slices.ContainsFunc(shown, func(row string) bool {
						return strings.Contains(row, " "+localSAN(e.SAN)+" ") && strings.Contains(row, cols)
					}) {
						t.Errorf("no row shows %s with %s:\n%s", localSAN(e.SAN), cols, strings.Join(shown, "\n"))
					}
				}
				for _, cv := range h.c.clocks {
					if got := strings.Join(drawnTexts(cv.nameLabel), " "); strings.Contains(got, "…") {
						t.Errorf("the clock's name %q is shown as %q", cv.nameLabel.Text, got)
					}
				}
				if l, r := h.c.clocks[0].nameLabel, h.c.clocks[1].nameLabel; l.SizeName != r.SizeName {
					t.Errorf("the clocks' names are set at two sizes: %q %s, %q %s", l.Text, l.SizeName, r.Text, r.SizeName)
				}
			})
		}
	}
}
