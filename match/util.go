package match

import (
	"strconv"
	"strings"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/internal/phrase"
)

func itoa(n int) string { return strconv.Itoa(n) }

func sideOfColor(c chess.Color) clock.Side {
	if c == chess.Black {
		return clock.Black
	}
	return clock.White
}

// colour is Colour as a word a refusal's translation translates.
func colour(s clock.Side) phrase.Word { return phrase.Word(Colour(s)) }

// Colour names a side with a capital letter, as in "White's clock".
func Colour(s clock.Side) string {
	if s == clock.Black {
		return "Black"
	}
	return "White"
}

// ParseClockReading reads H:MM:SS[.fff] (also MM:SS) as a duration.
func ParseClockReading(s string) (time.Duration, error) {
	bad := phrase.Errorf("%q is not a clock reading: write H:MM:SS, e.g. 1:59:30 or 0:04:59.5", s)
	parts := strings.Split(strings.TrimSpace(s), ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, bad
	}
	if len(parts) == 2 {
		parts = append([]string{"0"}, parts...)
	}
	h, err := strconv.Atoi(parts[0])
	if err != nil || h < 0 || h > 99 {
		return 0, bad
	}
	m, err := strconv.Atoi(parts[1])
	if err != nil || m < 0 || m > 59 || len(parts[1]) != 2 {
		return 0, bad
	}
	secPart := parts[2]
	frac := ""
	if i := strings.IndexByte(secPart, '.'); i >= 0 {
		secPart, frac = secPart[:i], secPart[i+1:]
		if frac == "" || len(frac) > 9 {
			return 0, bad
		}
	}
	sec, err := strconv.Atoi(secPart)
	if err != nil || sec < 0 || sec > 59 || len(secPart) != 2 {
		return 0, bad
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second
	if frac != "" {
		for _, r := range frac {
			if r < '0' || r > '9' {
				return 0, bad
			}
		}
		ns, _ := strconv.Atoi((frac + "000000000")[:9])
		d += time.Duration(ns)
	}
	return d, nil
}

// ParseDuration reads a duration like 5m, 1m30s, 90s, 1h (Go syntax, no
// sign, at most 24 hours).
func ParseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		return 0, phrase.Errorf("%q is not a duration: write e.g. 5m, 1m30s or 90s", s)
	}
	if d > 24*time.Hour {
		return 0, phrase.Errorf("%s is more than 24 hours: no clock correction is that large", s)
	}
	return d, nil
}

func colorOf(s clock.Side) chess.Color {
	if s == clock.Black {
		return chess.Black
	}
	return chess.White
}

// waitFor says how long to wait until an instant d after now is past (a
// limit of Article 6.6 is "more than"): below a second in milliseconds,
// rounded up ("1 ms" at the limit itself, where "0:00:00" was said), else
// as a clock reading rounded up to the second.
func waitFor(d time.Duration) any {
	if ms := max((d+time.Millisecond-1)/time.Millisecond, 1); ms < 1000 {
		return phrase.Errorf("%d ms", int(ms))
	}
	return clock.FormatReading((d + time.Second - 1).Truncate(time.Second))
}
