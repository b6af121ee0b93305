package unwinnable

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/internal/refdata"
)

type row struct{ fen, colour, verdict, source string }

// The reference rows (testdata/README-chasolver.md): the project's sample
// of CHA-Solver's rows (MIT) in make test; with REFERENCE_DATA=DIR the whole
// files DIR/unwinnable.tsv (CHA's test vectors, GPL-3.0, never copied here)
// and DIR/unwinnable-chasolver.tsv instead.
const sampleFile = "testdata/unwinnable-chasolver-sample.tsv"

// referenceFiles are the files of reference rows the tests read.
func referenceFiles(t testing.TB) []string {
	if refdata.Dir() == "" {
		return []string{sampleFile}
	}
	return []string{refdata.File(t, "unwinnable.tsv"), refdata.File(t, "unwinnable-chasolver.tsv")}
}

// chasolverFile is CHA-Solver's rows: the sample, or the whole file.
func chasolverFile(t testing.TB) string {
	if p := refdata.File(t, "unwinnable-chasolver.tsv"); p != "" {
		return p
	}
	return sampleFile
}

// fileName names a reference file in test names: its base name without .tsv.
func fileName(path string) string { return strings.TrimSuffix(filepath.Base(path), ".tsv") }

func readRows(t testing.TB, path string) []row {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		if len(p) < 4 || p[0] == "fen" {
			continue
		}
		out = append(out, row{p[0], p[1], p[2], p[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
