package station

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStationDoesNotImportServiceNorAFace: package station is below the
// faces' service layer (issue 25): it takes its time source from
// internal/timesource and runs commands through package match, so that
// service (what the faces share) may build on it. The import graph of its
// own files, followed through the module's packages, reaches neither
// service, nor cli, nor gui.
func TestStationDoesNotImportServiceNorAFace(t *testing.T) {
	forbidden := []string{"arbiter/service", "arbiter/cli", "arbiter/gui"}
	seen := map[string]string{} // package -> the package that imported it
	var visit func(pkg, from string)
	visit = func(pkg, from string) {
		if _, ok := seen[pkg]; ok {
			return
		}
		seen[pkg] = from
		for _, f := range forbidden {
			if pkg == f || strings.HasPrefix(pkg, f+"/") {
				t.Errorf("arbiter/station reaches %s (imported by %s)", pkg, from)
			}
		}
		dir := filepath.Join("..", strings.TrimPrefix(strings.TrimPrefix(pkg, "arbiter"), "/"))
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files in %s", pkg, dir)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if p == "arbiter" || strings.HasPrefix(p, "arbiter/") {
					visit(p, pkg)
				}
			}
		}
	}
	if _, err := os.Stat("station.go"); err != nil {
		t.Fatal(err)
	}
	visit("arbiter/station", "")
	if len(seen) < 4 {
		t.Fatalf("only %d packages followed: the walk did not find the module's packages", len(seen))
	}
}
