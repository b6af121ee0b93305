package unwinnable

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	path := os.Getenv("SCRATCH")
	if path == "" {
		t.Skip()
	}
	rows := readRows(t, path)
	wrong, und := 0, 0
	start := time.Now()
	for i, r := range rows {
		if i%atoi(os.Getenv("EVERY")) != 0 {
			continue
		}
		w, _ := ParseColour(r.colour)
		t0 := time.Now()
		res, err := AnalyseFEN(r.fen, w, 200000)
		el := time.Since(t0)
		if err != nil {
			fmt.Println("ERR", r.fen, err)
			continue
		}
		if res.Verdict == Undetermined {
			und++
			fmt.Printf("UND %s\t%s\t%s\t%v\n", r.fen, r.colour, r.verdict, el)
		} else if res.Verdict.String() != r.verdict && r.verdict != "undetermined" {
			wrong++
			fmt.Printf("WRONG %s\t%s\t%s got %s: %s\n", r.fen, r.colour, r.verdict, res.Verdict, res.Proof())
		} else if el > 50*time.Millisecond {
			fmt.Printf("SLOW %s\t%s\t%s\t%v\n", r.fen, r.colour, r.verdict, el)
		}
	}
	fmt.Println("wrong", wrong, "und", und, time.Since(start))
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	if n < 1 {
		n = 1
	}
	return n
}
