package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// manifestValue reads a key of a table of FyneApp.toml: a string, or an
// array of strings joined with ";" and ended with one (the .desktop form).
func manifestValue(t *testing.T, table, key string) string {
	t.Helper()
	var in string
	for _, line := range strings.Split(string(fyneApp), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			in = strings.Trim(line, "[]")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || in != table || strings.TrimSpace(k) != key {
			continue
		}
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, "[") {
			var parts []string
			for _, m := range regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(v, -1) {
				parts = append(parts, m[1])
			}
			return strings.Join(parts, ";") + ";"
		}
		return strings.Trim(v, `"`)
	}
	t.Fatalf("FyneApp.toml has no %s in [%s]", key, table)
	return ""
}

// The .desktop file of the Linux release (packaging/) says what
// FyneApp.toml says (the name, the ID as the icon's name, the generic name,
// the comment, the categories, the keywords), starts the program from PATH
// and has the keys the Desktop Entry Specification requires.
func TestTheDesktopFileSaysWhatFyneAppTomlSays(t *testing.T) {
	f, err := os.Open("packaging/org.arbiter.console.desktop")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entry := map[string]string{}
	group := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			group = line
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || group != "[Desktop Entry]" {
				t.Fatalf("a line outside [Desktop Entry] or without '=': %q", line)
			}
			if _, dup := entry[k]; dup {
				t.Fatalf("%s twice", k)
			}
			entry[k] = v
		}
	}
	for _, tc := range []struct{ key, want string }{
		{"Type", "Application"},
		{"Name", manifestValue(t, "Details", "Name")},
		{"Icon", manifestValue(t, "Details", "ID")},
		{"Exec", "arbiter"},
		{"Terminal", "false"},
		{"GenericName", manifestValue(t, "LinuxAndBSD", "GenericName")},
		{"Comment", manifestValue(t, "LinuxAndBSD", "Comment")},
		{"Categories", manifestValue(t, "LinuxAndBSD", "Categories")},
		{"Keywords", manifestValue(t, "LinuxAndBSD", "Keywords")},
	} {
		t.Run(tc.key+" is "+tc.want, func(t *testing.T) {
			if got := entry[tc.key]; got != tc.want {
				t.Errorf("%s=%s, want %s", tc.key, got, tc.want)
			}
		})
	}
	t.Run("the categories name a main category of the specification", func(t *testing.T) {
		main := map[string]bool{"AudioVideo": true, "Audio": true, "Video": true, "Development": true, "Education": true,
			"Game": true, "Graphics": true, "Network": true, "Office": true, "Science": true, "Settings": true, "System": true, "Utility": true}
		for _, c := range strings.Split(strings.TrimSuffix(entry["Categories"], ";"), ";") {
			if main[c] {
				return
			}
		}
		t.Errorf("Categories=%s has no main category", entry["Categories"])
	})
	t.Run("desktop-file-validate accepts it", func(t *testing.T) {
		validate, err := exec.LookPath("desktop-file-validate")
		if err != nil {
			if os.Getenv("ARBITER_REQUIRE_VALIDATORS") == "1" {
				t.Fatal("desktop-file-validate is not installed (ARBITER_REQUIRE_VALIDATORS=1): install desktop-file-utils (make deps-test)")
			}
			t.Skip("desktop-file-validate is not installed (make deps-test installs desktop-file-utils)")
		}
		if out, err := exec.Command(validate, "packaging/org.arbiter.console.desktop").CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("desktop-file-validate: %v\n%s", err, out)
		}
	})
	t.Run("the German entries translate the English ones", func(t *testing.T) {
		for _, k := range []string{"GenericName[de]", "Comment[de]", "Keywords[de]"} {
			if entry[k] == "" {
				t.Errorf("no %s", k)
			}
		}
	})
}

// TestScriptsLookForNothingBesideTheRepositoryUnlessNamed: a fresh clone has
// no ../shared, and where one is beside the repository the scripts of make
// bench, make test and make release must not read it on their own (issue
// 28): a file or folder outside the repository is read only when a variable
// names it (REFERENCE_DATA, CHASOLVER, UNWINNABLE_DATA), never by default.
func TestScriptsLookForNothingBesideTheRepositoryUnlessNamed(t *testing.T) {
	files, err := filepath.Glob("scripts/*.sh")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts/*.sh: %v", err)
	}
	files = append(files, "Makefile")
	outside := regexp.MustCompile(`\$\{[A-Za-z_]+:-(\.\./|~|\$HOME|/work)[^}]*\}`)
	for _, f := range files {
		t.Run(f+" reads nothing outside the repository by default", func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				if code, _, _ := strings.Cut(line, "#"); outside.MatchString(code) {
					t.Errorf("%s:%d: a default outside the repository: %s", f, i+1, strings.TrimSpace(line))
				}
			}
		})
	}
}
