package clock

import (
	"testing"
	"time"
)

func TestEachQuantityHasOneFormatter(t *testing.T) {
	const h, m, s, ms = time.Hour, time.Minute, time.Second, time.Millisecond
	for _, tc := range []struct {
		name   string
		format func(time.Duration) string
		d      time.Duration
		want   string
	}{
		{"a reading is H:MM:SS", FormatReading, h + 5*m, "1:05:00"},
		{"a reading keeps its milliseconds", FormatReading, 4*m + 59*s + 250*ms, "0:04:59.250"},
		{"a negative reading has a minus sign", FormatReading, -(5*s + 500*ms), "-0:00:05.500"},
		{"an exact reading of whole seconds", FormatExact, h + 59*m + 30*s, "1:59:30"},
		{"an exact reading keeps as many decimals as it has", FormatExact, 4*m + 59*s + 500*ms, "0:04:59.5"},
		{"an exact reading keeps nanoseconds", FormatExact, s + 1, "0:00:01.000000001"},
		{"a negative exact reading has a minus sign", FormatExact, -(5*s + 250*ms), "-0:00:05.25"},
		{"a script offset always has milliseconds", FormatMillis, h + 5*s, "1:00:05.000"},
		{"a correction has its sign", FormatCorrection, 5 * m, "+0:05:00"},
		{"a negative correction has a minus sign", FormatCorrection, -30 * s, "−0:00:30"},
		{"a time away is rounded to the second as Go writes it", FormatRounded, 20*m + 400*ms, "20m0s"},
		{"a span names its units", func(d time.Duration) string { return FormatSpan(d, "h", "min", "s") }, h + 30*m, "1 h 30 min"},
		{"a span of nothing is zero seconds", func(d time.Duration) string { return FormatSpan(d, "Std.", "Min.", "s") }, 0, "0 s"},
		{"a shown clock is zero", FormatShown, 0, "0:00:00"},
		{"a shown clock rounds fractions down", FormatShown, 59*s + 999*ms, "0:00:59"},
		{"a shown clock does not pad hours", FormatShown, 2*h + 5*m + 3*s, "2:05:03"},
		{"a shown clock is never negative", FormatShown, -5 * s, "0:00:00"},
		{"time used under an hour is M:SS", FormatUsed, 42*s + 900*ms, "0:42"},
		{"time used of minutes", FormatUsed, 12*m + 5*s, "12:05"},
		{"time used from an hour is H:MM:SS", FormatUsed, h + 2*m + 3*s, "1:02:03"},
		{"time used is never negative", FormatUsed, -s, "0:00"},
		{"an axis label is H:MM", FormatHoursMinutes, 90 * m, "1:30"},
		{"an axis label of minutes", FormatHoursMinutes, 5*m + 30*s, "0:05"},
		{"a length of whole hours", FormatLength, 2 * h, "2h"},
		{"a length of whole minutes", FormatLength, 90 * m, "90m"},
		{"a length of minutes and seconds", FormatLength, 90 * s, "1m30s"},
		{"a length of seconds", FormatLength, 45 * s, "45s"},
		{"a length of nothing", FormatLength, 0, "0s"},
		{"a length with a fraction as Go writes it", FormatLength, 1500 * ms, "1.5s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.format(tc.d); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
