package unwinnable

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

type row struct{ fen, colour, verdict, source string }

func readRows(t testing.TB, path string) []row {
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("reference data not here: %v", err)
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
	return out
}
