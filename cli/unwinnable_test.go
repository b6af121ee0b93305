package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func runUnwinnableCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	db := filepath.Join(t.TempDir(), "none.db")
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Now: func() time.Time { return start }}
	code := Run(context.Background(), append([]string{"--db", db, "unwinnable"}, args...), env)
	if _, err := os.Stat(db); err == nil {
		t.Errorf("arbiter unwinnable created the database %s; it needs none", db)
	}
	return out.String(), errb.String(), code
}

func TestUnwinnableCommandWritesOneLinePerPositionInInputOrder(t *testing.T) {
	in := "# comment\n\n" +
		"8/8/8/8/1N6/2N5/2K5/kN1N4 w - -\twhite\n" +
		"7k/8/6K1/8/8/8/8/R7 w - - 0 1 white\n" +
		"8/8/8/8/8/8/8/k1K5 w - - 0 1\tblack\n"
	out, errs, code := runUnwinnableCmd(t, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := [][3]string{
		{"unwinnable", "8/8/8/8/1N6/2N5/2K5/kN1N4 w - -", "white"},
		{"winnable", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "white"},
		{"unwinnable", "8/8/8/8/8/8/8/k1K5 w - - 0 1", "black"},
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 4 || f[0] != want[i][0] || f[1] != want[i][1] || f[2] != want[i][2] || f[3] == "" {
			t.Errorf("line %d = %q, want %v and a proof", i+1, l, want[i])
		}
	}
	if f := strings.Split(lines[1], "\t"); f[3] != "a1a8" {
		t.Errorf("the helpmate is %q, want a1a8", f[3])
	}
}

func TestUnwinnableCommandMarksAMalformedLineAndExitsOneAtTheEnd(t *testing.T) {
	in := "8/8/8 w - - white\n7k/8/6K1/8/8/8/8/R7 w - - 0 1 green\n7k/8/6K1/8/8/8/8/R7 w - - 0 1 white\nnoking/8/8/8/8/8/8/8 w - - white\n"
	out, errs, code := runUnwinnableCmd(t, in)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	verdicts := []string{}
	for _, l := range lines {
		verdicts = append(verdicts, strings.Split(l, "\t")[0])
	}
	if strings.Join(verdicts, " ") != "error error winnable error" {
		t.Errorf("verdicts %v, want error error winnable error:\n%s", verdicts, out)
	}
	if !strings.Contains(errs, "3 of 4 input lines were malformed") {
		t.Errorf("stderr %q does not count the malformed lines", errs)
	}
}

// Without --short the helpmate is the line the search found (any helpmate
// proves the verdict); --short makes it short for a person to read: from
// the initial position Black's fool's mate.
func TestUnwinnableCommandShortensTheHelpmateOnlyWithShort(t *testing.T) {
	const in = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 black\n"
	for _, tc := range []struct {
		args      []string
		maxPlies  int
		wantExact bool
	}{{nil, 1000, false}, {[]string{"--short"}, 4, true}} {
		t.Run(strings.Join(append([]string{"unwinnable"}, tc.args...), " "), func(t *testing.T) {
			out, errs, code := runUnwinnableCmd(t, in, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			f := strings.Split(strings.TrimSuffix(out, "\n"), "\t")
			if len(f) != 4 || f[0] != "winnable" {
				t.Fatalf("line %q, want a winnable verdict", out)
			}
			n := len(strings.Fields(f[3]))
			if n == 0 || n > tc.maxPlies || tc.wantExact && n != tc.maxPlies {
				t.Errorf("the helpmate %q has %d plies, want at most %d (exactly: %v)", f[3], n, tc.maxPlies, tc.wantExact)
			}
			if tc.wantExact && !strings.HasSuffix(f[3], " d8h4") {
				t.Errorf("the helpmate %q is not a fool's mate", f[3])
			}
		})
	}
}

func TestUnwinnableCommandRefusesABadLimit(t *testing.T) {
	if _, errs, code := runUnwinnableCmd(t, "", "--limit", "zero"); code != 1 || !strings.Contains(errs, "not a whole number") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}
