package main

import (
	"bytes"
	"strings"
	"testing"
)

// ev writes one event of go test -json.
func ev(action, pkg, test, output string) string {
	var b strings.Builder
	b.WriteString(`{"Action":"` + action + `","Package":"` + pkg + `"`)
	if test != "" {
		b.WriteString(`,"Test":"` + test + `"`)
	}
	if output != "" {
		b.WriteString(`,"Output":` + quote(output))
	}
	return b.String() + "}\n"
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

func TestTheSummaryCountsEveryTestAndNamesEverySkip(t *testing.T) {
	stream := ev("start", "a/clock", "", "") +
		ev("run", "a/clock", "TestPress", "") +
		ev("output", "a/clock", "TestPress", "=== RUN   TestPress\n") +
		ev("output", "a/clock", "TestPress", "--- PASS: TestPress (0.00s)\n") +
		ev("pass", "a/clock", "TestPress", "") +
		ev("run", "a/clock", "TestData", "") +
		ev("run", "a/clock", "TestData/mine", "") +
		ev("pass", "a/clock", "TestData/mine", "") +
		ev("run", "a/clock", "TestData/others", "") +
		ev("output", "a/clock", "TestData/others", "    control_test.go:399: needs the reference file clk-samples.pgn\n") +
		ev("output", "a/clock", "TestData/others", "    --- SKIP: TestData/others (0.00s)\n") +
		ev("skip", "a/clock", "TestData/others", "") +
		ev("pass", "a/clock", "TestData", "") +
		ev("output", "a/clock", "", "PASS\n") +
		ev("output", "a/clock", "", "ok  \ta/clock\t0.2s\n") +
		ev("pass", "a/clock", "", "") +
		ev("run", "a/store", "TestOpen", "") +
		ev("output", "a/store", "TestOpen", "    store_test.go:12: the file is gone\n") +
		ev("output", "a/store", "TestOpen", "--- FAIL: TestOpen (0.01s)\n") +
		ev("fail", "a/store", "TestOpen", "") +
		ev("output", "a/store", "", "FAIL\n") +
		ev("output", "a/store", "", "FAIL\ta/store\t0.1s\n") +
		ev("fail", "a/store", "", "") +
		ev("output", "a/tools", "", "?   \ta/tools\t[no test files]\n") +
		ev("skip", "a/tools", "", "")
	var out, log bytes.Buffer
	s, err := summarise(strings.NewReader(stream), &out, &log)
	if err != nil {
		t.Fatal(err)
	}
	s.write(&out, "bin/go-test.log")
	got := out.String()
	for _, tc := range []struct {
		rule string
		ok   bool
	}{
		{"every test and subtest is counted by its outcome", s.passed == 3 && s.failed == 1 && s.skipped == 1},
		{"packages are counted ok, failed and without tests", s.pkgOK == 1 && s.pkgFailed == 1 && s.pkgNoTests == 1},
		{"the summary line says the counts", strings.Contains(got, "go test summary: 1 packages ok, 1 packages FAILED, 1 without test files; tests: 3 passed, 1 failed, 1 skipped (full log: bin/go-test.log)")},
		{"a skipped test is listed with its reason", strings.Contains(got, "  skipped: a/clock TestData/others: control_test.go:399: needs the reference file clk-samples.pgn\n")},
		{"a failed test is listed and its output shown", strings.Contains(got, "  FAILED: a/store TestOpen\n") && strings.Contains(got, "store_test.go:12: the file is gone")},
		{"the packages' ok and FAIL lines are shown as go test shows them", strings.Contains(got, "ok  \ta/clock\t0.2s\n") && strings.Contains(got, "FAIL\ta/store\t0.1s\n")},
		{"a passing test's output is not shown", !strings.Contains(got, "=== RUN   TestPress")},
		{"the log holds every line", strings.Contains(log.String(), "=== RUN   TestPress\n") && strings.Contains(log.String(), "--- SKIP: TestData/others")},
		{"a failure makes the run not ok", !s.ok()},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			if !tc.ok {
				t.Errorf("not so; output:\n%s", got)
			}
		})
	}
}

func TestARunWithoutEventsOrWithABuildFailureIsNotOK(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
	}{
		{"no events at all", ""},
		{"a build failure", `{"ImportPath":"a/x [a/x.test]","Action":"build-output","Output":"x.go:1: syntax error\n"}` + "\n" +
			`{"ImportPath":"a/x [a/x.test]","Action":"build-fail"}` + "\n" +
			ev("output", "a/x", "", "FAIL\ta/x [build failed]\n") + ev("fail", "a/x", "", "")},
		{"a test that never ended (a panic)", ev("run", "a/x", "TestY", "") + ev("output", "a/x", "", "panic: boom\n") + ev("fail", "a/x", "", "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			s, err := summarise(strings.NewReader(tc.stream), &out, &bytes.Buffer{})
			if err != nil {
				t.Fatal(err)
			}
			if s.ok() {
				t.Errorf("ok; output:\n%s", out.String())
			}
		})
	}
	t.Run("a build error is shown", func(t *testing.T) {
		var out bytes.Buffer
		summarise(strings.NewReader(`{"ImportPath":"a/x","Action":"build-output","Output":"x.go:1: syntax error\n"}`+"\n"), &out, &bytes.Buffer{})
		if !strings.Contains(out.String(), "x.go:1: syntax error") {
			t.Errorf("output %q", out.String())
		}
	})
	t.Run("a test that never ended is named", func(t *testing.T) {
		var out bytes.Buffer
		s, _ := summarise(strings.NewReader(ev("run", "a/x", "TestY", "")+ev("fail", "a/x", "", "")), &out, &bytes.Buffer{})
		s.write(&out, "")
		if !strings.Contains(out.String(), "never finished: a/x TestY") {
			t.Errorf("output %q", out.String())
		}
	})
}
