package unwinnable

import (
	"fmt"
	"math/bits"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"
)

// The speed benchmarks: one core, the analysis alone (no replay), for
// comparing two trees by CPU time and for -cpuprofile.

// BenchmarkLichessSample analyses every 10th lichess row of
// unwinnable-chasolver.tsv at 50,000 positions, one row after another.
func BenchmarkLichessSample(b *testing.B) {
	all := readRows(b, chasolverFile(b))
	var rows []row
	n := 0
	for _, r := range all {
		if strings.Contains(r.source, "lichess") {
			if n%10 == 0 {
				rows = append(rows, r)
			}
			n++
		}
	}
	benchRows(b, rows, 50_000)
}

// BenchmarkCommunitySample analyses every 20th community row of
// unwinnable-chasolver.tsv at 50,000 positions, one row after another.
func BenchmarkCommunitySample(b *testing.B) {
	all := readRows(b, chasolverFile(b))
	var rows []row
	n := 0
	for _, r := range all {
		if !strings.Contains(r.source, "lichess") {
			if n%20 == 0 {
				rows = append(rows, r)
			}
			n++
		}
	}
	benchRows(b, rows, 50_000)
}

// longSearches: community rows of the lichess-heavy set that are
// undetermined at the default limit (each search runs to its limit).
var longSearches = []row{
	{fen: "8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1", colour: "white"},
	{fen: "8/8/3b4/2b5/1p1p1pBp/1PpP1P1P/2P5/1k1K4 w - - 0 1", colour: "white"},
	{fen: "6Q1/8/4n3/8/ppp5/qkp3b1/rnp5/n1K5 b - - 0 1", colour: "white"},
}

// BenchmarkLongSearches analyses the longSearches at 300,000 positions
// (UNWINNABLE_LIMIT: another limit; UNWINNABLE_ROWS: the rows of that
// file instead, FEN<TAB>COLOUR).
func BenchmarkLongSearches(b *testing.B) {
	limit := 300_000
	if s := os.Getenv("UNWINNABLE_LIMIT"); s != "" {
		if _, err := fmt.Sscan(s, &limit); err != nil {
			b.Fatal(err)
		}
	}
	rows := longSearches
	if f := os.Getenv("UNWINNABLE_ROWS"); f != "" {
		// FEN<TAB>COLOUR lines, as arbiter unwinnable reads them
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		rows = nil
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if p := strings.Split(l, "\t"); len(p) >= 2 {
				rows = append(rows, row{fen: p[0], colour: p[1]})
			}
		}
	}
	benchRows(b, rows, limit)
}

func benchRows(b *testing.B, rows []row, limit int) {
	boards := make([]*Board, len(rows))
	colours := make([]int, len(rows))
	for i, r := range rows {
		var err error
		if boards[i], err = ParseFEN(r.fen); err != nil {
			b.Fatal(err)
		}
		if colours[i], err = ParseColour(r.colour); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	nodes := 0
	for it := 0; it < b.N; it++ {
		for i := range rows {
			r := AnalyseWith(boards[i], colours[i], Options{Limit: limit})
			nodes += r.Nodes
		}
	}
	el, cpu := time.Since(start), cpuTime()-cpu0
	// The CPU time (user and system, all threads: the garbage collector's
	// too) says more than the wall time on a machine shared with others.
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*len(rows)), "cpu-µs/row")
	b.ReportMetric(float64(el.Microseconds())/float64(b.N*len(rows)), "µs/row")
	b.ReportMetric(float64(el.Nanoseconds())/float64(max(nodes, 1)), "ns/position")
	b.ReportMetric(float64(nodes)/float64(b.N*len(rows)), "positions/row")
}

// TestKeyAfterIsTheKeyOfTheMadePosition: keyAfter, which the best-first
// search asks to skip positions seen before without making the move,
// gives MakeInto's key for every pseudo-legal move it computes (legal or
// not), and every move from a square of free (not tested by the
// best-first search) is legal, on the positions of a few plies from the
// perft positions.
func TestKeyAfterIsTheKeyOfTheMadePosition(t *testing.T) {
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	}
	checked, freeMoves := 0, 0
	var walk func(b *Board, d int)
	walk = func(b *Board, d int) {
		var l MoveList
		b.pseudo(&l)
		var c Board
		free := b.free()
		for _, m := range l.Moves[:l.N] {
			legal := b.MakeInto(m, &c)
			if free&(1<<m.From()) != 0 && m.kind() != kindEP {
				freeMoves++
				if !legal {
					t.Fatalf("%s %s: a move from a free square is illegal", b.FEN(), m.UCI())
				}
			}
			if k, ok := b.keyAfter(m); ok {
				checked++
				if k != c.key {
					t.Fatalf("%s %s: keyAfter %x, made %x", b.FEN(), m.UCI(), k, c.key)
				}
			}
			if legal && d > 1 {
				walk(&c, d-1)
			}
		}
	}
	for _, f := range fens {
		b, err := ParseFEN(f)
		if err != nil {
			t.Fatal(err)
		}
		walk(b, 3)
	}
	if checked < 100_000 || freeMoves < 50_000 {
		t.Fatalf("only %d keys and %d free moves checked", checked, freeMoves)
	}
}

// TestSetAttacksAreTheUnionOfTheSquaresAttacks: the attacks of a set of
// men at once (the static stages' flood fills) are those of its squares,
// one by one, on random sets and occupancies.
func TestSetAttacksAreTheUnionOfTheSquaresAttacks(t *testing.T) {
	x := uint64(0x9E3779B97F4A7C15)
	rnd := func() uint64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	for i := 0; i < 20000; i++ {
		set := rnd() & rnd() & rnd()
		if i%3 == 0 {
			set &= rnd()
		}
		occ := rnd() & rnd()
		if i%2 == 0 {
			occ &= rnd()
		}
		var kn, kg, bi, ro uint64
		for f := set; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			kn |= knightAttacks[q]
			kg |= kingAttacks[q]
			bi |= bishopAttacks(q, occ)
			ro |= rookAttacks(q, occ)
		}
		if knightsAttack(set) != kn || kingsAttack(set) != kg || bishopsAttack(set, occ) != bi || rooksAttack(set, occ) != ro {
			t.Fatalf("set %x occ %x: knights %v kings %v bishops %v rooks %v", set, occ,
				knightsAttack(set) == kn, kingsAttack(set) == kg, bishopsAttack(set, occ) == bi, rooksAttack(set, occ) == ro)
		}
	}
}

// TestUnmakeGivesBackThePositionTheMoveWasMadeFrom: the exhaustive search
// keeps on its path only the moves and what takes them back; unmake after
// makeInto must give the position before exactly (pieces, mailbox, key,
// castling, en passant, clocks), for every legal move of the perft trees
// to depth 3 (castling, en passant, promotions and captures of each kind).
func TestUnmakeGivesBackThePositionTheMoveWasMadeFrom(t *testing.T) {
	checked := 0
	var walk func(b *Board, d int)
	walk = func(b *Board, d int) {
		var l MoveList
		b.pseudo(&l)
		var c Board
		for _, m := range l.Moves[:l.N] {
			if !b.MakeInto(m, &c) {
				continue
			}
			u := b.undoOf(m)
			if d > 1 {
				walk(&c, d-1)
			}
			back := c
			back.unmake(m, u)
			checked++
			if back != *b {
				t.Fatalf("%s %s: unmake gives %s (key %x), want the position before (key %x)", b.FEN(), m.UCI(), back.FEN(), back.key, b.key)
			}
		}
	}
	for _, p := range perftPositions {
		b, err := ParseFEN(p.fen)
		if err != nil {
			t.Fatal(err)
		}
		walk(b, 3)
	}
	t.Logf("%d moves taken back", checked)
}

// TestLegalAfterIsMakeIntosTest: the best-first search tells the legality
// of a move not from a free square before making it (legalAfter, with
// the evasion squares of freeAndEvasions); it must agree with makeInto's
// test on every pseudo-legal move but en passant and castling, and
// freeAndEvasions' free must be free, on the perft trees to depth 3 and
// on random walks from community rows (checks by every kind of man,
// double checks, pins). The same positions check givesCheckBy (the mate
// in one's sieve) against givesCheck on every pseudo-legal move, and
// hasLegal (which tells legality so) against the moves made.
func TestLegalAfterIsMakeIntosTest(t *testing.T) {
	checked, inCheck := 0, 0
	try := func(b *Board) {
		var l MoveList
		b.pseudo(&l)
		free, evade := b.freeAndEvasions()
		if f := b.free(); free != f {
			t.Fatalf("%s: freeAndEvasions' free %x, free %x", b.FEN(), free, f)
		}
		if b.InCheck() {
			inCheck++
		}
		cs := b.checkSquares()
		var c Board
		any := false
		for _, m := range l.Moves[:l.N] {
			any = any || b.MakeInto(m, &c)
		}
		if b.hasLegal() != any {
			t.Fatalf("%s: hasLegal %v, a legal move made: %v", b.FEN(), !any, any)
		}
		for _, m := range l.Moves[:l.N] {
			if b.givesCheckBy(m, &cs) != b.givesCheck(m) {
				t.Fatalf("%s %s: givesCheckBy %v, givesCheck %v", b.FEN(), m.UCI(), !b.givesCheck(m), b.givesCheck(m))
			}
			if k := m.kind(); k == kindEP || k == kindCastle {
				continue
			}
			checked++
			if legal := b.MakeInto(m, &c); b.legalAfter(m, evade) != legal {
				t.Fatalf("%s %s: legalAfter %v, made: legal %v", b.FEN(), m.UCI(), !legal, legal)
			}
		}
	}
	var walk func(b *Board, d int)
	walk = func(b *Board, d int) {
		try(b)
		if d == 0 {
			return
		}
		var l MoveList
		b.Legal(&l)
		for _, m := range l.Moves[:l.N] {
			c, _ := b.Make(m)
			walk(&c, d-1)
		}
	}
	for _, p := range perftPositions {
		b, err := ParseFEN(p.fen)
		if err != nil {
			t.Fatal(err)
		}
		walk(b, 3)
	}
	rng := rand.New(rand.NewSource(7))
	fens, _ := communityRows(t, 10)
	for _, f := range fens {
		b, err := ParseFEN(f)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10; i++ {
			c := randomPlies(rng, *b, 1+rng.Intn(12))
			try(&c)
		}
	}
	if checked < 1_000_000 || inCheck < 4_000 {
		t.Fatalf("only %d moves checked, %d positions in check", checked, inCheck)
	}
	t.Logf("%d moves checked, %d positions in check", checked, inCheck)
}
