package match_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/cli"
	"arbiter/clock"
	"arbiter/match"
)

// The scripts of issue 5's "Done when", run by 'arbiter play' and checked
// from the match record with 'arbiter status --json'.

const scriptStart = "1996-02-10T14:00:00Z"

const scriptHeader = `# the 1996 match: Kasparov has White in game 1
0:00:00 match new --title "ACM Chess Challenge" --player "Garry Kasparov" --player "Deep Blue" --computer "Deep Blue" --operator "Feng-hsiung Hsu" --white "Garry Kasparov" --tc acm1996
1:00:00 game start
`

// shuffleScript writes n moves a side from game start at 1:00:00, White
// taking w and Black b per move; Black's moves are relayed by the operator.
func shuffleScript(n int, w, b time.Duration) (string, time.Duration) {
	var s strings.Builder
	at := time.Hour
	for i := 1; i <= n; i++ {
		wm, bm := "Nf3", "Nf6"
		if i%2 == 0 {
			wm, bm = "Ng1", "Ng8"
		}
		at += w
		fmt.Fprintf(&s, "%s move %s\n", offset(at), wm)
		at += b
		fmt.Fprintf(&s, "%s --as operator move %s\n", offset(at), bm)
	}
	return s.String(), at
}

func offset(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
}

type runResult struct {
	code           int
	stdout, stderr string
}

func arbiter(t *testing.T, db string, at time.Duration, argv ...string) runResult {
	t.Helper()
	start, _ := time.Parse(time.RFC3339, scriptStart)
	var out, errb bytes.Buffer
	// The machine's clock reads the command's instant (it is given as it
	// happens); a script is played once all its lines have happened.
	now := start.Add(at)
	if len(argv) > 0 && argv[0] == "play" {
		now = start.Add(30 * 24 * time.Hour)
	}
	env := cli.Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}
	full := append([]string{"--db", db, "--at", start.Add(at).Format(time.RFC3339Nano)}, argv...)
	code := cli.Run(context.Background(), full, env)
	return runResult{code, out.String(), errb.String()}
}

func play(t *testing.T, db, script string) runResult {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.txt")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return arbiter(t, db, 0, "play", path)
}

func mustPlay(t *testing.T, db, script string) {
	t.Helper()
	if r := play(t, db, script); r.code != 0 {
		t.Fatalf("play failed: %s", r.stderr)
	}
}

func status(t *testing.T, db string, at time.Duration) match.Status {
	t.Helper()
	r := arbiter(t, db, at, "status", "--json")
	if r.code != 0 {
		t.Fatalf("status: %s", r.stderr)
	}
	var s match.Status
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func clockOf(s match.Status, white bool) string {
	c := s.Game.Clock.Black
	if white {
		c = s.Game.Clock.White
	}
	return clock.FormatReading(time.Duration(c.RemainingMS) * time.Millisecond)
}

func TestScriptOperatorErrorFoundTenMovesLater(t *testing.T) {
	moves, end := shuffleScript(40, 2*time.Minute, time.Minute)
	disc := end + time.Minute
	tests := []struct {
		method, args string
		white, black string // after the replayed 31st move, 4 minutes after resume
	}{
		{"record", "", "0:59:00", "1:30:00"},
		{"proportional", "", "0:58:13.500", "1:30:00"},
		{"keep", "", "1:40:00", "2:20:00"},
		{"set", " --white 0:45:00 --black 1:10:00", "0:46:00", "1:10:00"},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			script := scriptHeader + moves +
				fmt.Sprintf("%s correct --ply 61 --method %s%s --reason \"the operator relayed 31. Nf3 wrongly\"\n", offset(disc), tt.method, tt.args) +
				fmt.Sprintf("%s resume\n", offset(disc+time.Minute)) +
				fmt.Sprintf("%s move Nf3\n", offset(disc+5*time.Minute))
			mustPlay(t, db, script)
			s := status(t, db, disc+5*time.Minute)
			if s.Game.Ply != 61 || s.Game.ToMove != "black" {
				t.Errorf("ply %d, %s to move", s.Game.Ply, s.Game.ToMove)
			}
			if w, b := clockOf(s, true), clockOf(s, false); w != tt.white || b != tt.black {
				t.Errorf("clocks White %s, Black %s; want %s, %s", w, b, tt.white, tt.black)
			}
		})
	}
	t.Run("preview", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "m.db")
		mustPlay(t, db, scriptHeader+moves)
		r := arbiter(t, db, disc, "correct", "--ply", "61", "--preview")
		if r.code != 0 {
			t.Fatal(r.stderr)
		}
		goldenFile(t, "correct_preview.golden", r.stdout)
	})
}

func TestScriptMaintenance(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustPlay(t, db, scriptHeader+`1:03:00 move e4
1:04:00 --as operator incident maintenance --in-hall --text "a node board is replaced in the hall"
`)
	s := status(t, db, 64*time.Minute)
	if w := clockOf(s, true); w != "2:02:00" {
		t.Errorf("Kasparov after in-hall maintenance on Deep Blue's turn: %s, want 1:57:00 + 5:00 = 2:02:00", w)
	}
	arbiter(t, db, 65*time.Minute, "--as", "operator", "move", "e5")
	r := arbiter(t, db, 66*time.Minute, "--as", "operator", "incident", "maintenance", "--in-hall", "--text", "again")
	if r.code == 0 || !strings.Contains(r.stderr, "Rule 13") {
		t.Errorf("maintenance on Kasparov's turn: exit %d, %q; want a refusal citing rule 13", r.code, r.stderr)
	}
}

func TestScriptFlags(t *testing.T) {
	t.Run("period_1_loss", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "m.db")
		moves, end := shuffleScript(10, time.Minute, time.Minute)
		mustPlay(t, db, scriptHeader+moves+fmt.Sprintf("%s --as black flag white\n", offset(end+110*time.Minute+time.Second)))
		s := status(t, db, end+2*time.Hour)
		if s.Game.Result != "0-1" || s.Game.Termination != "time forfeit" {
			t.Errorf("result %s (%s), want 0-1 on time", s.Game.Result, s.Game.Termination)
		}
	})
	// issue 13, "Why" 1, as a script: move 40 pressed at the flag instant
	// (+39 × 181 s + 180 s after the start), the claim after Black's move 40
	t.Run("6.3_move_40_at_the_flag_instant_then_a_claim_loses", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "m.db")
		moves, end := shuffleScript(39, 180*time.Second, time.Second)
		fell := end + 180*time.Second
		moves += fmt.Sprintf("%s move Ng1\n%s --as operator move Ng8\n", offset(fell), offset(fell+time.Second))
		mustPlay(t, db, scriptHeader+moves)
		s := status(t, db, fell+2*time.Second)
		start, _ := time.Parse(time.RFC3339, scriptStart)
		f, _ := s.Game.Clock.White.Flag.(map[string]any)
		if f == nil || f["required_done"] != false || f["at"] != start.Add(fell).Format(time.RFC3339Nano) || s.Game.Clock.White.RemainingMS != 0 {
			t.Errorf("White's flag %v, %d ms: want fallen at %s, required moves not done, 0 ms", s.Game.Clock.White.Flag, s.Game.Clock.White.RemainingMS, offset(fell))
		}
		if r := arbiter(t, db, fell+5*time.Second, "--as", "operator", "flag", "white"); r.code != 0 {
			t.Fatalf("flag white: %s", r.stderr)
		}
		s = status(t, db, fell+6*time.Second)
		if s.Game.Result != "0-1" || s.Game.Termination != "time forfeit" {
			t.Errorf("result %s (%s), want 0-1 on time", s.Game.Result, s.Game.Termination)
		}
	})
	t.Run("bare_king_draw", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "m.db")
		var s strings.Builder
		at := time.Hour
		for i, mv := range strings.Fields("e2e4 b8a6 f1a6 h7h6 a6b7 c7c5 b7a8 c8b7 a8b7 d7d5 b7d5 d8b8 d5f7 e8d7 f7g8 c5c4 " +
			"g8c4 b8b3 c2b3 h6h5 d1h5 h8h7 h5h7 g7g5 h7e7 d7c6 e7g5 a7a6 c4a6 f8g7 g5g7 c6b6") {
			at += 10 * time.Second
			role := ""
			if i%2 == 1 {
				role = "--as operator "
			}
			fmt.Fprintf(&s, "%s %smove %s\n", offset(at), role, mv)
		}
		fmt.Fprintf(&s, "%s flag white\n", offset(at+2*time.Hour))
		mustPlay(t, db, scriptHeader+s.String())
		st := status(t, db, at+3*time.Hour)
		if st.Game.Result != "1/2-1/2" || st.Game.Termination != "time forfeit" {
			t.Errorf("result %s (%s), want a draw: Black has only the king", st.Game.Result, st.Game.Termination)
		}
	})
}

// goldenFile compares got with testdata/name; -update (declared by the
// package's internal tests) rewrites it.
func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
