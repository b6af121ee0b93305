package gui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"

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
