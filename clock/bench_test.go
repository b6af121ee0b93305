package clock

import (
	"testing"
	"time"
)

func TestReadsDoNotAllocate(t *testing.T) {
	g := newGame(t, "acm1996", "acm1996")
	g.move(min_)
	c, x := g.c, at(2*min_)
	for name, f := range map[string]func(){
		"Remaining": func() { _ = c.Remaining(Black, x) },
		"Used":      func() { _ = c.Used(Black, x) },
		"Running":   func() { _, _ = c.Running() },
		"FlagAt":    func() { _, _ = c.FlagAt(Black) },
		"Flag":      func() { _ = c.Flag(Black, x) },
		"Press":     func() { _, _ = c.Press(Black, x) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call", name, n)
		}
	}
}

func BenchmarkPress(b *testing.B) {
	c, _ := New(mustParse(b, "acm1996"), mustParse(b, "acm1996")).Start(t0)
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Second)
		s, _ := c.Running()
		c, _ = c.Press(s, now)
	}
}

func BenchmarkRemaining(b *testing.B) {
	c, _ := New(mustParse(b, "acm1996"), mustParse(b, "acm1996")).Start(t0)
	x := at(time.Minute)
	b.ReportAllocs()
	var sink time.Duration
	for b.Loop() {
		sink += c.Remaining(White, x)
	}
	_ = sink
}

func BenchmarkDisplay(b *testing.B) {
	c, _ := New(mustParse(b, "acm1996"), mustParse(b, "acm1996")).Start(t0)
	x := at(time.Minute)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = c.Display(White, x, DisplayOptions{})
	}
}
