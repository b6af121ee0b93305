package unwinnable

import (
	"bufio"
	"flag"
	"os"
	"strings"
	"testing"
)

var refuteFile = flag.String("refute", "", "replay the helpmates of this file's rows ('winnable FEN COLOUR LINE', tab-separated: arbiter unwinnable's output) through notnil (TestAHelpmateRefutesAnUnwinnableLabel)")

// CHA-Solver 3.0 labels some generated positions unwinnable that are not:
// the analyser finds a helpmate, and the helpmate replays move by move
// through notnil/chess (an implementation the analyser shares nothing
// with) to a checkmate by the side named. A label refuted by a legal
// helpmate is CHA-Solver's error, not a disagreement the analyser must
// follow. With -refute FILE every row of FILE is replayed the same way
// (scripts/unwinnable-generated.sh: the rows where the two disagree).
func TestAHelpmateRefutesAnUnwinnableLabel(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		winner    int
	}{
		{"White's king walks through the chain to promote against dark bishops (seed 20261205, row 2262)", "1b2kb2/8/2pp4/3p2p1/1p1K1pP1/1P1P1P2/8/1B3B2 b - - 0 1", White},
		{"White's light bishop mates the king Black's own men shut in on a8 (seed 20261205, row 6898)", "3b1b2/3k4/3pp3/3p4/1p1K1p1p/bP1P1P1P/8/1B3B2 w - - 0 1", White},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			analyseChecked(t, b, tc.fen, tc.winner, DefaultLimit, Winnable)
		})
	}
	if *refuteFile == "" {
		return
	}
	f, err := os.Open(*refuteFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 || cols[0] != "winnable" {
			t.Fatalf("%s: the row %q is not 'winnable FEN COLOUR LINE'", *refuteFile, sc.Text())
		}
		winner := White
		if cols[2] == "black" {
			winner = Black
		}
		if why := replayMates(cols[1], winner, strings.Fields(cols[3])); why != "" {
			t.Errorf("%s for %s: %s", cols[1], cols[2], why)
			continue
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d helpmates of %s replay to a mate", n, *refuteFile)
}
