package clock

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/internal/games"
	"arbiter/internal/refdata"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

const (
	sec  = time.Second
	min_ = time.Minute
	hour = time.Hour
)

func timed(ps ...Period) Control { return Control{Mode: Timed, Periods: ps} }

func TestSide(t *testing.T) {
	t.Run("Other_swaps_the_sides", func(t *testing.T) {
		if White.Other() != Black || Black.Other() != White {
			t.Errorf("White.Other() = %v, Black.Other() = %v", White.Other(), Black.Other())
		}
	})
	t.Run("String_is_lower_case", func(t *testing.T) {
		if White.String() != "white" || Black.String() != "black" || Side(7).String() != "Side(7)" {
			t.Errorf("got %q %q %q", White, Black, Side(7))
		}
	})
	for _, tc := range []struct {
		in   string
		want Side
		ok   bool
	}{
		{"white", White, true}, {"W", White, true}, {" White ", White, true},
		{"black", Black, true}, {"b", Black, true}, {"BLACK", Black, true},
		{"", 0, false}, {"wh", 0, false}, {"0", 0, false}, {"schwarz", 0, false},
	} {
		t.Run(fmt.Sprintf("ParseSide_%q", tc.in), func(t *testing.T) {
			got, err := ParseSide(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Fatalf("ParseSide(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
			}
			if err != nil {
				wantErr(t, err, CodeNotASide)
				wantArgs(t, err, CodeNotASide, tc.in)
			}
		})
	}
}

func TestMethodString(t *testing.T) {
	for m, want := range map[Method]string{MethodNone: "none", Fischer: "fischer", Bronstein: "bronstein", SimpleDelay: "simple delay", 9: "Method(9)"} {
		if got := m.String(); got != want {
			t.Errorf("Method(%d).String() = %q, want %q", m, got, want)
		}
	}
}

func TestParseTimeControl(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     Control
		str      string // canonical String(); "" = same as in
	}{
		{"unknown_is_question_mark", "?", Control{Mode: Unknown}, ""},
		{"untimed_is_dash", "-", Control{Mode: Untimed}, ""},
		{"acm1996_three_periods", "40/7200:20/3600:1800",
			timed(Period{Moves: 40, Duration: 2 * hour}, Period{Moves: 20, Duration: hour}, Period{Duration: 30 * min_}), ""},
		{"sudden_death", "300", timed(Period{Duration: 5 * min_}), ""},
		{"fischer_increment", "300+3", timed(Period{Duration: 5 * min_, Method: Fischer, PerMove: 3 * sec}), ""},
		{"increment_per_period", "40/5400+30:1800+30",
			timed(Period{Moves: 40, Duration: 90 * min_, Method: Fischer, PerMove: 30 * sec}, Period{Duration: 30 * min_, Method: Fischer, PerMove: 30 * sec}), ""},
		{"increment_only_from_move_61", "40/7200:20/3600:900+30",
			timed(Period{Moves: 40, Duration: 2 * hour}, Period{Moves: 20, Duration: hour}, Period{Duration: 15 * min_, Method: Fischer, PerMove: 30 * sec}), ""},
		{"extension_simple_delay", "7200d5", timed(Period{Duration: 2 * hour, Method: SimpleDelay, PerMove: 5 * sec}), ""},
		{"extension_bronstein_delay", "7200b5", timed(Period{Duration: 2 * hour, Method: Bronstein, PerMove: 5 * sec}), ""},
		{"extension_delay_with_moves", "40/7200d5", timed(Period{Moves: 40, Duration: 2 * hour, Method: SimpleDelay, PerMove: 5 * sec}), ""},
		{"last_period_with_moves_repeats", "40/7200", timed(Period{Moves: 40, Duration: 2 * hour}), ""},
		{"zero_increment_is_none", "180+0", timed(Period{Duration: 3 * min_}), "180"},
		{"zero_delay_is_none", "180d0", timed(Period{Duration: 3 * min_}), "180"},
		{"leading_zeros_are_numbers", "040/07200", timed(Period{Moves: 40, Duration: 2 * hour}), "40/7200"},
		{"surrounding_spaces_ignored", " 60+1 ", timed(Period{Duration: min_, Method: Fischer, PerMove: sec}), "60+1"},
		{"later_period_may_have_no_time", "40/7200:0+30", timed(Period{Moves: 40, Duration: 2 * hour}, Period{Method: Fischer, PerMove: 30 * sec}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTimeControl(tc.in)
			if err != nil {
				t.Fatalf("ParseTimeControl(%q): %v", tc.in, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseTimeControl(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
			want := tc.str
			if want == "" {
				want = tc.in
			}
			if s := got.String(); s != want {
				t.Errorf("String() = %q, want %q", s, want)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestParseTimeControlRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []Code // the refusal within clock-time-control, the outermost first
	}{
		{"empty", "", []Code{CodeEmpty}},
		{"only_spaces", "   ", []Code{CodeEmpty}},
		{"sandclock_is_not_supported", "*180", []Code{CodeSandclock}},
		{"sandclock_in_a_later_period", "40/7200:*60", []Code{CodeSandclock}},
		{"sudden_death_must_be_last", "1800:40/7200", []Code{CodeNothingAfterAll}},
		{"question_mark_stands_alone", "?:300", []Code{CodePeriodMustStandAlone}},
		{"dash_stands_alone", "40/7200:-", []Code{CodePeriodMustStandAlone}},
		{"empty_descriptor", "40/7200::1800", []Code{CodeEmptyPeriod}},
		{"trailing_colon", "40/7200:", []Code{CodeEmptyPeriod}},
		{"zero_moves", "0/7200", []Code{CodeMoveCountZero}},
		{"missing_seconds", "40/", []Code{CodeSecondsBad, CodeMissing}},
		{"missing_increment", "300+", []Code{CodePerMoveBad, CodeMissing}},
		{"letters", "90 minutes", []Code{CodeSecondsBad, CodeNotAWholeNumber}},
		{"negative", "-300", []Code{CodeSecondsBad, CodeNotAWholeNumber}},
		{"plus_sign_number", "40/+7200", []Code{CodeSecondsBad, CodeMissing}},
		{"increment_and_delay", "300+2d5", []Code{CodePerMoveBad, CodeNotAWholeNumber}},
		{"fractional_seconds", "300.5", []Code{CodeSecondsBad, CodeNotAWholeNumber}},
		{"first_period_without_time", "0+5", []Code{CodeFirstNoTime}},
		{"too_large", "99999999999999999999", []Code{CodeSecondsBad, CodeNumberTooLarge}},
		{"free_text_from_a_broadcast", ": 90 minutes for the first 40 moves", []Code{CodeEmptyPeriod}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseTimeControl(tc.in)
			if err == nil {
				t.Fatalf("ParseTimeControl(%q) = %v, want an error", tc.in, c)
			}
			wantErr(t, err, append([]Code{CodeTimeControl}, tc.want...)...)
			if got := fmt.Sprint(refusals(err)[0].Args[0]); got != tc.in {
				t.Errorf("the refusal names the control %q, want %q", got, tc.in)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Control
	}{
		{"timed_without_periods", Control{Mode: Timed}},
		{"untimed_with_periods", Control{Mode: Untimed, Periods: []Period{{Duration: sec}}}},
		{"fractional_seconds", timed(Period{Duration: 1500 * time.Millisecond})},
		{"increment_without_method", timed(Period{Duration: min_, PerMove: sec})},
		{"method_without_increment", timed(Period{Duration: min_, Method: Fischer})},
		{"sudden_death_not_last", timed(Period{Duration: min_}, Period{Moves: 40, Duration: min_})},
		{"bad_mode", Control{Mode: 9}},
	} {
		t.Run("refuses_"+tc.name, func(t *testing.T) {
			if err := tc.c.Validate(); err == nil {
				t.Errorf("Validate(%+v) = nil, want an error", tc.c)
			}
		})
	}
}

func TestReadable(t *testing.T) {
	ins := []string{
		"40/7200:20/3600:1800",
		"40/5400+30:1800+30",
		"900+10",
		"180+2",
		"7200d5",
		"7200b5",
		"40/7200d5:1800d5",
		"40/7200:20/3600:900+30",
		"40/7200",
		"40/7200:20/3600",
		"5430",
		"45+1",
		"-",
		"?",
	}
	var b strings.Builder
	for _, in := range ins {
		c, err := ParseTimeControl(in)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\t%s\n", in, c.Readable())
	}
	t.Run("examples_of_the_brief", func(t *testing.T) {
		for in, want := range map[string]string{
			"40/7200:20/3600:1800": "40/2h, 20/1h, 30m",
			"40/5400+30:1800+30":   "90m/40 + 30m, +30s per move from move 1",
			"7200d5":               "2h, 5s delay (simple)",
			"7200b5":               "2h, 5s delay (Bronstein)",
		} {
			c, _ := ParseTimeControl(in)
			if got := c.Readable(); got != want {
				t.Errorf("%s: Readable() = %q, want %q", in, got, want)
			}
		}
	})
	golden(t, "readable.golden", b.String())
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update to accept):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestPresets(t *testing.T) {
	want := map[string]string{
		"acm1996":        "40/7200:20/3600:1800",
		"fide-classical": "40/5400+30:1800+30",
		"rapid":          "900+10",
		"blitz":          "180+2",
	}
	ps := Presets()
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
		t.Run(p.Name+"_has_the_agreed_control", func(t *testing.T) {
			if got := p.Control.String(); got != want[p.Name] {
				t.Errorf("%s = %q, want %q", p.Name, got, want[p.Name])
			}
			if p.Description == "" {
				t.Error("no description")
			}
			parsed, err := ParseSpec(p.Name)
			if err != nil || !reflect.DeepEqual(parsed, p.Control) {
				t.Errorf("ParseSpec(%q) = %v, %v", p.Name, parsed, err)
			}
		})
	}
	t.Run("order_is_stable", func(t *testing.T) {
		if got := strings.Join(names, ","); got != "acm1996,fide-classical,rapid,blitz" {
			t.Errorf("order %s", got)
		}
	})
	t.Run("each_call_returns_fresh_values", func(t *testing.T) {
		ps[0].Control.Periods[0].Duration = 0
		if Presets()[0].Control.Periods[0].Duration != 2*hour {
			t.Error("mutating a returned preset changed the next call's result")
		}
	})
}

func TestParseSpec(t *testing.T) {
	t.Run("preset_names_ignore_case", func(t *testing.T) {
		if c, err := ParseSpec(" ACM1996 "); err != nil || c.String() != "40/7200:20/3600:1800" {
			t.Errorf("got %v, %v", c, err)
		}
	})
	t.Run("otherwise_a_time_control", func(t *testing.T) {
		if c, err := ParseSpec("300+3"); err != nil || c.String() != "300+3" {
			t.Errorf("got %v, %v", c, err)
		}
	})
	t.Run("error_names_the_presets", func(t *testing.T) {
		_, err := ParseSpec("classical")
		wantErr(t, err, CodeNotAPreset)
		wantArgs(t, err, CodeNotAPreset, "classical", "acm1996, fide-classical, rapid, blitz")
	})
}

func TestPeriodArithmetic(t *testing.T) {
	acm, _ := ParseTimeControl("40/7200:20/3600:1800")
	fide, _ := ParseTimeControl("40/5400+30:1800+30")
	rep, _ := ParseTimeControl("40/7200:20/3600")
	mixed, _ := ParseTimeControl("2/60+10:60+20")
	for _, tc := range []struct {
		name      string
		c         Control
		moves     int
		period    int
		allotment time.Duration
	}{
		{"acm_start", acm, 0, 0, 2 * hour},
		{"acm_move_39_still_period_1", acm, 39, 0, 2 * hour},
		{"acm_move_40_begins_period_2", acm, 40, 1, 3 * hour},
		{"acm_move_59_still_period_2", acm, 59, 1, 3 * hour},
		{"acm_move_60_begins_period_3", acm, 60, 2, 3*hour + 30*min_},
		{"acm_move_200_still_period_3", acm, 200, 2, 3*hour + 30*min_},
		{"fide_increments_from_move_1", fide, 1, 0, 90*min_ + 30*sec},
		{"fide_move_40", fide, 40, 1, 120*min_ + 40*30*sec},
		{"fide_move_41", fide, 41, 1, 120*min_ + 41*30*sec},
		{"repeating_last_period_move_80", rep, 80, 3, 5 * hour},
		{"repeating_last_period_move_100", rep, 100, 4, 6 * hour},
		{"repeating_last_period_move_79", rep, 79, 2, 4 * hour},
		{"increment_of_the_period_the_move_was_made_in", mixed, 3, 1, 2*min_ + 2*10*sec + 20*sec},
		{"untimed_has_no_allotment", Control{Mode: Untimed}, 10, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.PeriodFor(tc.moves); got != tc.period {
				t.Errorf("PeriodFor(%d) = %d, want %d", tc.moves, got, tc.period)
			}
			if got := tc.c.Allotment(tc.moves); got != tc.allotment {
				t.Errorf("Allotment(%d) = %v, want %v", tc.moves, got, tc.allotment)
			}
		})
	}
	t.Run("MovesThrough_is_cumulative_and_0_for_all_moves", func(t *testing.T) {
		for i, want := range []int{40, 60, 0, 0} {
			if got := acm.MovesThrough(i); got != want {
				t.Errorf("acm MovesThrough(%d) = %d, want %d", i, got, want)
			}
		}
		for i, want := range []int{40, 60, 80, 100} {
			if got := rep.MovesThrough(i); got != want {
				t.Errorf("repeating MovesThrough(%d) = %d, want %d", i, got, want)
			}
		}
	})
	t.Run("PeriodAt_repeats_the_last", func(t *testing.T) {
		if acm.PeriodAt(7) != acm.Periods[2] || (Control{}).PeriodAt(0) != (Period{}) {
			t.Error("PeriodAt beyond the list")
		}
	})
	t.Run("PeriodFor_agrees_with_MovesThrough", func(t *testing.T) {
		for _, c := range []Control{acm, fide, rep, mixed} {
			for m := 0; m < 300; m++ {
				p := c.PeriodFor(m)
				if mt := c.MovesThrough(p); mt != 0 && m >= mt {
					t.Fatalf("%v: PeriodFor(%d) = %d but that period ends at move %d", c, m, p, mt)
				}
				if p > 0 && m < c.MovesThrough(p-1) {
					t.Fatalf("%v: PeriodFor(%d) = %d but the previous period ends at move %d", c, m, p, c.MovesThrough(p-1))
				}
			}
		}
	})
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"?", "-", "40/7200:20/3600:1800", "40/5400+30:1800+30", "300+3", "7200d5", "40/7200b5",
		"*180", "", ":", "1800:40/7200", "0/1", "40/", "+", "d", "b5", "99999999999", "300+0", " 60 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseTimeControl(s)
		if err != nil {
			if ErrorCode(err) != CodeTimeControl {
				t.Fatalf("refusal %q is not the clock's time-control refusal (%s)", err, CodeTimeControl)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("ParseTimeControl(%q) = %+v, which Validate refuses: %v", s, c, err)
		}
		again, err := ParseTimeControl(c.String())
		if err != nil {
			t.Fatalf("ParseTimeControl(%q).String() = %q, which does not parse: %v", s, c.String(), err)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip of %q: %+v, then %+v", s, c, again)
		}
		_ = c.Readable()
	})
}

// TestRealData parses the TimeControl tags of real PGN files: the project's
// own scores of the Deep Blue matches, its broadcast fixture with a
// free-text tag, and (with REFERENCE_DATA) the organisers' broadcast PGN.
func TestRealData(t *testing.T) {
	re := regexp.MustCompile(`^\[TimeControl "(.*)"\]`)
	for _, tc := range []struct {
		name string
		pgn  func(t *testing.T) string
		want string // "" = must be refused
	}{
		{"the 1996 match (internal/games)", func(*testing.T) string { return games.DeepBlue1996() }, "40/7200:20/3600:1800"},
		{"the 1997 match (internal/games)", func(*testing.T) string { return games.DeepBlue1997() }, "40/7200:20/3600:1800"},
		{"a broadcast with a free-text tag (scoresheet/testdata/pgn-edge/broadcast-clk.pgn)", func(t *testing.T) string {
			return readFile(t, filepath.Join("..", "scoresheet", "testdata", "pgn-edge", "broadcast-clk.pgn"))
		}, ""},
		{"the organisers' broadcast (reference clk-samples.pgn)", func(t *testing.T) string {
			return readFile(t, refdata.Need(t, "clk-samples.pgn"))
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			sc := bufio.NewScanner(strings.NewReader(tc.pgn(t)))
			for sc.Scan() {
				m := re.FindStringSubmatch(strings.TrimSpace(sc.Text()))
				if m == nil {
					continue
				}
				n++
				c, err := ParseTimeControl(m[1])
				switch {
				case tc.want == "" && err == nil:
					t.Errorf("free-text tag %q parsed as %v", m[1], c)
				case tc.want != "" && (err != nil || c.String() != tc.want):
					t.Errorf("%q: got %v, %v; want %s", m[1], c, err, tc.want)
				case tc.want == "40/7200:20/3600:1800" && c.Readable() != "40/2h, 20/1h, 30m":
					t.Errorf("Readable %q", c.Readable())
				}
			}
			if n == 0 {
				t.Error("no TimeControl tags found")
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzParseSpec: ParseSpec never panics, accepts only valid controls, and
// refuses a word that is not a preset as "not a preset".
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"acm1996", "Blitz", "blitzz", "classical", "40/7200:20/3600:1800", "Nobody=300", "", "-", "?", "fide-classical", " rapid "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseSpec(s)
		if err == nil {
			if verr := c.Validate(); verr != nil {
				t.Fatalf("ParseSpec(%q) accepted an invalid control: %v", s, verr)
			}
			return
		}
		if word(strings.ToLower(strings.TrimSpace(s))) && ErrorCode(err) != CodeNotAPreset {
			t.Fatalf("ParseSpec(%q): %v; want a refusal as not a preset", s, err)
		}
	})
}
