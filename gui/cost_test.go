package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"arbiter/match"
)

// The console is repainted whole every second while a clock runs, and the
// GL painter draws every object of the window each time, in view or
// scrolled away. These tests keep what a repaint draws bounded.

// drawnTexts collects the non-empty texts under o, as the painter walks it.
func drawnTexts(o fyne.CanvasObject) []string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *canvas.Text:
			if strings.TrimSpace(x.Text) != "" {
				out = append(out, x.Text)
			}
		case *fyne.Container:
			for _, ch := range x.Objects {
				walk(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(x).Objects() {
				walk(ch)
			}
		}
	}
	walk(o)
	return out
}

// the first 60 plies of game 1 of 1996
var game1996Plies = strings.Fields(`e4 c5 c3 d5 exd5 Qxd5 d4 Nf6 Nf3 Bg4 Be2 e6 h3 Bh5 O-O Nc6 Be3 cxd4 cxd4 Bb4
	a3 Ba5 Nc3 Qd6 Nb5 Qe7 Ne5 Bxe2 Qxe2 O-O Rac1 Rac8 Bg5 Bb6 Bxf6 gxf6 Nc4 Rfd8 Nxb6 axb6
	Rfd1 f5 Qe3 Qf6 d5 Rxd5 Rxd5 exd5 b3 Kh8 Qxb6 Rg8 Qc5 d4 Nd6 f4 Nxb7 Ne5 Qd5 f3`)

func TestALongGameDrawsOnlyTheScoresheetRowsInView(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	for _, mv := range game1996Plies {
		h.ft.advance(time.Second)
		h.typeMove(mv)
	}
	if len(h.c.sheet.shown) != 30 {
		t.Fatalf("%d scoresheet rows after 30 moves, want 30", len(h.c.sheet.shown))
	}
	drawn := drawnTexts(h.c.sheet)
	inView := int(h.c.sheet.Size().Height/15) + 2 // rows are at least 15 px high
	t.Logf("%d of %d rows drawn, %d fit in view", len(drawn), len(h.c.sheet.shown), inView)
	if len(drawn) > inView || len(drawn) >= len(h.c.sheet.shown) {
		t.Errorf("the scoresheet draws %d rows of %d; at most %d fit in view", len(drawn), len(h.c.sheet.shown), inView)
	}
	if last := drawn[len(drawn)-1]; !strings.Contains(last, "30. Qd5") {
		t.Errorf("the last row drawn is %q, want move 30 (the sheet follows the game)", last)
	}
}

func TestAClockTickDrawsOnlyDigitsAlreadyDrawn(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	white := h.c.clocks[0]
	seen := map[string]bool{}
	for i := 0; i < 60; i++ {
		h.ft.advance(time.Second)
		for _, g := range white.time.glyphs[1:] {
			seen[g.Text] = true
		}
	}
	// one minute of ticks shows the ten digits (Fyne renders each once and
	// takes it from its cache after), and the head changed once a minute
	if len(seen) > 10 {
		t.Errorf("the ticking glyphs showed %d different texts in a minute, want at most the 10 digits: %v", len(seen), seen)
	}
	if white.time.Text != "1:59:00" || white.time.glyphs[0].Text != "1:59:" {
		t.Errorf("after a minute White shows %q (head %q)", white.time.Text, white.time.glyphs[0].Text)
	}
}
