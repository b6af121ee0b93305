package unwinnable

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/notnil/chess"
)

// outcome of one reference row.
type outcome struct {
	row     row
	res     Result
	err     error
	elapsed time.Duration
}

// analyseRows analyses rows on every core with the given options.
func analyseRows(rows []row, opt Options) []outcome {
	out := make([]outcome, len(rows))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := rows[i]
				c, err := ParseColour(r.colour)
				start := time.Now()
				var res Result
				var b *Board
				if err == nil {
					b, err = ParseFEN(r.fen)
				}
				if err == nil {
					res = AnalyseWith(b, c, opt)
				}
				out[i] = outcome{r, res, err, time.Since(start)}
			}
		}()
	}
	for i := range rows {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// check reports wrong verdicts and bad proofs: a verdict against the label,
// a helpmate that notnil does not replay to a mate by the winner, a
// winnable proof for a row the reference left undetermined is fine if it
// replays.
func check(t testing.TB, outs []outcome) (wrong, undetermined int) {
	for _, o := range outs {
		if o.err != nil {
			t.Errorf("%s %s: %v", o.row.fen, o.row.colour, o.err)
			wrong++
			continue
		}
		switch {
		case o.res.Verdict == Undetermined:
			undetermined++
		case o.row.verdict != "undetermined" && o.res.Verdict.String() != o.row.verdict:
			wrong++
			t.Errorf("WRONG %s %s: %v (%s), the reference says %s", o.row.fen, o.row.colour, o.res.Verdict, o.res.Proof(), o.row.verdict)
		case o.res.Verdict == Winnable:
			c, _ := ParseColour(o.row.colour)
			if why := replayMates(o.row.fen, c, o.res.Line); why != "" {
				wrong++
				t.Errorf("BAD PROOF %s %s: %v: %s", o.row.fen, o.row.colour, o.res.Line, why)
			}
		}
	}
	return wrong, undetermined
}

// TestReferenceSample checks a sample of the reference files (every row
// of them runs in BenchmarkReferenceFiles, from make bench): no verdict may
// contradict a label, every helpmate must replay to a mate. Every 40th row
// of the project's sample of CHA-Solver's rows (167 rows), or with
// REFERENCE_DATA every 40th of unwinnable.tsv and every 400th of the whole
// unwinnable-chasolver.tsv.
func TestReferenceSample(t *testing.T) {
	for _, path := range referenceFiles(t) {
		every := 40
		if fileName(path) == "unwinnable-chasolver" {
			every = 400
		}
		t.Run(fileName(path), func(t *testing.T) {
			all := readRows(t, path)
			var rows []row
			for i := 0; i < len(all); i += every {
				rows = append(rows, all[i])
			}
			wrong, und := check(t, analyseRows(rows, Options{Limit: 20_000}))
			t.Logf("%d rows: %d wrong, %d undetermined at 20,000 nodes", len(rows), wrong, und)
		})
	}
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(p*float64(len(s)-1))]
}

// BenchmarkReferenceFiles runs every row of both reference files (run it
// with -benchtime 1x; make bench does) at the node limit UNWINNABLE_LIMIT
// (default 50,000, for comparing two trees row by row in under a minute;
// "default": DefaultLimit, the command's, as make bench runs it), the verdict as 'arbiter unwinnable' gives it (with
// UNWINNABLE_SHORT=1 as 'arbiter unwinnable --short' and the flag verdict:
// the helpmate made short), and reports, per file and for the lichess
// rows: wrong verdicts (must be 0), undetermined rows, positions per
// second (all cores), the mean, p50 and p99 time of one position, the
// positions searched a row (independent of the machine's load) and of
// them those spent making the proof short, and the mean and longest
// helpmate (plies).
func BenchmarkReferenceFiles(b *testing.B) {
	opt := Options{Limit: 50_000, Short: os.Getenv("UNWINNABLE_SHORT") == "1"}
	if s := os.Getenv("UNWINNABLE_LIMIT"); s == "default" {
		opt.Limit = DefaultLimit // 'arbiter unwinnable' without --limit: make bench
	} else if s != "" {
		fmt.Sscan(s, &opt.Limit)
	}
	// UNWINNABLE_EVERY=n: every nth row of each part only (a sample for
	// measuring a change by its counts).
	every := 1
	if s := os.Getenv("UNWINNABLE_EVERY"); s != "" {
		fmt.Sscan(s, &every)
	}
	for _, path := range referenceFiles(b) {
		rows := readRows(b, path)
		parts := map[string][]row{"all": rows}
		seen := map[string]int{}
		for _, r := range rows {
			part := "community"
			if strings.Contains(r.source, "lichess") {
				part = "lichess"
			}
			if seen[part]++; (seen[part]-1)%every == 0 {
				parts[part] = append(parts[part], r)
			}
		}
		for _, part := range []string{"community", "lichess"} {
			rs := parts[part]
			if len(rs) == 0 {
				continue
			}
			b.Run(fileName(path)+"/"+part, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					start := time.Now()
					outs := analyseRows(rs, opt)
					wall := time.Since(start)
					wrong, und := check(b, outs)
					dump(b, outs)
					var times, searched []time.Duration // searched: positions, as durations to share percentile
					var sum time.Duration
					proofs, plies, longest, positions, proofPositions := 0, 0, 0, 0, 0
					for _, o := range outs {
						times = append(times, o.elapsed)
						sum += o.elapsed
						positions += o.res.Nodes
						searched = append(searched, time.Duration(o.res.Nodes))
						proofPositions += o.res.ProofNodes
						if o.res.Verdict == Winnable {
							proofs++
							plies += len(o.res.Line)
							longest = max(longest, len(o.res.Line))
						}
					}
					if proofs > 0 {
						b.ReportMetric(float64(plies)/float64(proofs), "proof-mean-plies")
						b.ReportMetric(float64(longest), "proof-max-plies")
					}
					b.ReportMetric(float64(len(rs)), "rows")
					b.ReportMetric(float64(wrong), "wrong")
					b.ReportMetric(float64(und), "undetermined")
					b.ReportMetric(float64(len(rs))/wall.Seconds(), "positions/s")
					b.ReportMetric(float64(positions)/float64(len(rs)), "searched/row")
					b.ReportMetric(float64(percentile(searched, 0.5)), "searched-p50")
					b.ReportMetric(float64(percentile(searched, 0.9)), "searched-p90")
					b.ReportMetric(float64(percentile(searched, 0.99)), "searched-p99")
					b.ReportMetric(float64(proofPositions)/float64(len(rs)), "proof-searched/row")
					b.ReportMetric(float64(sum.Microseconds())/float64(len(rs)), "mean-µs")
					b.ReportMetric(float64(percentile(times, 0.5).Microseconds()), "p50-µs")
					b.ReportMetric(float64(percentile(times, 0.99).Microseconds()), "p99-µs")
				}
			})
		}
	}
}

// dump writes each row's verdict and positions searched to the file
// UNWINNABLE_DUMP names (appending), for looking at the rows a change
// moves: FEN, colour, verdict, positions, the stage that settled it,
// tab-separated.
func dump(b *testing.B, outs []outcome) {
	path := os.Getenv("UNWINNABLE_DUMP")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for _, o := range outs {
		fmt.Fprintf(f, "%s\t%s\t%v\t%d\t%s\n", o.row.fen, o.row.colour, o.res.Verdict, o.res.Nodes, o.res.stage)
	}
}

// notnilPerft is the same perft with notnil/chess (make each move, list the
// new position's moves), the baseline of BenchmarkPerftBeside.
func notnilPerft(pos *chess.Position, d int) int64 {
	moves := pos.ValidMoves()
	if d == 1 {
		return int64(len(moves))
	}
	var n int64
	for _, m := range moves {
		n += notnilPerft(pos.Update(m), d-1)
	}
	return n
}

// BenchmarkPerftBeside measures the generator and notnil/chess on the same
// perft (initial position to depth 4, Kiwipete to depth 3) in one run.
func BenchmarkPerftBeside(b *testing.B) {
	for _, p := range []struct {
		name string
		fen  string
		d    int
	}{{"initial", perftPositions[0].fen, 4}, {"Kiwipete", perftPositions[1].fen, 3}} {
		want := int64(0)
		for i, pp := range perftPositions {
			if pp.fen == p.fen {
				want = perftPositions[i].counts[p.d-1]
			}
		}
		b.Run(p.name+"/generator", func(b *testing.B) {
			bd, _ := ParseFEN(p.fen)
			for i := 0; i < b.N; i++ {
				if got := bd.Perft(p.d); got != want {
					b.Fatalf("perft %d, want %d", got, want)
				}
			}
			b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
		b.Run(p.name+"/notnil", func(b *testing.B) {
			opt, _ := chess.FEN(p.fen)
			pos := chess.NewGame(opt).Position()
			for i := 0; i < b.N; i++ {
				if got := notnilPerft(pos, p.d); got != want {
					b.Fatalf("notnil perft %d, want %d", got, want)
				}
			}
			b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkDeadCheck is the per-move dead-position check (Dead with the
// budget scoresheet uses) over the lichess rows of unwinnable-chasolver.tsv,
// one position after another: p50 and p99 of one check (goal p99 < 1 ms).
func BenchmarkDeadCheck(b *testing.B) {
	rows := readRows(b, chasolverFile(b))
	var boards []*Board
	for i, r := range rows {
		if i%2 == 0 && strings.Contains(r.source, "lichess") {
			if bd, err := ParseFEN(r.fen); err == nil {
				boards = append(boards, bd)
			}
		}
	}
	for i := 0; i < b.N; i++ {
		times := make([]time.Duration, 0, len(boards))
		dead := 0
		for _, bd := range boards {
			start := time.Now()
			if Dead(bd, 32) {
				dead++
			}
			times = append(times, time.Since(start))
		}
		b.ReportMetric(float64(len(boards)), "positions")
		b.ReportMetric(float64(dead), "dead")
		b.ReportMetric(float64(percentile(times, 0.5).Nanoseconds()), "p50-ns")
		b.ReportMetric(float64(percentile(times, 0.99).Nanoseconds()), "p99-ns")
		b.ReportMetric(float64(percentile(times, 1).Nanoseconds()), "max-ns")
	}
}
