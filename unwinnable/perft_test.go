package unwinnable

import "testing"

// The standard perft positions (chessprogramming.org "Perft Results") with
// their published node counts.
var perftPositions = []struct {
	name   string
	fen    string
	counts []int64 // depth 1, 2, ...
}{
	{"initial position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []int64{20, 400, 8902, 197281, 4865609}},
	{"Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int64{48, 2039, 97862, 4085603, 193690690}},
	{"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int64{14, 191, 2812, 43238, 674624, 11030083}},
	{"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int64{6, 264, 9467, 422333, 15833292}},
	{"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int64{44, 1486, 62379, 2103487, 89941194}},
	{"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int64{46, 2079, 89890, 3894594, 164075551}},
}

// maxTestNodes keeps `go test` to a few seconds: each position is counted to
// the deepest depth whose published count is at most this.
const maxTestNodes = 700_000

func TestPerftMatchesPublishedCounts(t *testing.T) {
	for _, p := range perftPositions {
		t.Run(p.name, func(t *testing.T) {
			b, err := ParseFEN(p.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range p.counts {
				if want > maxTestNodes && d >= 3 {
					break
				}
				if got := b.Perft(d + 1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}

// BenchmarkPerft runs each position to depth 4 or 5 (the deep checks) and
// reports nodes per second.
func BenchmarkPerft(b *testing.B) {
	for _, p := range perftPositions {
		b.Run(p.name, func(b *testing.B) {
			bd, err := ParseFEN(p.fen)
			if err != nil {
				b.Fatal(err)
			}
			d := 4
			if p.counts[3] < 1_000_000 {
				d = 5
			}
			var nodes int64
			for i := 0; i < b.N; i++ {
				if got := bd.Perft(d); got != p.counts[d-1] {
					b.Fatalf("perft(%d) = %d, want %d", d, got, p.counts[d-1])
				}
				nodes += p.counts[d-1]
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
