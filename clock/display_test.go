package clock

import (
	"testing"
	"time"
)

func TestDisplayFormat(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name string
		r    time.Duration
		tb   time.Duration
		want string
	}{
		{"hours_without_padding", 2*hour - 2*sec, 0, "1:59:58"},
		{"under_an_hour_still_shows_0_hours", 59*min_ + 58*sec, 0, "0:59:58"},
		{"many_hours", 12 * hour, 0, "12:00:00"},
		{"tenths_below_10s_by_default", 9*sec + 750*ms, 0, "0:00:09.7"},
		{"exactly_10s_has_no_tenths", 10 * sec, 0, "0:00:10"},
		{"rounded_down_not_up", 400 * ms, 0, "0:00:00.4"},
		{"whole_seconds_are_rounded_down_too", 59*sec + 900*ms, -1, "0:00:59"},
		{"negative_TenthsBelow_never_shows_tenths", 9*sec + 750*ms, -1, "0:00:09"},
		{"custom_TenthsBelow", 59*sec + 900*ms, min_, "0:00:59.9"},
		{"zero", 0, 0, "0:00:00.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(mustParse(t, "60"), mustParse(t, "60")).SetRemaining(White, tc.r, t0)
			if err != nil {
				t.Fatal(err)
			}
			txt, next := c.Display(White, at(hour), DisplayOptions{TenthsBelow: tc.tb})
			if txt != tc.want || !next.IsZero() {
				t.Errorf("Display = %q, %v; want %q and no change", txt, next, tc.want)
			}
		})
	}
}

func TestDisplayNext(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name     string
		spec     string
		elapsed  time.Duration // of White's first turn
		text     string
		untilNxt time.Duration
		nextText string
	}{
		{"changes_1ns_after_a_whole_second", "7200", 0, "2:00:00", 1, "1:59:59"},
		{"changes_when_the_next_second_is_passed", "7200", 500 * ms, "1:59:59", 500*ms + 1, "1:59:58"},
		{"tenths_start_below_10s", "60", 49*sec + 500*ms, "0:00:10", 500*ms + 1, "0:00:09.9"},
		{"tenths_change_every_tenth", "60", 55*sec + 50*ms, "0:00:04.9", 50*ms + 1, "0:00:04.8"},
		{"simple_delay_holds_then_counts", "60d5", 2 * sec, "0:01:00", 3*sec + 1, "0:00:59"},
		{"bronstein_counts_at_once", "60b5", 2 * sec, "0:01:03", 1, "0:01:02"},
		{"last_tenth_never_changes_again", "60", 59*sec + 950*ms, "0:00:00.0", -1, ""},
		{"untimed_counts_up", "-", 1500 * ms, "0:00:01", 500 * ms, "0:00:02"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.spec, tc.spec)
			now := at(tc.elapsed)
			txt, next := g.c.Display(White, now, DisplayOptions{})
			if txt != tc.text {
				t.Fatalf("Display = %q, want %q", txt, tc.text)
			}
			if tc.untilNxt < 0 {
				if !next.IsZero() {
					t.Errorf("next = %v, want none", next)
				}
				return
			}
			if want := now.Add(tc.untilNxt); !next.Equal(want) {
				t.Fatalf("next = %v, want %v", next.Sub(t0), want.Sub(t0))
			}
			if got, _ := g.c.Display(White, next, DisplayOptions{}); got != tc.nextText {
				t.Errorf("at next: %q, want %q", got, tc.nextText)
			}
			if got, _ := g.c.Display(White, next.Add(-1), DisplayOptions{}); got != tc.text {
				t.Errorf("1ns before next: %q, want still %q", got, tc.text)
			}
		})
	}
	t.Run("a_waiting_clock_never_changes", func(t *testing.T) {
		g := newGame(t, "60", "60")
		if txt, next := g.c.Display(Black, at(sec), DisplayOptions{}); txt != "0:01:00" || !next.IsZero() {
			t.Errorf("%q %v", txt, next)
		}
	})
}

// TestShownTicksAsTheDisplay: a face that ticks a clock itself from Shown
// (shown − max(0, elapsed − hold), or shown + elapsed counting up) shows
// at every later instant of the turn what Display shows.
func TestShownTicksAsTheDisplay(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name, spec string
		read       time.Duration // instant of the reading, into White's turn
		shown      time.Duration
		hold       time.Duration
	}{
		{"main_time_counts_down_at_once", "60", 2 * sec, 58 * sec, 0},
		{"a_simple_delay_holds_the_rest_of_the_delay", "60d5", 2 * sec, 60 * sec, 3 * sec},
		{"after_a_simple_delay_the_main_time_counts", "60d5", 7 * sec, 58 * sec, 0},
		{"bronstein_shows_the_delay_on_top", "60b5", 2 * sec, 63 * sec, 0},
		{"untimed_shows_the_time_used", "-", 1500 * ms, 1500 * ms, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.spec, tc.spec)
			shown, hold := g.c.Shown(White, at(tc.read))
			if shown != tc.shown || hold != tc.hold {
				t.Fatalf("Shown = %v, %v; want %v, %v", shown, hold, tc.shown, tc.hold)
			}
			up := tc.spec == "-"
			for el := time.Duration(0); el < 10*sec; el += 250 * ms {
				d := shown + el
				if !up {
					d = shown - max(0, el-hold)
				}
				c, err := New(mustParse(t, "60"), mustParse(t, "60")).SetRemaining(White, max(d, 0), t0)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := g.c.Display(White, at(tc.read+el), DisplayOptions{TenthsBelow: -1})
				got, _ := c.Display(White, t0, DisplayOptions{TenthsBelow: -1})
				if up {
					got = FormatShown(d)
				}
				if got != want {
					t.Fatalf("%v after the reading: ticked %q, the display shows %q", el, got, want)
				}
			}
		})
	}
}
