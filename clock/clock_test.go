package clock

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"arbiter/internal/phrase"
)

// t0 is the scheduled start of game 1 of the 1996 match.
var t0 = time.Date(1996, 2, 10, 15, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

func mustParse(t testing.TB, s string) Control {
	t.Helper()
	c, err := ParseSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// game drives a clock through a test, failing on any error.
type game struct {
	t   testing.TB
	c   Clock
	now time.Duration // since t0
}

func newGame(t testing.TB, white, black string) *game {
	t.Helper()
	g := &game{t: t, c: New(mustParse(t, white), mustParse(t, black))}
	g.do(g.c.Start(t0))
	return g
}

func (g *game) do(c Clock, err error) {
	g.t.Helper()
	if err != nil {
		g.t.Fatal(err)
	}
	g.c = c
}

// move lets the running side think for d, then press.
func (g *game) move(d time.Duration) {
	g.t.Helper()
	side, ok := g.c.Running()
	if !ok {
		g.t.Fatal("no clock running")
	}
	g.now += d
	g.do(g.c.Press(side, at(g.now)))
}

func (g *game) remaining(s Side) time.Duration { return g.c.Remaining(s, at(g.now)) }

// refusals is the chain of the clock's refusals in err, the outermost
// first, each with its arguments (a refusal carried as another's argument
// included: "cannot press: the clock has not been started").
func refusals(err error) []*phrase.Error {
	var out []*phrase.Error
	for err != nil {
		if p, ok := err.(*phrase.Error); ok {
			if English(Code(p.Code)) != "" {
				out = append(out, p)
			}
			for _, a := range p.Args {
				if inner, ok := a.(error); ok {
					return append(out, refusals(inner)...)
				}
			}
			return out
		}
		err = errors.Unwrap(err)
	}
	return out
}

// wantErr asserts that err is the clock's refusal with the codes want, the
// outermost first (never its English words: each face says it).
func wantErr(t *testing.T, err error, want ...Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want the refusal %v", want)
	}
	var got []Code
	for _, p := range refusals(err) {
		got = append(got, Code(p.Code))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("refusal %v (%q), want %v", got, err, want)
	}
}

// wantArgs asserts that the refusal code in err carries the arguments want
// (as printed).
func wantArgs(t *testing.T, err error, code Code, want ...string) {
	t.Helper()
	for _, p := range refusals(err) {
		if Code(p.Code) != code {
			continue
		}
		var got []string
		for _, a := range p.Args {
			got = append(got, fmt.Sprint(a))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("refusal %s has the arguments %q, want %q", code, got, want)
		}
		return
	}
	t.Fatalf("%q is not the refusal %s", err, code)
}

func TestNew(t *testing.T) {
	c := New(mustParse(t, "acm1996"), mustParse(t, "300+3"))
	t.Run("not_started_and_nothing_runs", func(t *testing.T) {
		if _, ok := c.Running(); ok || c.Started() || c.Stopped() {
			t.Errorf("Running ok=%v Started=%v Stopped=%v", ok, c.Started(), c.Stopped())
		}
	})
	t.Run("each_side_shows_its_first_period", func(t *testing.T) {
		if c.Remaining(White, t0) != 2*hour || c.Remaining(Black, t0) != 5*min_ {
			t.Errorf("remaining %v, %v", c.Remaining(White, t0), c.Remaining(Black, t0))
		}
	})
	t.Run("time_does_not_run_before_start", func(t *testing.T) {
		if c.Remaining(White, at(hour)) != 2*hour {
			t.Error("time ran before Start")
		}
	})
}

func TestStart(t *testing.T) {
	c := New(mustParse(t, "acm1996"), mustParse(t, "acm1996"))
	c, err := c.Start(t0)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("6.5_whites_clock_starts", func(t *testing.T) {
		if s, ok := c.Running(); !ok || s != White || !c.Started() {
			t.Errorf("Running() = %v, %v", s, ok)
		}
		if got := c.Remaining(White, at(10*min_)); got != 110*min_ {
			t.Errorf("White after 10 min: %v", got)
		}
		if got := c.Remaining(Black, at(10*min_)); got != 2*hour {
			t.Errorf("Black after 10 min: %v", got)
		}
	})
	t.Run("cannot_start_twice", func(t *testing.T) {
		_, err := c.Start(at(sec))
		wantErr(t, err, CodeAlreadyStarted)
	})
}

func TestPressRefuses(t *testing.T) {
	g := newGame(t, "acm1996", "acm1996")
	for _, tc := range []struct {
		name string
		c    Clock
		side Side
		at   time.Time
		want Code
	}{
		{"only_the_running_side_presses", g.c, Black, at(sec), CodeRunning},
		{"not_before_start", New(mustParse(t, "acm1996"), mustParse(t, "acm1996")), White, t0, CodeNotStarted},
		{"time_never_runs_back", g.c, White, at(-sec), CodeRunsBack},
		{"not_a_side", g.c, Side(2), at(sec), CodeNotASideNumber},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.c.Press(tc.side, tc.at)
			wantErr(t, err, CodeCannotPress, tc.want)
			if !reflect.DeepEqual(got, tc.c) {
				t.Error("a refused press changed the clock")
			}
		})
	}
	t.Run("not_while_paused", func(t *testing.T) {
		c, _ := g.c.Pause(at(sec))
		_, err := c.Press(White, at(2*sec))
		wantErr(t, err, CodeCannotPress, CodePaused)
	})
	t.Run("not_after_stop", func(t *testing.T) {
		c, _ := g.c.Stop(at(sec))
		_, err := c.Press(White, at(2*sec))
		wantErr(t, err, CodeCannotPress, CodeStoppedAtEnd)
	})
}

// TestPress1996 plays a whole game under the 1996 match control: White
// spends 2m30s on every move, Black 1m40s.
func TestPress1996(t *testing.T) {
	g := newGame(t, "acm1996", "acm1996")
	ws, bs := 150*sec, 100*sec
	check := func(t *testing.T, side Side, moves, period int, rem time.Duration, toGo int, inPeriod bool) {
		t.Helper()
		if g.c.Moves(side) != moves || g.c.Period(side) != period {
			t.Errorf("%v: moves %d period %d, want %d, %d", side, g.c.Moves(side), g.c.Period(side), moves, period)
		}
		if got := g.remaining(side); got != rem {
			t.Errorf("%v: remaining %v, want %v", side, got, rem)
		}
		if n, ok := g.c.MovesToControl(side); n != toGo || ok != inPeriod {
			t.Errorf("%v: MovesToControl %d, %v; want %d, %v", side, n, ok, toGo, inPeriod)
		}
		ctl := g.c.Control(side)
		if got, want := g.c.Used(side, at(g.now)), ctl.Allotment(moves)+g.c.Credit(side)-g.c.Remaining(side, at(g.now)); got != want {
			t.Errorf("%v: Used %v, want Allotment+Credit-Remaining = %v", side, got, want)
		}
	}
	play := func(n int) {
		for i := 0; i < n; i++ {
			g.move(ws)
			g.move(bs)
		}
	}
	play(39)
	t.Run("6.2_no_period_time_before_move_40", func(t *testing.T) {
		check(t, White, 39, 0, 2*hour-39*ws, 1, true)
	})
	play(1)
	t.Run("6.2_saved_time_carries_into_period_2", func(t *testing.T) {
		check(t, White, 40, 1, 2*hour-40*ws+hour, 20, true)
		check(t, Black, 40, 1, 2*hour-40*bs+hour, 20, true)
	})
	play(20)
	t.Run("6.2_saved_time_carries_into_period_3", func(t *testing.T) {
		check(t, White, 60, 2, 3*hour-60*ws+30*min_, 0, false)
		check(t, Black, 60, 2, 3*hour-60*bs+30*min_, 0, false)
	})
	play(10)
	t.Run("6.2_last_period_is_for_all_moves", func(t *testing.T) {
		check(t, White, 70, 2, 210*min_-70*ws, 0, false)
		if g.c.Flag(White, at(g.now)).Fallen || g.c.Flag(Black, at(g.now)).Fallen {
			t.Error("a flag fell")
		}
	})
}

func TestFlag(t *testing.T) {
	t.Run("6.9_flag_in_period_1_at_move_39", func(t *testing.T) {
		g := newGame(t, "acm1996", "acm1996")
		for i := 0; i < 38; i++ {
			g.move(3 * min_) // 38 × 3 min = 114 min: 6 min left
			g.move(sec)
		}
		turnStart := at(g.now)
		want := turnStart.Add(6 * min_)
		if got, ok := g.c.FlagAt(White); !ok || !got.Equal(want) {
			t.Fatalf("FlagAt = %v, %v; want %v", got, ok, want)
		}
		g.move(7 * min_) // move 39 completed a minute late
		f := g.c.Flag(White, at(g.now))
		if !f.Fallen || !f.At.Equal(want) || f.Moves != 38 || f.Required != 40 || f.RequiredDone() {
			t.Errorf("flag %+v, want fallen at %v with 38 of 40 moves", f, want)
		}
		if g.remaining(White) != 0 {
			t.Errorf("remaining %v after the flag", g.remaining(White))
		}
		if s, ok, unk := g.c.FirstFlag(at(g.now)); s != White || !ok || unk {
			t.Errorf("FirstFlag = %v, %v, %v", s, ok, unk)
		}
		g.move(sec) // the game goes on: moves 39 and 40
		g.move(sec)
		g.move(sec)
		t.Run("no_period_time_after_the_flag", func(t *testing.T) {
			if g.c.Moves(White) != 40 || g.c.Period(White) != 1 || g.remaining(White) != 0 {
				t.Errorf("moves %d period %d remaining %v", g.c.Moves(White), g.c.Period(White), g.remaining(White))
			}
		})
	})

	for _, tc := range []struct {
		name   string
		spec   string
		think  time.Duration
		fallen bool
		after  time.Duration // White's remaining after the press
		flagAt time.Duration // when time ran out, if fallen
	}{
		{"press_one_nanosecond_before_the_flag_is_in_time", "60", min_ - 1, false, 1, 0},
		{"press_at_the_exact_instant_is_late", "60", min_, true, 0, min_},
		{"press_one_nanosecond_after_is_late", "60", min_ + 1, true, 0, min_},
		{"increment_saves_a_press_one_nanosecond_before", "60+2", min_ - 1, false, 2*sec + 1, 0},
		{"no_increment_for_a_press_at_the_flag", "60+2", min_, true, 0, min_},
		{"delay_moves_the_flag_by_D", "60d5", min_ + 5*sec - 1, false, 1, 0},
		{"delay_press_at_R0_plus_D_is_late", "60b5", min_ + 5*sec, true, 0, min_ + 5*sec},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.spec, tc.spec)
			g.move(tc.think)
			f := g.c.Flag(White, at(g.now))
			if f.Fallen != tc.fallen {
				t.Fatalf("fallen = %v, want %v", f.Fallen, tc.fallen)
			}
			if tc.fallen && !f.At.Equal(at(tc.flagAt)) {
				t.Errorf("flag At = %v, want %v", f.At, at(tc.flagAt))
			}
			if got := g.remaining(White); got != tc.after {
				t.Errorf("remaining %v, want %v", got, tc.after)
			}
			if g.c.Moves(White) != 1 {
				t.Errorf("the press did not complete the move")
			}
			if s, ok := g.c.Running(); !ok || s != Black {
				t.Errorf("Black's clock does not run")
			}
		})
	}

	t.Run("Flag_is_a_pure_read_of_the_running_side", func(t *testing.T) {
		g := newGame(t, "60", "60")
		if f := g.c.Flag(White, at(min_-1)); f.Fallen {
			t.Errorf("fallen before the instant: %+v", f)
		}
		f := g.c.Flag(White, at(hour))
		if !f.Fallen || !f.At.Equal(at(min_)) {
			t.Errorf("Flag = %+v, want fallen at %v", f, at(min_))
		}
		if _, ok := g.c.FlagAt(Black); ok {
			t.Error("FlagAt known for a side that is not running and has not fallen")
		}
	})

	t.Run("FirstFlag_is_the_earlier_instant", func(t *testing.T) {
		g := newGame(t, "60", "60")
		g.move(2 * min_) // White falls at 1:00
		g.move(3 * min_) // Black falls later
		if s, ok, unk := g.c.FirstFlag(at(g.now)); s != White || !ok || unk {
			t.Errorf("FirstFlag = %v, %v, %v", s, ok, unk)
		}
		if s, ok, unk := g.c.FirstFlag(at(min_ + 30*sec)); s != White || !ok || unk {
			t.Errorf("FirstFlag read between: %v, %v, %v", s, ok, unk)
		}
	})

	t.Run("no_flag_before_start", func(t *testing.T) {
		c := New(mustParse(t, "60"), mustParse(t, "60"))
		if _, ok, _ := c.FirstFlag(at(hour)); ok {
			t.Error("a flag fell on a clock never started")
		}
	})

	t.Run("untimed_never_flags", func(t *testing.T) {
		g := newGame(t, "-", "?")
		g.move(10 * hour)
		if f := g.c.Flag(White, at(g.now)); f.Fallen {
			t.Error("untimed flag fell")
		}
		if g.c.Used(White, at(g.now)) != 10*hour || g.remaining(White) != 0 {
			t.Errorf("used %v remaining %v", g.c.Used(White, at(g.now)), g.remaining(White))
		}
	})
}

func TestFischer(t *testing.T) {
	t.Run("increment_after_the_move_not_before_move_1", func(t *testing.T) {
		g := newGame(t, "fide-classical", "fide-classical")
		if g.remaining(White) != 90*min_ {
			t.Fatalf("start %v, want 1:30:00", g.remaining(White))
		}
		g.move(0)
		if g.remaining(White) != 90*min_+30*sec {
			t.Errorf("after a 0-second move 1: %v, want 1:30:30", g.remaining(White))
		}
		if txt, _ := g.c.Display(White, at(g.now), DisplayOptions{}); txt != "1:30:30" {
			t.Errorf("display %q", txt)
		}
	})
	t.Run("move_40_adds_increment_and_period_time", func(t *testing.T) {
		g := newGame(t, "fide-classical", "fide-classical")
		for i := 0; i < 40; i++ {
			g.move(min_)
			g.move(min_)
		}
		want := 90*min_ - 40*min_ + 40*30*sec + 30*min_
		if g.remaining(White) != want || g.c.Period(White) != 1 {
			t.Errorf("after move 40: %v period %d, want %v period 1", g.remaining(White), g.c.Period(White), want)
		}
	})
	t.Run("increment_of_the_period_the_move_was_made_in", func(t *testing.T) {
		g := newGame(t, "2/60+10:60+20", "2/60+10:60+20")
		g.move(0) // W1 +10
		g.move(0)
		g.move(0) // W2 +10, then period 2 begins: +60
		g.move(0)
		if g.remaining(White) != 60*sec+20*sec+60*sec {
			t.Errorf("after move 2: %v", g.remaining(White))
		}
		g.move(0) // W3 +20
		if g.remaining(White) != 160*sec {
			t.Errorf("after move 3: %v", g.remaining(White))
		}
	})
}

func TestDelay(t *testing.T) {
	for _, tc := range []struct {
		name  string
		think time.Duration
		after time.Duration
	}{
		{"unused_delay_is_not_banked", 3 * sec, 2 * hour},
		{"time_beyond_the_delay_is_charged", 8 * sec, 2*hour - 3*sec},
		{"exactly_the_delay_costs_nothing", 5 * sec, 2 * hour},
	} {
		for _, spec := range []string{"7200d5", "7200b5"} {
			t.Run(tc.name+"_"+spec, func(t *testing.T) {
				g := newGame(t, spec, spec)
				g.move(tc.think)
				if got := g.remaining(White); got != tc.after {
					t.Errorf("remaining %v, want %v", got, tc.after)
				}
				if got := g.c.Used(White, at(g.now)); got != 2*hour-tc.after {
					t.Errorf("used %v, want %v", got, 2*hour-tc.after)
				}
			})
		}
	}
	t.Run("bronstein_and_simple_differ_only_in_the_display_during_the_delay", func(t *testing.T) {
		for _, tc := range []struct {
			spec string
			t    time.Duration
			text string
		}{
			{"7200b5", 0, "2:00:05"},
			{"7200b5", 2 * sec, "2:00:03"},
			{"7200b5", 8 * sec, "1:59:57"},
			{"7200d5", 0, "2:00:00"},
			{"7200d5", 2 * sec, "2:00:00"},
			{"7200d5", 8 * sec, "1:59:57"},
		} {
			g := newGame(t, tc.spec, tc.spec)
			if txt, _ := g.c.Display(White, at(tc.t), DisplayOptions{}); txt != tc.text {
				t.Errorf("%s at %v: %q, want %q", tc.spec, tc.t, txt, tc.text)
			}
			if want := 2*hour - max(0, tc.t-5*sec); g.c.Remaining(White, at(tc.t)) != want {
				t.Errorf("%s at %v: remaining %v, want %v", tc.spec, tc.t, g.c.Remaining(White, at(tc.t)), want)
			}
		}
	})
	t.Run("6.2_saved_main_time_still_carries_into_the_next_period", func(t *testing.T) {
		g := newGame(t, "2/60d5:60d5", "2/60d5:60d5")
		g.move(10 * sec) // -5
		g.move(0)
		g.move(2 * sec) // -0, period 2 begins
		if got := g.remaining(White); got != 55*sec+60*sec {
			t.Errorf("remaining %v, want 1m55s", got)
		}
	})
	t.Run("flag_instant_is_R0_plus_D_for_both", func(t *testing.T) {
		for _, spec := range []string{"60d5", "60b5"} {
			g := newGame(t, spec, spec)
			if got, _ := g.c.FlagAt(White); !got.Equal(at(65 * sec)) {
				t.Errorf("%s: FlagAt %v", spec, got)
			}
		}
	})
}

func TestPause(t *testing.T) {
	t.Run("6.12_time_does_not_run_while_paused", func(t *testing.T) {
		g := newGame(t, "acm1996", "acm1996")
		g.do(g.c.Pause(at(10 * min_)))
		if _, ok := g.c.Running(); ok {
			t.Fatal("a clock runs after Pause")
		}
		if g.c.Remaining(White, at(time.Hour)) != 110*min_ {
			t.Errorf("time ran during the pause")
		}
		g.do(g.c.Resume(White, at(hour)))
		g.now = hour + 5*min_
		g.do(g.c.Press(White, at(g.now)))
		if g.remaining(White) != 105*min_ || g.c.Used(White, at(g.now)) != 15*min_ {
			t.Errorf("remaining %v used %v", g.remaining(White), g.c.Used(White, at(g.now)))
		}
	})
	t.Run("delay_left_at_the_pause_is_kept", func(t *testing.T) {
		for _, spec := range []string{"7200d5", "7200b5"} {
			g := newGame(t, spec, spec)
			g.do(g.c.Pause(at(3 * sec)))
			g.do(g.c.Resume(White, at(min_)))
			if txt, _ := g.c.Display(White, at(min_), DisplayOptions{}); spec == "7200b5" && txt != "2:00:02" {
				t.Errorf("%s display after resume %q", spec, txt)
			}
			g.now = min_ + 4*sec // 7 s of the turn have run
			g.do(g.c.Press(White, at(g.now)))
			if g.remaining(White) != 2*hour-2*sec {
				t.Errorf("%s: remaining %v, want 1:59:58", spec, g.remaining(White))
			}
		}
	})
	t.Run("resuming_the_other_side_ends_the_turn_without_a_move", func(t *testing.T) {
		g := newGame(t, "300+3", "300+3")
		g.do(g.c.Pause(at(10 * sec)))
		g.do(g.c.Resume(Black, at(min_)))
		if g.c.Moves(White) != 0 || g.c.Remaining(White, at(2*min_)) != 290*sec {
			t.Errorf("White moves %d remaining %v", g.c.Moves(White), g.c.Remaining(White, at(2*min_)))
		}
		if s, _ := g.c.Running(); s != Black || g.c.Remaining(Black, at(2*min_)) != 4*min_ {
			t.Errorf("Black running %v remaining %v", s, g.c.Remaining(Black, at(2*min_)))
		}
	})
	t.Run("refusals", func(t *testing.T) {
		g := newGame(t, "60", "60")
		_, err := g.c.Resume(Black, at(sec))
		wantErr(t, err, CodeCannotResume, CodeRunningPauseFirst)
		wantArgs(t, err, CodeRunningPauseFirst, "White")
		p, _ := g.c.Pause(at(sec))
		_, err = p.Pause(at(2 * sec))
		wantErr(t, err, CodeCannotPause, CodeNoneRunning)
		_, err = New(Control{}, Control{}).Resume(White, t0)
		wantErr(t, err, CodeCannotResume, CodeNotStarted)
		_, err = p.Resume(White, t0)
		wantErr(t, err, CodeCannotResume, CodeRunsBack)
	})
	t.Run("a_flag_during_the_run_is_recorded_at_the_pause", func(t *testing.T) {
		g := newGame(t, "60", "60")
		g.do(g.c.Pause(at(2 * min_)))
		f := g.c.Flag(White, at(2*min_))
		if !f.Fallen || !f.At.Equal(at(min_)) {
			t.Errorf("flag %+v", f)
		}
	})
}

func TestStop(t *testing.T) {
	g := newGame(t, "60", "60")
	g.do(g.c.Stop(at(10 * sec)))
	t.Run("stops_for_good", func(t *testing.T) {
		if _, ok := g.c.Running(); ok || !g.c.Stopped() {
			t.Fatal("still running")
		}
		if g.c.Remaining(White, at(hour)) != 50*sec || g.c.Moves(White) != 0 {
			t.Errorf("remaining %v moves %d", g.c.Remaining(White, at(hour)), g.c.Moves(White))
		}
		_, err := g.c.Resume(White, at(hour))
		wantErr(t, err, CodeCannotResume, CodeStoppedAtEnd)
		_, err = g.c.Pause(at(hour))
		wantErr(t, err, CodeCannotPause, CodeStoppedAtEnd)
		_, err = g.c.Stop(at(hour))
		wantErr(t, err, CodeCannotStop, CodeAlreadyStopped)
	})
	t.Run("corrections_still_allowed", func(t *testing.T) {
		c, err := g.c.SetRemaining(White, 30*sec, at(hour))
		if err != nil || c.Remaining(White, at(2*hour)) != 30*sec {
			t.Errorf("SetRemaining after Stop: %v, %v", c.Remaining(White, at(2*hour)), err)
		}
	})
	t.Run("display_is_frozen", func(t *testing.T) {
		if txt, next := g.c.Display(White, at(hour), DisplayOptions{}); txt != "0:00:50" || !next.IsZero() {
			t.Errorf("%q, %v", txt, next)
		}
	})
}

func TestCorrections(t *testing.T) {
	t.Run("6.13_SetRemaining_rebases_the_running_clock", func(t *testing.T) {
		g := newGame(t, "acm1996", "acm1996")
		g.do(g.c.SetRemaining(White, hour, at(10*min_)))
		if g.c.Remaining(White, at(10*min_)) != hour || g.c.Remaining(White, at(20*min_)) != 50*min_ {
			t.Errorf("remaining %v then %v", g.c.Remaining(White, at(10*min_)), g.c.Remaining(White, at(20*min_)))
		}
		if g.c.Credit(White) != -50*min_ {
			t.Errorf("credit %v, want -50m", g.c.Credit(White))
		}
		if got, _ := g.c.FlagAt(White); !got.Equal(at(70 * min_)) {
			t.Errorf("FlagAt %v", got)
		}
	})
	t.Run("delay_consumed_before_a_correction_stays_consumed", func(t *testing.T) {
		g := newGame(t, "7200d5", "7200d5")
		g.do(g.c.SetRemaining(White, 100*sec, at(3*sec)))
		if g.c.Remaining(White, at(5*sec)) != 100*sec || g.c.Remaining(White, at(7*sec)) != 98*sec {
			t.Errorf("remaining %v then %v", g.c.Remaining(White, at(5*sec)), g.c.Remaining(White, at(7*sec)))
		}
	})
	t.Run("AddTime_bonus_is_credit", func(t *testing.T) {
		g := newGame(t, "acm1996", "acm1996")
		g.do(g.c.AddTime(Black, 5*min_, at(sec)))
		if g.c.Remaining(Black, at(sec)) != 125*min_ || g.c.Credit(Black) != 5*min_ {
			t.Errorf("remaining %v credit %v", g.c.Remaining(Black, at(sec)), g.c.Credit(Black))
		}
		g.do(g.c.AddTime(Black, -2*min_, at(sec)))
		if g.c.Credit(Black) != 3*min_ {
			t.Errorf("credit %v after -2m", g.c.Credit(Black))
		}
	})
	t.Run("refusals", func(t *testing.T) {
		g := newGame(t, "60", "-")
		_, err := g.c.AddTime(Black, -2*min_, at(sec))
		wantErr(t, err, CodeAddUntimed)
		wantArgs(t, err, CodeAddUntimed, "Black", "Black")
		_, err = g.c.AddTime(White, -2*min_, at(sec))
		wantErr(t, err, CodeTakeTooMuch)
		wantArgs(t, err, CodeTakeTooMuch, "2m0s", "White", "59s")
		_, err = g.c.SetRemaining(White, -1, at(sec))
		wantErr(t, err, CodeNegativeTime)
		_, err = g.c.SetMoves(White, -1, at(sec))
		wantErr(t, err, CodeNegativeMoves)
		_, err = g.c.SetPeriod(White, 1, at(sec))
		wantErr(t, err, CodePeriodRange)
		wantArgs(t, err, CodePeriodRange, "White", "1", "White", "0")
		_, err = g.c.SetPeriod(White, -1, at(sec))
		wantErr(t, err, CodePeriodNegative)
		_, err = g.c.SetRemaining(White, 0, at(-sec))
		wantErr(t, err, CodeCannotSetTime, CodeRunsBack)
	})
	t.Run("positive_time_clears_the_flag", func(t *testing.T) {
		g := newGame(t, "60", "60")
		g.now = 2 * min_
		if !g.c.Flag(White, at(g.now)).Fallen {
			t.Fatal("no flag")
		}
		g.do(g.c.AddTime(White, min_, at(g.now)))
		if f := g.c.Flag(White, at(g.now)); f.Fallen || g.remaining(White) != min_ {
			t.Errorf("flag %+v remaining %v", f, g.remaining(White))
		}
		if got, _ := g.c.FlagAt(White); !got.Equal(at(3 * min_)) {
			t.Errorf("new FlagAt %v", got)
		}
	})
	t.Run("zero_time_keeps_the_flag", func(t *testing.T) {
		g := newGame(t, "60", "60")
		g.do(g.c.SetRemaining(White, 0, at(2*min_)))
		if f := g.c.Flag(White, at(2*min_)); !f.Fallen || !f.At.Equal(at(min_)) {
			t.Errorf("flag %+v", f)
		}
	})
	t.Run("SetMoves_sets_the_period_without_time", func(t *testing.T) {
		g := newGame(t, "acm1996", "acm1996")
		g.do(g.c.SetMoves(Black, 45, at(sec)))
		if g.c.Moves(Black) != 45 || g.c.Period(Black) != 1 || g.c.Remaining(Black, at(sec)) != 2*hour {
			t.Errorf("moves %d period %d remaining %v", g.c.Moves(Black), g.c.Period(Black), g.c.Remaining(Black, at(sec)))
		}
		if n, _ := g.c.MovesToControl(Black); n != 15 {
			t.Errorf("MovesToControl %d", n)
		}
	})
	t.Run("SetPeriod_sets_only_the_period", func(t *testing.T) {
		g := newGame(t, "acm1996", "acm1996")
		g.do(g.c.SetPeriod(Black, 2, at(sec)))
		if g.c.Moves(Black) != 0 || g.c.Period(Black) != 2 {
			t.Errorf("moves %d period %d", g.c.Moves(Black), g.c.Period(Black))
		}
		if _, ok := g.c.MovesToControl(Black); ok {
			t.Error("period 3 should be for all moves")
		}
	})
	t.Run("corrections_before_start", func(t *testing.T) {
		c, err := New(mustParse(t, "60"), mustParse(t, "60")).SetRemaining(Black, 2*min_, t0)
		if err != nil || c.Remaining(Black, t0) != 2*min_ {
			t.Errorf("%v %v", c.Remaining(Black, t0), err)
		}
	})
}

func TestBothFlags(t *testing.T) {
	g := newGame(t, "60", "60")
	g.now = 30 * sec
	g.do(g.c.BothFlagsOrderUnknown(at(g.now)))
	t.Run("6.11_order_unknown", func(t *testing.T) {
		if _, ok, unk := g.c.FirstFlag(at(g.now)); !ok || !unk {
			t.Errorf("FirstFlag ok=%v unknown=%v", ok, unk)
		}
		for _, s := range []Side{White, Black} {
			if f := g.c.Flag(s, at(g.now)); !f.Fallen || !f.At.IsZero() || f.Required != 0 {
				t.Errorf("%v flag %+v", s, f)
			}
			if g.c.Remaining(s, at(g.now)) != 0 {
				t.Errorf("%v remaining %v", s, g.c.Remaining(s, at(g.now)))
			}
		}
	})
	t.Run("6.11_the_game_continues", func(t *testing.T) {
		if s, ok := g.c.Running(); !ok || s != White {
			t.Error("the clock stopped")
		}
		g.move(sec)
		if g.c.Moves(White) != 1 || g.remaining(White) != 0 {
			t.Error("press after both flags")
		}
	})
	t.Run("correcting_one_flag_away_leaves_the_other_unclaimable", func(t *testing.T) {
		c, _ := g.c.SetRemaining(White, min_, at(g.now))
		if c.Flag(White, at(g.now)).Fallen {
			t.Error("a correction to 1:00 left White's flag down")
		}
		if f := c.Flag(Black, at(g.now)); !f.Fallen || !f.OrderUnknown {
			t.Errorf("Black's flag %+v: still the 6.11 flag", f)
		}
		if _, ok, unk := c.FirstFlag(at(g.now)); !ok || !unk {
			t.Errorf("FirstFlag ok=%v unknown=%v: a 6.11 flag is never the first claimable one", ok, unk)
		}
	})
	t.Run("refused_before_start", func(t *testing.T) {
		_, err := New(Control{}, Control{}).BothFlagsOrderUnknown(t0)
		wantErr(t, err, CodeBothFlagsNotStarted)
	})
}

func TestFlagInstantAndLatePress(t *testing.T) {
	t.Run("6.3_a_press_at_the_flag_instant_completes_the_move_but_credits_no_period", func(t *testing.T) {
		g := newGame(t, "2/60:1/60:30", "2/60:1/60:30")
		g.move(20 * sec) // W1
		g.move(sec)      // B1
		g.move(40 * sec) // W2 at the flag instant: late
		f := g.c.Flag(White, at(g.now))
		if !f.Fallen || !f.At.Equal(at(61*sec)) || f.Moves != 1 || f.Required != 2 || f.RequiredDone() {
			t.Fatalf("White's flag %+v: want fallen at +61s with 1 of 2 moves", f)
		}
		if g.c.Moves(White) != 2 || g.c.Period(White) != 1 || g.remaining(White) != 0 {
			t.Errorf("after the late press: %d moves, period %d, %v left; want 2, 1, 0 (no hour credited)", g.c.Moves(White), g.c.Period(White), g.remaining(White))
		}
	})
	t.Run("6.11_the_move_completing_the_period_credits_the_next_period", func(t *testing.T) {
		g := newGame(t, "2/60:1/60:30", "2/60:1/60:30")
		g.move(61 * sec) // W1: White's flag at +60
		g.move(62 * sec) // B1: Black's flag at +121
		g.do(g.c.BothFlagsOrderUnknown(at(g.now)))
		for _, s := range []Side{White, Black} {
			if f := g.c.Flag(s, at(g.now)); !f.Fallen || !f.OrderUnknown || f.At.IsZero() {
				t.Errorf("%v's flag %+v: want fallen at its instant, of the 6.11 finding", s, f)
			}
		}
		g.move(5 * sec) // W2 completes period 1
		if f := g.c.Flag(White, at(g.now)); f.Fallen || g.remaining(White) != 60*sec {
			t.Errorf("after move 2: flag %+v, %v left; want no flag and the next period's 1:00", f, g.remaining(White))
		}
		if f := g.c.Flag(Black, at(g.now)); !f.Fallen || !f.OrderUnknown || g.remaining(Black) != 0 {
			t.Errorf("Black before move 2: %+v, %v", f, g.remaining(Black))
		}
		g.move(sec)      // B2
		g.move(61 * sec) // W3 late: a new flag, claimable
		if s, ok, unk := g.c.FirstFlag(at(g.now)); !ok || unk || s != White {
			t.Errorf("FirstFlag %v %v %v: want White's new flag", s, ok, unk)
		}
	})
	t.Run("emt_Ran_counts_the_delay_and_not_the_pause", func(t *testing.T) {
		g := newGame(t, "7200d5", "7200d5")
		g.now = 2 * sec
		g.do(g.c.Pause(at(g.now)))
		g.now += 10 * sec
		g.do(g.c.Resume(White, at(g.now)))
		g.move(sec) // W1: ran 3s, charged 0
		if got := g.c.Ran(White, at(g.now)); got != 3*sec {
			t.Errorf("Ran = %v, want 3s", got)
		}
		if got := g.c.Used(White, at(g.now)); got != 0 {
			t.Errorf("Used = %v, want 0 (within the delay)", got)
		}
	})
}
