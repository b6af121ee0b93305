package unwinnable

import (
	"path/filepath"
	"strings"
	"testing"
)

// The generator's hard rows (testdata/generated-hard.tsv): positions made
// by generate_test.go that the analyser left undetermined at the default
// limit before issue 29, each with CHA-Solver 3.0's label (README there).
var generatedHard = filepath.Join("testdata", "generated-hard.tsv")

// Every 8th of the generator's hard rows and every composition among
// them is decided at the default limit and as CHA-Solver labels it, every
// helpmate replayed through notnil (BenchmarkGeneratedHardRows, in make
// bench, runs them all).
func TestTheGeneratedHardRowsAreDecided(t *testing.T) {
	all := readRows(t, generatedHard)
	var rows []row
	for i, r := range all {
		if i%8 == 0 || strings.HasPrefix(r.source, "generated composed") {
			rows = append(rows, r)
		}
	}
	if len(rows) < 20 {
		t.Fatalf("only %d rows in %s", len(rows), generatedHard)
	}
	wrong, undetermined := check(t, analyseRows(rows, Options{}))
	if wrong+undetermined > 0 {
		t.Fatalf("%d of %d rows wrong, %d undetermined", wrong, len(rows), undetermined)
	}
}

// BenchmarkGeneratedHardRows decides every one of the generator's hard
// rows at the default limit, as the reference files are decided: the
// counts of wrong and undetermined verdicts (the target: none), the
// positions and the time a row.
func BenchmarkGeneratedHardRows(b *testing.B) {
	rows := readRows(b, generatedHard)
	for i := 0; i < b.N; i++ {
		outs := analyseRows(rows, Options{})
		wrong, und := check(b, outs)
		positions := 0
		var sum float64
		for _, o := range outs {
			positions += o.res.Nodes
			sum += float64(o.elapsed.Microseconds())
		}
		b.ReportMetric(float64(len(rows)), "rows")
		b.ReportMetric(float64(wrong), "wrong")
		b.ReportMetric(float64(und), "undetermined")
		b.ReportMetric(float64(positions)/float64(len(rows)), "searched/row")
		b.ReportMetric(sum/float64(len(rows)), "mean-µs")
	}
}
