package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// The New match dialog asks for the arbiter's PIN twice and refuses two
// that differ, creating nothing; once the match is made with a PIN it shows
// the arbiter's key fingerprint to write down, with a button that copies it
// (issue 27).
func TestNewMatchAsksForThePINTwiceAndShowsTheFingerprint(t *testing.T) {
	const pin = "kasparov-deep-blue-1996"
	fill := func(t *testing.T, h *harness, first, second string) {
		t.Helper()
		h.c.do(actNewMatch)
		var pins []*formEntry
		for _, e := range dialogEntries(h.c) {
			if e.Password {
				pins = append(pins, e)
			}
		}
		if len(pins) != 2 {
			t.Fatalf("the dialog has %d PIN fields, want 2", len(pins))
		}
		test.Type(pins[0], first)
		test.Type(pins[1], second)
		h.c.win.Canvas().Focus(pins[1])
		h.key(fyne.KeyReturn)
	}
	t.Run("two PINs that differ are refused and create nothing", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		fill(t, h, pin, pin+"x")
		if h.core.State().Match != nil {
			t.Fatal("a match was created with two different PINs")
		}
		if got := topDialogTexts(h.c); !strings.Contains(got, "The two PINs differ") {
			t.Errorf("the dialog says %q", got)
		}
	})
	t.Run("the same PIN twice creates the match and shows the key's fingerprint to copy", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		fill(t, h, pin, pin)
		st := h.core.State()
		if st.Match == nil || st.ArbiterCredential() == nil {
			t.Fatal("no protected match was created")
		}
		fp := st.ArbiterCredential().Fingerprint()
		shown := strings.Join(strings.Fields(topDialogTexts(h.c)), " ")
		if !strings.Contains(shown, match.HexBlocks(fp)) || !strings.Contains(shown, "Write down the fingerprint") {
			t.Fatalf("the note says %q, not the fingerprint %s to write down", shown, match.HexBlocks(fp))
		}
		var copyBtn *widget.Button
		for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
			if b, ok := o.(*widget.Button); ok && b.Text == "Copy the fingerprint" {
				copyBtn = b
			}
		}
		if copyBtn == nil {
			t.Fatal("no button copies the fingerprint")
		}
		test.Tap(copyBtn)
		if got := h.c.fa.Clipboard().Content(); got != fp {
			t.Errorf("the clipboard holds %q, want the fingerprint %q", got, fp)
		}
	})
	t.Run("without a PIN the match is made unprotected and the note has no fingerprint", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		fill(t, h, "", "")
		if h.core.State().Match == nil {
			t.Fatal("no match was created")
		}
		if strings.Contains(topDialogTexts(h.c), "fingerprint") {
			t.Errorf("the note speaks of a fingerprint: %q", topDialogTexts(h.c))
		}
	})
}

// The note that the match is created shows the match id to write down, as
// match new at the command line prints it, protected or not: before, the
// console showed the key's fingerprint alone, and 'arbiter verify --match'
// had nothing the arbiter had written down to check against.
func TestTheMatchCreatedNoteShowsTheMatchIDToWriteDown(t *testing.T) {
	for _, tc := range []struct {
		name string
		pin  string
	}{
		{"a protected match's note shows its id beside the fingerprint", "Mike Valvo's PIN"},
		{"an unprotected match's note shows its id", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, match.RoleArbiter, "")
			spec := defaultSpec()
			spec.White, spec.PIN = "Garry Kasparov", tc.pin
			if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
				t.Fatal(err)
			}
			h.c.matchCreated(tc.pin)
			id := h.core.State().Match.ID
			if id == "" {
				t.Fatal("the match has no id")
			}
			shown := strings.Join(strings.Fields(topDialogTexts(h.c)), " ")
			if !strings.Contains(shown, match.HexBlocks(id)) || !strings.Contains(shown, "Write down the match id") {
				t.Errorf("the note says %q, not the match id %s to write down", shown, match.HexBlocks(id))
			}
		})
	}
}

// The PDF export offers US Letter for a match in the Americas (its zone)
// and A4 for one in Europe (issue 27: A4 was offered in Philadelphia).
func TestThePDFExportOffersThePaperOfTheMatchsZone(t *testing.T) {
	for _, tc := range []struct{ zone, want string }{
		{"America/New_York", "Letter"},
		{"Europe/Berlin", "A4"},
	} {
		t.Run(tc.zone, func(t *testing.T) {
			h := newHarness(t, match.RoleArbiter, "")
			spec := defaultSpec()
			spec.White, spec.TimeZone = "Garry Kasparov", tc.zone
			if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
				t.Fatal(err)
			}
			h.c.do(actExportPDF)
			var paper *widget.Select
			for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
				if s, ok := o.(*widget.Select); ok && len(s.Options) == 2 && s.Options[1] == "Letter" {
					paper = s
				}
			}
			if paper == nil {
				t.Fatal("the export dialog offers no paper")
			}
			if paper.Selected != tc.want {
				t.Errorf("the paper offered is %q, want %q", paper.Selected, tc.want)
			}
		})
	}
}

// In German at 1280×800 the New match dialog shows its choices and hints
// whole: the choice of who has White ("durch Los, von diesem Programm
// gezogen") and the hints of the empty PIN fields are never cut short with
// an ellipsis, nor is any other text of the dialog.
func TestTheNewMatchDialogShowsItsChoicesAndHintsWhole(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		t.Run(language, func(t *testing.T) {
			if language == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.c.do(actNewMatch)
			var shown []string
			for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
				if x, ok := o.(*canvas.Text); ok && x.Visible() && x.Text != "" {
					shown = append(shown, x.Text)
					if strings.HasSuffix(x.Text, "…") {
						t.Errorf("%q is cut short", x.Text)
					}
				}
			}
			// an empty field's hint is clipped, not ellipsized, by a field
			// too narrow: it needs its width between the paddings (and the
			// reveal button of a PIN field)
			pad, icon := theme.InnerPadding(), theme.IconInlineSize()
			for _, e := range dialogEntries(h.c) {
				if e.Text != "" || e.PlaceHolder == "" {
					continue
				}
				need := fyne.MeasureText(e.PlaceHolder, theme.TextSize(), fyne.TextStyle{}).Width + 2*pad
				if e.Password {
					need += icon + pad
				}
				if need > e.Size().Width+0.5 {
					t.Errorf("the hint %q needs %.0f px and has %.0f: it is cut", e.PlaceHolder, need, e.Size().Width)
				}
			}
			// and the dialog, grown for them, stays inside the window
			win := h.c.win.Canvas().Size()
			for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
				if _, field := o.(*formEntry); !field {
					if _, choice := o.(*widget.Select); !choice {
						continue
					}
				}
				p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
				if p.X < 0 || p.X+o.Size().Width > win.Width+0.5 {
					t.Errorf("a field at x %.0f, %.0f px wide, lies outside the %.0f px window", p.X, o.Size().Width, win.Width)
				}
			}
			all := strings.Join(shown, "\n")
			for _, want := range []string{translate("by lots, drawn by this program"), translate("optional, 10 characters or more"), translate("the same passphrase again")} {
				if !strings.Contains(all, want) {
					t.Errorf("the dialog does not show %q whole:\n%s", want, all)
				}
			}
		})
	}
}
