package unwinnable

import (
	"math/bits"
	"math/rand"
	"strings"
	"testing"
)

// randomPlies plays n random legal moves from b (fewer where the game
// ends first) and returns the position reached: the random walks of the
// soundness tests, which check a proof a few moves away from the rows it
// was made for.
func randomPlies(rng *rand.Rand, b Board, n int) Board {
	for ; n > 0; n-- {
		var l MoveList
		b.Legal(&l)
		if l.N == 0 {
			break
		}
		b, _ = b.Make(l.Moves[rng.Intn(l.N)])
	}
	return b
}

// analyseChecked analyses b (whose FEN is fen) for winner within limit
// positions and fails unless the verdict is want; a helpmate found must
// replay through notnil to a mate by winner. The table tests of the
// stages check what proved an unwinnable verdict on the result.
func analyseChecked(t *testing.T, b *Board, fen string, winner, limit int, want Verdict) Result {
	t.Helper()
	r := AnalyseWith(b, winner, Options{Limit: limit})
	if r.Verdict != want {
		t.Fatalf("verdict %v (%s), want %v", r.Verdict, r.Proof(), want)
	}
	if r.Verdict == Winnable {
		if why := replayMates(fen, winner, r.Line); why != "" {
			t.Fatalf("the line %v: %s", r.Line, why)
		}
	}
	return r
}

// provenByStage parses fen, analyses it as analyseChecked does and, where
// the verdict is unwinnable, fails unless the stage named stage proved it
// with a reason that contains phrase ("" for any).
func provenByStage(t *testing.T, fen string, winner, limit int, want Verdict, stage, phrase string) {
	t.Helper()
	b, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	r := analyseChecked(t, b, fen, winner, limit, want)
	if r.Verdict == Unwinnable && (r.stage != stage || !strings.Contains(r.Reason, phrase)) {
		t.Fatalf("proven by stage %q: %s", r.stage, r.Reason)
	}
}

// greedyMate looks for a helpmate by winner from b with the greedy
// best-first search alone, within 20,000 positions: the random soundness
// tests ask it of every position a rule proves unwinnable (a line found
// there would make the rule wrong).
func greedyMate(b *Board, winner int) ([]Move, bool) {
	s := &searcher{winner: winner, limit: 1 << 30, proven: map[uint64]int16{}, partial: true, w: nearMate, wBlock: 2}
	return s.bestFirst(b, 20_000, 0)
}

// playOnKeepsMen plays up to plies random legal moves from b and fails as
// soon as a man of men (a set of fixed men b stands with) moves or is
// taken, or, with kings given, a king stands outside its kingStand.
func playOnKeepsMen(t *testing.T, rng *rand.Rand, b Board, men uint64, kings *[2]reach, plies int) {
	t.Helper()
	g := b
	for ply := 0; ply < plies; ply++ {
		var l MoveList
		g.Legal(&l)
		if l.N == 0 {
			return
		}
		m := l.Moves[rng.Intn(l.N)]
		before := g
		g, _ = g.Make(m)
		for f := men; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			if g.sq[q] != b.sq[q] {
				t.Fatalf("%s: after %v from %s the man on %s of the fixed men moved or was taken", b.FEN(), m, before.FEN(), squareName(q))
			}
		}
		for c := 0; kings != nil && c < 2; c++ {
			if g.bb[c][King]&^kings[c].kingStand != 0 {
				t.Fatalf("%s: after %v from %s the %s king stands on %v, outside its reach %v", b.FEN(), m, before.FEN(), colourName(c), squareList(g.bb[c][King]), squareList(kings[c].kingStand))
			}
		}
	}
}

// foundBy analyses fen for winner within limit positions (0: the default)
// and fails unless a helpmate is found by the search whose stage names
// begin with stage (e.g. "offer-") within bound positions; the line must
// replay through notnil to a mate by winner. A search other than the
// deepening search is asked without it (which often finds a line first).
func foundBy(t *testing.T, fen string, winner, limit, bound int, stage, search string) {
	t.Helper()
	b, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	r := AnalyseWith(b, winner, Options{Limit: limit, noDeepen: !strings.HasPrefix(stage, "deepen-")})
	if r.Verdict != Winnable || !strings.HasPrefix(r.stage, stage) || r.Nodes > bound {
		t.Fatalf("%v by %s in %d positions, want winnable by the %s within %d", r.Verdict, r.stage, r.Nodes, search, bound)
	}
	if bad := replayMates(fen, winner, r.Line); bad != "" {
		t.Fatalf("the line %v: %s", r.Line, bad)
	}
	t.Logf("%d positions (%s), %d plies", r.Nodes, r.stage, len(r.Line))
}

// communityRows are every nth community row (not from lichess) of both
// reference files, with the colour to win: the roots of the random
// soundness tests beside their own seeds.
func communityRows(t *testing.T, n int) (fens []string, winners []int) {
	for _, f := range referenceFiles(t) {
		for i, r := range readRows(t, f) {
			if i%n != 0 || strings.Contains(r.source, "lichess") {
				continue
			}
			w, _ := ParseColour(r.colour)
			fens, winners = append(fens, r.fen), append(winners, w)
		}
	}
	return fens, winners
}
