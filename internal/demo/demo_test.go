package demo_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/cli"
	"arbiter/internal/demo"
	"arbiter/internal/games"
	"arbiter/match"
	"arbiter/scoresheet"
	"arbiter/store"
)

// pgn1996 is the file internal/games embeds, for Script1996From.
const pgn1996 = "../games/deepblue1996.pgn"

func TestScript1996Text(t *testing.T) {
	a, err := demo.Script1996(demo.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		ok   func() bool
	}{
		{"the same seed gives the same script", func() bool {
			b, _ := demo.Script1996(demo.Options{Seed: 1})
			return a == b
		}},
		{"another seed gives other thinking times", func() bool {
			b, _ := demo.Script1996(demo.Options{Seed: 2})
			return a != b
		}},
		{"the match is created with the computer, its operator and the arbiter", func() bool {
			return strings.Contains(a, `--computer "Deep Blue" --operator "Feng-hsiung Hsu" --arbiter "Mike Valvo"`) &&
				strings.Contains(a, `--white "Deep Blue"`) && strings.Contains(a, "--tc acm1996")
		}},
		{"all six games are started", func() bool { return strings.Count(a, " game start\n") == 6 }},
		{"the computer's moves are entered by the operator and sometimes by its colour", func() bool {
			return strings.Contains(a, "--as operator move") && strings.Contains(a, "--as white move") && strings.Contains(a, "--as black move")
		}},
		{"Kasparov's draw offers are declined by the Deep Blue team", func() bool {
			return strings.Count(a, "--as operator draw decline") == 2
		}},
		{"game 4 logs Deep Blue's system error as a technical fault", func() bool {
			return strings.Contains(a, "--as operator incident technical-fault --text \"Deep Blue's system stopped right after 25.Re4")
		}},
		{"offsets never run back", func() bool {
			last := ""
			for _, l := range strings.Split(a, "\n") {
				if l == "" || l[0] == '#' {
					continue
				}
				off := strings.Fields(l)[0]
				if len(off) < len(last) || (len(off) == len(last) && off < last) {
					t.Logf("%s after %s", off, last)
					return false
				}
				last = off
			}
			return true
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.ok() {
				t.Error("not so")
			}
		})
	}
	t.Run("Games limits the games played but not the games planned", func(t *testing.T) {
		s, err := demo.Script1996(demo.Options{Games: 2})
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(s, " game start\n"); n != 2 || !strings.Contains(s, "--games 6") {
			t.Errorf("%d games started; script head:\n%.400s", n, s)
		}
	})
	t.Run("the same games read from a file give the same script", func(t *testing.T) {
		b, err := demo.Script1996From(pgn1996, demo.Options{Seed: 1})
		if err != nil || b != a {
			t.Errorf("Script1996From: %v, the same script: %v", err, b == a)
		}
	})
	t.Run("a missing PGN is an error naming the file", func(t *testing.T) {
		_, err := demo.Script1996From("no/such.pgn", demo.Options{})
		if err == nil || !strings.Contains(err.Error(), "no/such.pgn") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a negative number of games is refused", func(t *testing.T) {
		if _, err := demo.Script1996(demo.Options{Games: -1}); err == nil {
			t.Error("no error")
		}
	})
}

// TestScript1996Plays runs the whole script through "arbiter play" and checks
// the match it records against the PGN.
func TestScript1996Plays(t *testing.T) {
	s, err := demo.Script1996(demo.Options{Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sp, db := filepath.Join(dir, "demo.txt"), filepath.Join(dir, "demo.db")
	if err := os.WriteFile(sp, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	env := cli.Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }, Now: time.Now}
	if code := cli.Run(context.Background(), []string{"--db", db, "--at", demo.Start.Format(time.RFC3339), "play", sp}, env); code != 0 {
		t.Fatalf("play: exit %d: %s", code, e.String())
	}
	ctx := context.Background()
	sdb, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	app, err := match.New(ctx, sdb)
	if err != nil {
		t.Fatal(err)
	}
	st := app.State()
	ref, err := scoresheet.ReadPGN(strings.NewReader(games.DeepBlue1996()))
	if err != nil {
		t.Fatal(err)
	}
	for i, rg := range ref {
		g := st.Game(i + 1)
		want, _ := rg.Tag("Result")
		t.Run("game "+string(rune('1'+i))+" ends as it did in 1996", func(t *testing.T) {
			if g.Result != want {
				t.Errorf("result %s, want %s", g.Result, want)
			}
			if g.Termination == scoresheet.TermTimeForfeit {
				t.Errorf("a flag fell")
			}
			if g.Sheet.Ply() != len(rg.Moves) || g.Sheet.FEN() != rg.FinalFEN {
				t.Errorf("ply %d FEN %s, want ply %d FEN %s", g.Sheet.Ply(), g.Sheet.FEN(), len(rg.Moves), rg.FinalFEN)
			}
		})
	}
	t.Run("Kasparov wins 4–2", func(t *testing.T) {
		if sc := st.Score(); sc[demo.Human] != 4 || sc[demo.Computer] != 2 {
			t.Errorf("score %v", sc)
		}
	})
	t.Run("the record verifies", func(t *testing.T) {
		if rep, err := sdb.Verify(ctx, ""); err != nil || !rep.OK {
			t.Errorf("verify: %v %+v", err, rep)
		}
	})
}
