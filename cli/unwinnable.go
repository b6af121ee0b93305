package cli

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"arbiter/unwinnable"
)

func init() {
	boolFlags = append(boolFlags, "short")
	register(&command{name: "unwinnable", roles: rolesRead, usage: "unwinnable [--limit NODES] [--short]",
		summary: "Read lines 'FEN white|black' from standard input and write for each 'VERDICT<TAB>FEN<TAB>COLOUR<TAB>PROOF': can that side still checkmate by any series of legal moves (Article 6.9)? --short makes each helpmate short for a person to read (slower). No database needed.",
		run:     runUnwinnable})
}

// unwinnableLine is one input line and, once analysed, its output line.
type unwinnableLine struct {
	fen, colour string
	bad         string // the reason a malformed line is refused
	out         string
}

// parseUnwinnableLine splits "FEN<tab or space>COLOUR": a FEN of 4 or 6
// fields, then white or black.
func parseUnwinnableLine(text string) unwinnableLine {
	f := strings.Fields(text)
	l := unwinnableLine{fen: strings.TrimSpace(text), colour: "-"}
	if len(f) < 2 {
		l.bad = "a line needs a FEN and the intended winner, white or black"
		return l
	}
	l.fen, l.colour = strings.Join(f[:len(f)-1], " "), f[len(f)-1]
	if _, err := unwinnable.ParseColour(l.colour); err != nil {
		l.bad = err.Error()
		return l
	}
	if n := len(f) - 1; n != 4 && n != 6 {
		l.bad = fmt.Sprintf("a FEN has 4 or 6 fields, this one has %d", n)
	}
	return l
}

// runUnwinnable analyses each input line, both cores at work, and writes
// the lines in input order. A malformed line gets the verdict "error", the
// run goes on, and the exit status is 1 at the end.
func runUnwinnable(r *runner, a *args) error {
	limit, err := a.int("limit", unwinnable.DefaultLimit)
	if err != nil {
		return err
	}
	opt := unwinnable.Options{Limit: limit, Short: a.bool("short")}
	if err := a.done("unwinnable", 0); err != nil {
		return err
	}
	if limit < 1 {
		return fmt.Errorf("--limit %d is too small: give a number of positions of at least 1", limit)
	}
	in := r.env.Stdin
	if in == nil {
		in = strings.NewReader("")
	}
	var lines []*unwinnableLine
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		l := parseUnwinnableLine(text)
		lines = append(lines, &l)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading standard input failed: %v", err)
	}
	workers := runtime.GOMAXPROCS(0)
	next := make(chan *unwinnableLine)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for l := range next {
				l.out = analyseLine(l, opt)
			}
		}()
	}
	// Lines are handed out in order and written as soon as all before them
	// are done.
	done := make(chan struct{})
	go func() {
		for _, l := range lines {
			next <- l
		}
		close(next)
		wg.Wait()
		close(done)
	}()
	<-done
	bad := 0
	w := bufio.NewWriter(r.env.Stdout)
	for _, l := range lines {
		if l.bad != "" {
			bad++
		}
		io.WriteString(w, l.out)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d input lines were malformed (verdict error): write each as a FEN of 4 or 6 fields, a space or a tab, then white or black", bad, len(lines))
	}
	return nil
}

// analyseLine is the output line of one input line: the helpmate as found
// (the verdict needs any), made short with opt.Short.
func analyseLine(l *unwinnableLine, opt unwinnable.Options) string {
	row := func(verdict, proof string) string {
		proof = strings.Join(strings.Fields(proof), " ") // one line, no tabs
		return verdict + "\t" + l.fen + "\t" + l.colour + "\t" + proof + "\n"
	}
	if l.bad != "" {
		return row("error", l.bad)
	}
	c, _ := unwinnable.ParseColour(l.colour)
	b, err := unwinnable.ParseFEN(l.fen)
	if err != nil {
		l.bad = err.Error()
		return row("error", l.bad)
	}
	res := unwinnable.AnalyseWith(b, c, opt)
	return row(res.Verdict.String(), res.Proof())
}
