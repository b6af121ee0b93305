// Command testsummary reads the events of 'go test -json' on its standard
// input and prints what 'go test' without -v would (each package's ok or
// FAIL line, build errors, the output of every failing test), writes the
// whole verbose output to the log file -log names, and ends with a summary
// line that counts the packages and the tests: passed, failed and skipped,
// subtests included. Every skipped test is listed under it with its reason,
// so that no test of make test skips silently.
//
//	go test -json ./... | go run ./internal/testsummary -log bin/go-test.log
//
// Its exit status is 1 when a package or a test failed or no event was read,
// 0 otherwise.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	logPath := flag.String("log", "", "write the whole verbose output to this file")
	flag.Parse()
	var logw io.Writer = io.Discard
	if *logPath != "" {
		f, err := os.Create(*logPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			os.Exit(2)
		}
		defer f.Close()
		bw := bufio.NewWriter(f)
		defer bw.Flush()
		logw = bw
	}
	s, err := summarise(os.Stdin, os.Stdout, logw)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	s.write(os.Stdout, *logPath)
	if !s.ok() {
		os.Exit(1)
	}
}

// event is one line of 'go test -json' (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output, build-fail
	Test       string
	Output     string
}

// summary counts what the events said.
type summary struct {
	events                       int
	pkgOK, pkgFailed, pkgNoTests int
	passed, failed, skipped      int
	skips, failures              []string // "package Test: reason"
	buildFailed                  int
	unfinished                   []string // tests that started and never ended (a panic or a timeout)
}

func (s *summary) ok() bool {
	return s.events > 0 && s.pkgFailed == 0 && s.failed == 0 && s.buildFailed == 0
}

// summarise reads the events from r, writes the short output to out and
// every output line to log.
func summarise(r io.Reader, out, log io.Writer) (*summary, error) {
	s := &summary{}
	buffered := map[string][]string{} // package + " " + test -> its output so far
	running := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// not an event (go test printed something itself): pass it on
			fmt.Fprintf(out, "%s\n", line)
			fmt.Fprintf(log, "%s\n", line)
			continue
		}
		s.events++
		key := e.Package + " " + e.Test
		switch e.Action {
		case "build-output":
			io.WriteString(out, e.Output)
			io.WriteString(log, e.Output)
		case "build-fail":
			s.buildFailed++
		case "run":
			running[key] = true
		case "output":
			io.WriteString(log, e.Output)
			if e.Test != "" {
				buffered[key] = append(buffered[key], e.Output)
			} else if !quiet(e.Output) {
				io.WriteString(out, e.Output) // the package's ok/FAIL line, a panic, a timeout
			}
		case "pass", "fail", "skip":
			if e.Test == "" {
				switch {
				case e.Action == "fail":
					s.pkgFailed++
				case e.Action == "skip":
					s.pkgNoTests++
				default:
					s.pkgOK++
				}
				continue
			}
			delete(running, key)
			name := e.Package + " " + e.Test
			switch e.Action {
			case "pass":
				s.passed++
			case "fail":
				s.failed++
				s.failures = append(s.failures, name)
				for _, o := range buffered[key] {
					io.WriteString(out, o)
				}
			case "skip":
				s.skipped++
				s.skips = append(s.skips, name+": "+skipReason(buffered[key]))
			}
			delete(buffered, key)
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	for key := range running {
		if !strings.HasSuffix(key, " ") { // a test, not a package
			s.unfinished = append(s.unfinished, key)
		}
	}
	sort.Strings(s.unfinished)
	return s, nil
}

// quiet reports whether a package-level output line is one that go test
// without -v does not print.
func quiet(line string) bool {
	l := strings.TrimSpace(line)
	return l == "PASS" || strings.HasPrefix(l, "=== ") || l == "testing: warning: no tests to run"
}

// skipReason is what a skipped test logged last before its --- SKIP line
// (the message of t.Skip), without the file:line prefix's indentation.
func skipReason(output []string) string {
	reason := "(no reason given)"
	for _, o := range output {
		l := strings.TrimSpace(o)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
			continue
		}
		reason = l
	}
	return reason
}

// write prints the summary line and the skipped and failed tests.
func (s *summary) write(w io.Writer, logPath string) {
	where := ""
	if logPath != "" {
		where = " (full log: " + logPath + ")"
	}
	fmt.Fprintf(w, "go test summary: %d packages ok, %d packages FAILED, %d without test files; tests: %d passed, %d failed, %d skipped%s\n",
		s.pkgOK, s.pkgFailed, s.pkgNoTests, s.passed, s.failed, s.skipped, where)
	for _, sk := range s.skips {
		fmt.Fprintf(w, "  skipped: %s\n", sk)
	}
	for _, f := range s.failures {
		fmt.Fprintf(w, "  FAILED: %s\n", f)
	}
	for _, u := range s.unfinished {
		fmt.Fprintf(w, "  never finished: %s\n", u)
	}
	if s.events == 0 {
		fmt.Fprintln(w, "  no test events were read: did go test run?")
	}
}
