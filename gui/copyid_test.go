package gui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// topDialogButton is the button of the top dialog that reads text, or nil.
func topDialogButton(h *harness, text string) *widget.Button {
	top := h.c.win.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	return nil
}

// Every dialog that shows the match id to write down has a button beside
// it that copies it (as 'arbiter verify --match' takes it), in both
// languages: the Match created note, protected or not, and the Verify
// dialog.
func TestADialogThatShowsTheMatchIDCopiesIt(t *testing.T) {
	for _, lang := range []struct{ name, button string }{
		{"en", "Copy the match id"},
		{"de", "Kennung kopieren"},
	} {
		for _, tc := range []struct {
			name string
			pin  string
			show func(h *harness)
		}{
			{"the Match created note of an unprotected match", "", func(h *harness) { h.c.matchCreated("") }},
			{"the Match created note of a protected match, beside the fingerprint", "Mike Valvo's PIN", func(h *harness) { h.c.matchCreated("Mike Valvo's PIN") }},
			{"the Verify dialog", "Mike Valvo's PIN", func(h *harness) { h.c.verifyRecord() }},
		} {
			t.Run(lang.name+": "+tc.name, func(t *testing.T) {
				if lang.name == "de" {
					inGerman(t)
				}
				h := newHarness(t, match.RoleArbiter, "")
				spec := defaultSpec()
				spec.White, spec.PIN = "Garry Kasparov", tc.pin
				if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
					t.Fatal(err)
				}
				id := h.core.State().Match.ID
				if id == "" {
					t.Fatal("the match has no id")
				}
				tc.show(h)
				b := topDialogButton(h, lang.button)
				if b == nil {
					t.Fatalf("no button %q in the dialog that says %q", lang.button, topDialogTexts(h.c))
				}
				test.Tap(b)
				if got := h.c.fa.Clipboard().Content(); got != id {
					t.Errorf("the clipboard holds %q, want the match id %q", got, id)
				}
			})
		}
	}
}
