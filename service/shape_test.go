package service

import (
	"os/exec"
	"strings"
	"testing"
)

// The faces reach the core through this package: cli/ and gui/ never import
// each other, and never store/ (their tests may, to build fixtures).
func TestFacesImportOnlyTheService(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "arbiter/cli", "arbiter/gui").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	forbidden := map[string][]string{
		"arbiter/cli": {"arbiter/gui", "arbiter/store"},
		"arbiter/gui": {"arbiter/cli", "arbiter/store"},
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		seen++
		has := map[string]bool{}
		for _, imp := range strings.Fields(imports) {
			has[imp] = true
		}
		if !has["arbiter/service"] {
			t.Errorf("%s does not import arbiter/service: the scan is broken or the face bypasses the service", pkg)
		}
		for _, f := range forbidden[pkg] {
			if has[f] {
				t.Errorf("%s imports %s: go through package service instead", pkg, f)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("go list listed %d packages, want cli and gui:\n%s", seen, out)
	}
}
