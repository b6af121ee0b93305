package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// The Adjust dialog offers the clock that runs, and asks before a change
// of more than a minute: the same correction given again is made; a
// smaller one is made at once (issue 27: White was offered while Black's
// clock ran, and 2:03 became 0:00:25 without a question).
func TestTheAdjustDialogOffersTheRunningClockAndAsksBeforeAMinute(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(3 * time.Second)
	h.typeMove("e4") // Black's clock runs
	adjusts := func() int {
		n := 0
		for _, e := range h.events() {
			if e.Kind == match.KindAdjust {
				n++
			}
		}
		return n
	}
	open := func() (*widget.RadioGroup, []*formEntry) {
		h.c.do(actAdjust)
		var side *widget.RadioGroup
		for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
			if r, ok := o.(*widget.RadioGroup); ok {
				side = r
			}
		}
		return side, topEntries(t, h.c)
	}
	t.Run("the clock that runs is offered", func(t *testing.T) {
		side, _ := open()
		if side == nil || side.Selected != "Black" {
			t.Errorf("the dialog offers %v, want Black, whose clock runs", side)
		}
		h.c.dialogs[len(h.c.dialogs)-1].Hide()
	})
	t.Run("a setting that takes more than a minute asks first, and is made when given again", func(t *testing.T) {
		_, es := open()
		es[0].SetText("=0:00:25")
		es[2].SetText("the clock was set wrongly")
		before := adjusts()
		submitTop(t, h)
		if adjusts() != before {
			t.Fatal("the clock was set without a question")
		}
		if got := topDialogTexts(h.c); !strings.Contains(got, "Black's clock goes from 2:00:00 to 0:00:25 (−1:59:35), a change of more than a minute") {
			t.Fatalf("the dialog says %q", got)
		}
		h.ft.advance(2 * time.Second) // the clock runs on while the arbiter reads
		submitTop(t, h)
		if adjusts() != before+1 {
			t.Fatal("given again, the setting was not made")
		}
	})
	t.Run("a correction of a minute or less is made at once", func(t *testing.T) {
		_, es := open()
		es[0].SetText("+30s")
		es[2].SetText("a half minute")
		before := adjusts()
		submitTop(t, h)
		if adjusts() != before+1 {
			t.Fatalf("+30s was not made at once: %q", topDialogTexts(h.c))
		}
	})
}

// The Adjust dialog shows, beside the correction, what the chosen clock
// reads now as the console's clock shows it, and keeps showing it while
// the clock runs (an arbiter correcting a clock by a few seconds reads it
// there); the adjustment the log then shows names the side as the rest
// of the console does ("Black", "Schwarz"), never "black". In English and
// German.
func TestTheAdjustDialogShowsWhatTheClockReadsNow(t *testing.T) {
	for _, tc := range []struct{ lang, reads, white, black, logged string }{
		{"en", "Reads now", "White", "Black", "[Black +0:00:30]"},
		{"de", "Zeigt jetzt", "Weiß", "Schwarz", "[Schwarz +0:00:30]"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if tc.lang == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			h.ft.advance(3 * time.Second)
			h.typeMove("e4") // White used 3 s; Black's clock runs
			h.ft.advance(2 * time.Second)
			h.c.do(actAdjust)
			var side *widget.RadioGroup
			for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
				if r, ok := o.(*widget.RadioGroup); ok {
					side = r
				}
			}
			// the form's row named tc.reads, and the text of its label
			reads := func(t *testing.T) string {
				t.Helper()
				for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
					if f, ok := o.(*widget.Form); ok {
						for _, it := range f.Items {
							if l, ok := it.Widget.(*widget.Label); ok && it.Text == tc.reads && l.Visible() {
								return l.Text
							}
						}
					}
				}
				t.Fatalf("the dialog shows no %q: %q", tc.reads, topDialogTexts(h.c))
				return ""
			}
			for _, step := range []struct {
				name, choose string
				advance      time.Duration
				want         string
			}{
				{"the running clock offered reads what it shows", "", 0, "1:59:58"},
				{"the other clock chosen reads what it shows", tc.white, 0, "1:59:57"},
				{"the standing clock's reading stands", tc.white, time.Second, "1:59:57"},
				{"the running clock chosen again reads on", tc.black, 0, "1:59:57"},
				{"a second later it reads a second less", tc.black, time.Second, "1:59:56"},
			} {
				t.Run(step.name, func(t *testing.T) {
					if step.choose != "" {
						side.SetSelected(step.choose)
					}
					h.ft.advance(step.advance)
					if got := reads(t); got != step.want {
						t.Errorf("%s: %q, want %q", tc.reads, got, step.want)
					}
				})
			}
			t.Run("the adjustment logged names the side with a capital", func(t *testing.T) {
				es := topEntries(t, h.c)
				es[0].SetText("+30s")
				es[2].SetText("a half minute")
				submitTop(t, h)
				shown := strings.Join(labelTexts(h.c.win.Content()), "\n")
				if !strings.Contains(shown, tc.logged) || strings.Contains(shown, "[black") {
					t.Errorf("the log shows %q, want %q", shown, tc.logged)
				}
			})
		})
	}
}
