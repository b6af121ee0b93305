package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The formatters of durations, one per quantity; every face and report
// writes durations with these (docs/clock.md, "Writing durations").

// FormatReading writes a clock reading or a correction exactly, as H:MM:SS
// with milliseconds when it has any ("1:05:00", "0:04:59.250"); negative
// durations get a minus sign. The record's texts, refusals and the command
// line use it.
func FormatReading(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	sec := (d % time.Minute) / time.Second
	ms := (d % time.Second) / time.Millisecond
	if ms != 0 {
		return fmt.Sprintf("%s%d:%02d:%02d.%03d", sign, h, m, sec, ms)
	}
	return fmt.Sprintf("%s%d:%02d:%02d", sign, h, m, sec)
}

// FormatExact writes a clock reading to the nanosecond, as H:MM:SS with
// as many decimals as it has ("1:59:30", "0:04:59.5", "0:00:00.000000001"),
// so that reading it back (match.ParseClockReading) gives the same
// duration; negative durations get a minus sign.
func FormatExact(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	s := sign + FormatShown(d)
	if ns := d % time.Second; ns != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%09d", int64(ns)), "0")
	}
	return s
}

// FormatMillis writes a duration as H:MM:SS.fff, always with milliseconds
// ("0:00:05.000"): the offsets of a script ('arbiter play').
func FormatMillis(d time.Duration) string {
	ms := int64(d / time.Millisecond)
	return fmt.Sprintf("%d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// FormatCorrection writes a clock correction with its sign, "+0:05:00" or
// "−0:00:30" (a minus sign, U+2212), as the record's effects say it.
func FormatCorrection(d time.Duration) string {
	if d < 0 {
		return "−" + FormatReading(-d)
	}
	return "+" + FormatReading(d)
}

// FormatRounded writes a duration rounded to the second as Go writes it
// ("20m0s", "1h5m3s"): how long a console was away or a machine slept, in
// the notes the record keeps.
func FormatRounded(d time.Duration) string { return d.Round(time.Second).String() }

// FormatSpan writes a period of a time control in words whose units a
// face gives: "2 h", "1 h 30 min", "30 s" (hours, minutes, seconds: the
// unit words, e.g. "h", "min", "s"); zero is "0 s".
func FormatSpan(d time.Duration, hours, minutes, seconds string) string {
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	var parts []string
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", h, hours))
	}
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", m, minutes))
	}
	if s > 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%d %s", s, seconds))
	}
	return strings.Join(parts, " ")
}

// FormatShown writes a clock as a clock face or a PGN [%clk] shows it:
// H:MM:SS rounded down to whole seconds, and 0:00:00 for a negative
// duration.
func FormatShown(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// FormatUsed writes the time a move used, in whole seconds: "0:42",
// "12:05", "1:02:03" (H:MM:SS from an hour); 0:00 for a negative duration.
func FormatUsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// FormatHoursMinutes writes a duration in whole minutes as H:MM, as the
// axis of a time chart is labelled: "2:00", "1:30", "0:05".
func FormatHoursMinutes(d time.Duration) string {
	m := int(d / time.Minute)
	return fmt.Sprintf("%d:%02d", m/60, m%60)
}

// FormatLength writes the length of a period or an increment of a time
// control: whole hours as "2h", whole minutes as "90m", and anything else
// as "1m30s" or "45s" (with a fraction of a second, as Go writes it).
func FormatLength(d time.Duration) string {
	s := int64(d / time.Second)
	switch {
	case d%time.Second != 0:
		return d.String()
	case s == 0:
		return "0s"
	case s%3600 == 0:
		return strconv.FormatInt(s/3600, 10) + "h"
	case s%60 == 0:
		return strconv.FormatInt(s/60, 10) + "m"
	case s > 60:
		return strconv.FormatInt(s/60, 10) + "m" + strconv.FormatInt(s%60, 10) + "s"
	}
	return strconv.FormatInt(s, 10) + "s"
}
