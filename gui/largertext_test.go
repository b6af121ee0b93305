package gui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// shownAt lays the console out at text size scale in a window of screen
// (less the menu bar at that size, which the test window does not draw) and
// returns the board's side and the left clock's digit size.
func shownAt(h *harness, screen fyne.Size, scale float32) (board, digits float32) {
	h.c.setScale(scale)
	h.c.win.Resize(fyne.NewSize(screen.Width, screen.Height-menuHeight()))
	for range 3 { // the flows and the digits settle
		h.c.refresh()
		h.c.win.Content().Refresh()
	}
	return h.c.board.side(h.c.board.Size()), h.c.clocks[0].time.TextSize
}

// Larger text (View → Larger text) never makes the board or the clocks
// smaller: at every text size up to 150 %, in English and German, on
// 1280×800 and 1920×1080, the board's side and the clocks' digits are at
// least what they are at 100 % in the same window; the window fits the
// screen with its menu bar (issue 27).
func TestLargerTextNeverMakesTheBoardOrTheClocksSmaller(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		for _, screen := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1920, Height: 1080}} {
			t.Run(fmt.Sprintf("%s/%.0fx%.0f", language, screen.Width, screen.Height), func(t *testing.T) {
				if language == "de" {
					inGerman(t)
				}
				h := sevenMovesWithDeepBlueWhite(t)
				t.Cleanup(func() { h.c.setScale(1) })
				board100, digits100 := shownAt(h, screen, 1)
				for _, scale := range []float32{1.1, 1.2, 1.3, 1.4, 1.5} {
					board, digits := shownAt(h, screen, scale)
					if board < board100 {
						t.Errorf("at %.0f %% the board is %.0f px; at 100 %% %.0f px", scale*100, board, board100)
					}
					if digits < digits100 {
						t.Errorf("at %.0f %% the clock digits are %.1f px; at 100 %% %.1f px", scale*100, digits, digits100)
					}
					min := h.c.win.Content().MinSize()
					if min.Width > screen.Width || min.Height+menuHeight() > screen.Height {
						t.Errorf("at %.0f %% the console needs %.0f×%.0f px with its menu bar", scale*100, min.Width, min.Height+menuHeight())
					}
				}
			})
		}
	}
}

// Up to 150 % text on a 1280×800 screen, in English and German, nothing the
// console shows is cut: the title stands whole, every text lies inside the
// window, and every button of the action bar's row lies inside it.
func TestNothingIsCutUpTo150PercentOn1280x800(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		for _, scale := range []float32{1, 1.2, 1.5} {
			t.Run(fmt.Sprintf("%s/%.0f%%", language, scale*100), func(t *testing.T) {
				if language == "de" {
					inGerman(t)
				}
				h := sevenMovesWithDeepBlueWhite(t)
				t.Cleanup(func() { h.c.setScale(1) })
				shownAt(h, fyne.NewSize(1280, 800), scale)
				win := h.c.win.Content().Size()
				title := h.c.title
				if need := fyne.MeasureText(title.Text, labelTextSize(title), title.TextStyle).Width + 2*theme.InnerPadding(); need > title.Size().Width+0.5 {
					t.Errorf("the title %q needs %.0f px and has %.0f: it is cut", title.Text, need, title.Size().Width)
				}
				shown := 0
				walkShown(h.c.win.Content(), fyne.NewPos(0, 0), func(o fyne.CanvasObject, p fyne.Position) {
					text := ""
					switch x := o.(type) {
					case *canvas.Text:
						text = x.Text
					case *widget.Button:
						text = x.Text
					}
					if text == "" {
						return
					}
					shown++
					if p.X < -0.5 || p.Y < -0.5 || p.X+o.Size().Width > win.Width+0.5 || p.Y+o.Size().Height > win.Height+0.5 {
						t.Errorf("%q at %v (%v) lies outside the %v window", text, p, o.Size(), win)
					}
				})
				if shown < 20 {
					t.Errorf("only %d texts are shown", shown)
				}
			})
		}
	}
}

// walkShown calls f with every object drawn in the window and its position
// in it, but those inside a scroll (the scroll shows part of them on
// purpose) and those hidden.
func walkShown(o fyne.CanvasObject, at fyne.Position, f func(fyne.CanvasObject, fyne.Position)) {
	if !o.Visible() {
		return
	}
	at = at.Add(o.Position())
	f(o, at)
	switch x := o.(type) {
	case *container.Scroll:
		return
	case *fyne.Container:
		for _, c := range x.Objects {
			walkShown(c, at, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkShown(c, at, f)
		}
	}
}

// A refusal shown under the move field never moves the board or anything
// else: the slot under the field keeps its height, whatever it says (issue
// 27: the board jumped), at 100 % and at 150 % text.
func TestARefusalUnderTheMoveFieldNeverMovesTheLayout(t *testing.T) {
	for _, scale := range []float32{1, 1.5} {
		t.Run(fmt.Sprintf("%.0f%%", scale*100), func(t *testing.T) {
			h := sevenMovesWithDeepBlueWhite(t)
			t.Cleanup(func() { h.c.setScale(1) })
			shownAt(h, fyne.NewSize(1280, 800), scale)
			where := func() []fyne.Position {
				var ps []fyne.Position
				abs := fyne.CurrentApp().Driver().AbsolutePositionForObject
				for _, o := range []fyne.CanvasObject{h.c.board, h.c.moveEntry, h.c.clocks[0].obj, h.c.sheet, h.c.bar} {
					ps = append(ps, abs(o), fyne.NewPos(o.Size().Width, o.Size().Height))
				}
				return ps
			}
			before := where()
			h.typeMove("Ke2") // a long refusal: the square is taken by a pawn
			if h.c.moveErr.Text == "" || !h.c.moveErr.Visible() {
				t.Fatal("Ke2 was not refused under the field")
			}
			h.c.win.Content().Refresh()
			after := where()
			for i := range before {
				if before[i] != after[i] {
					t.Errorf("the refusal moved the layout: %v became %v", before, after)
					break
				}
			}
		})
	}
}

// A refusal under the move field and the notice under it are read whole at
// the console's default size (1280×800, 100 %): a refusal of one line and
// the notice's line both stand inside the slot, the notice's line no
// longer cut in half (two labels in a box, each with its padding, took
// more than the slot's two lines); a refusal of two lines stands whole in
// it, and no line is ever cut: a line is inside the slot or below it.
func TestARefusalAndTheNoticeUnderItAreReadWhole(t *testing.T) {
	for _, tc := range []struct {
		name, language, move string
		press                bool // White presses first
		noticeShown          bool // the notice's line fits beside the refusal
	}{
		{"a refusal of one line and the notice both stand inside", "en", "Ke5", true, true},
		{"in German too", "de", "Ke5", true, true},
		{"a refusal of two lines stands whole, the notice's line below it", "en", "e4", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.language == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			shownAt(h, fyne.NewSize(1280, 800), 1)
			h.ft.advance(3 * time.Second)
			if tc.press {
				h.key(defaultKeyLeft) // the notice says to enter the move
			} else {
				h.c.do(actMovePresses) // press first: a move typed alone is refused in two lines
			}
			h.c.moveEntry.SetText(tc.move)
			h.c.moveEntry.OnSubmitted(tc.move)
			h.c.win.Content().Refresh()
			if h.c.moveErr.Text == "" || !h.c.moveErr.Visible() || h.c.notice.Text == "" {
				t.Fatalf("refusal %q, notice %q: want both", h.c.moveErr.Text, h.c.notice.Text)
			}
			abs := fyne.CurrentApp().Driver().AbsolutePositionForObject
			top := abs(h.c.noticeScroll).Y
			bottom := top + h.c.noticeScroll.Size().Height
			// a label's text stands inside its inner padding
			ip := theme.InnerPadding()
			lines := func(l *widget.Label) (float32, float32) {
				y := abs(l).Y
				return y + ip, y + l.Size().Height - ip
			}
			for _, l := range []struct {
				name  string
				label *widget.Label
				whole bool
			}{{"the refusal", h.c.moveErr, true}, {"the notice", h.c.notice, tc.noticeShown}} {
				from, to := lines(l.label)
				switch {
				case l.whole && (from < top || to > bottom+0.5):
					t.Errorf("%s %q stands at %.1f–%.1f, the slot shows %.1f–%.1f: not whole", l.name, l.label.Text, from, to, top, bottom)
				case !l.whole && from < bottom-0.5:
					t.Errorf("%s %q begins at %.1f, inside the slot (%.1f–%.1f), where it cannot stand whole", l.name, l.label.Text, from, top, bottom)
				}
			}
		})
	}
}
