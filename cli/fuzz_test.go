package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// shellQuote writes w as one single-quoted shell word.
func shellQuote(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// FuzzSplitLine checks the script-line splitter: it never panics, and the
// words it returns, quoted again, split back into the same words.
func FuzzSplitLine(f *testing.F) {
	for _, s := range []string{
		`0:00:00 match new --title "ACM Chess Challenge" --player 'Garry Kasparov'`,
		`0:01:05 --as operator move e4`,
		`a\ b "c\"d" 'e''f' \$x`,
		`"unterminated`, `'also`, `ends\`, "\t\r  ", `""`, `"\\\$\` + "`" + `"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := splitLine(line)
		if err != nil {
			if words != nil {
				t.Errorf("splitLine(%q) returned words and an error", line)
			}
			return
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = shellQuote(w)
		}
		again, err := splitLine(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("re-quoted words of %q do not split: %v", line, err)
		}
		if fmt.Sprintf("%q", again) != fmt.Sprintf("%q", words) {
			t.Errorf("splitLine(%q) = %q; quoted again it splits into %q", line, words, again)
		}
	})
}

// FuzzParseOffset checks the script offset reader: it never panics, an
// H:MM:SS[.fff] offset never lies before the start and is at most 1000 h
// after it, and the offset written back canonically reads the same.
func FuzzParseOffset(f *testing.F) {
	for _, s := range []string{"0:00:00", "1:02:03.5", "999:59:59.999999999", "1000:00:00", "0:0:0", "0:00:60",
		"-1:00:00", "0:00:00.", "1996-02-10T20:00:00Z", "1996-02-10T15:00:00.250-05:00", "T", "::", "0:00:00.1e3"} {
		f.Add(s)
	}
	start := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseOffset(s, start)
		if err != nil {
			if !strings.Contains(err.Error(), "not") {
				t.Errorf("parseOffset(%q) error %q does not say what is wrong", s, err)
			}
			return
		}
		if strings.Contains(s, "T") {
			return // an RFC 3339 instant: checked by time.Parse
		}
		d := got.Sub(start)
		if d < 0 || d > 1001*time.Hour {
			t.Fatalf("parseOffset(%q) = start%+v, outside [0, 1001h]", s, d)
		}
		canon := fmt.Sprintf("%d:%02d:%02d.%09d", d/time.Hour, d/time.Minute%60, d/time.Second%60, d%time.Second)
		again, err := parseOffset(canon, start)
		if err != nil || !again.Equal(got) {
			t.Errorf("parseOffset(%q) = %v; its canonical form %q reads %v, %v", s, got, canon, again, err)
		}
	})
}
