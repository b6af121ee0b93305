package gui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2/test"
)

func TestGlyphTextSplitsOffTheLastTwoCharacters(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want [3]string
	}{
		{"1:59:51", [3]string{"1:59:", "5", "1"}},
		{"0:00:09.8", [3]string{"0:00:09", ".", "8"}},
		{"-:--:--", [3]string{"-:--:", "-", "-"}},
		{"42", [3]string{"", "4", "2"}},
		{"7", [3]string{"", "", "7"}},
		{"", [3]string{"", "", ""}},
		{"♔1", [3]string{"", "♔", "1"}},
	} {
		t.Run(tt.in, func(t *testing.T) {
			if got := splitTail(tt.in); got != tt.want {
				t.Errorf("splitTail(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestGlyphTextTickChangesOnlyTheTail(t *testing.T) {
	test.NewTempApp(t)
	g := newGlyphText("1:59:59", color.White)
	g.TextSize = 40
	g.Refresh()
	head := g.glyphs[0]
	if !g.set("1:59:58", color.White) {
		t.Fatal("set reported no change for a new reading")
	}
	if g.set("1:59:58", color.White) {
		t.Error("set reported a change for the same reading")
	}
	if head.Text != "1:59:" || g.glyphs[1].Text != "5" || g.glyphs[2].Text != "8" {
		t.Errorf("glyphs %q %q %q", head.Text, g.glyphs[1].Text, g.glyphs[2].Text)
	}
	g.obj.Resize(g.obj.MinSize())
	x := float32(0)
	for i, gl := range g.glyphs {
		if gl.Position().X != x {
			t.Errorf("glyph %d at x=%v, want %v (side by side)", i, gl.Position().X, x)
		}
		x += gl.MinSize().Width
	}
	if w := g.obj.MinSize().Width; w != x {
		t.Errorf("min width %v, want the sum of the glyphs %v", w, x)
	}
}
