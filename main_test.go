package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestMain runs main itself when the test binary is started as the program
// (ARBITER_RUN_MAIN=1), so that the tests below see exactly what a user sees.
func TestMain(m *testing.M) {
	if os.Getenv("ARBITER_RUN_MAIN") == "1" {
		os.Args = append([]string{"arbiter"}, strings.Fields(os.Getenv("ARBITER_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// arbiter runs the program with args in an environment of its own (HOME and
// XDG_DATA_HOME in a temporary folder, no display) and returns stdout,
// stderr, the exit status and the data folder.
func arbiter(t *testing.T, args string, extraEnv ...string) (string, string, int, string) {
	t.Helper()
	data := filepath.Join(t.TempDir(), "data")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append([]string{"ARBITER_RUN_MAIN=1", "ARBITER_ARGS=" + args, "HOME=" + t.TempDir(), "XDG_DATA_HOME=" + data,
		"PATH=" + os.Getenv("PATH")}, extraEnv...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, data
}

func TestABareArbiterWithoutADisplaySaysSoAndCreatesNoDatabase(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the display check is for Linux and the BSDs")
	}
	out, errs, code, data := arbiter(t, "")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "DISPLAY") {
		t.Errorf("want one line on stderr naming DISPLAY; got stdout %q, stderr %q", out, errs)
	}
	if _, err := os.Stat(data); err == nil {
		t.Errorf("a bare arbiter without a display created %s", data)
	}
}

func TestVersionAndHelpOfTheProgram(t *testing.T) {
	m := regexp.MustCompile(`(?m)^\s*Version = "([^"]+)"\s*\n\s*Build = (\d+)`).FindSubmatch(fyneApp)
	if m == nil {
		t.Fatalf("FyneApp.toml has no Version and Build:\n%s", fyneApp)
	}
	for _, tc := range []struct{ args, want string }{
		{"--version", "arbiter " + string(m[1]) + " (build " + string(m[2]) + ", "},
		{"--help", "Commands:"},
		{"-h", "Commands:"},
		{"help", "Commands:"},
		{"export --help", "arbiter export pdf"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			out, errs, code, data := arbiter(t, tc.args)
			if code != 0 || errs != "" || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0 and %q on stdout", code, out, errs, tc.want)
			}
			if _, err := os.Stat(data); err == nil {
				t.Errorf("%s created %s", tc.args, data)
			}
		})
	}
}
