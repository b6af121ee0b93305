package gui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestNoActionOfTheConsoleAsksWhichExecutorRunsIt: every key, click and
// dialog builds a command's value and gives it (give); only the executor
// decides whether the core here or a station's authority runs it (issue
// 25: no per-action branch on forwarding). In the console's own files, only
// these functions ask whether the console forwards (forwards), or name an
// executor (runHere, sendToAuthority, sendFor): the choice itself, the
// link's preparation, and the arbiter-mode PIN check, which on a station is
// reported to the authority rather than run as a command.
func TestNoActionOfTheConsoleAsksWhichExecutorRunsIt(t *testing.T) {
	allowed := map[string]bool{"executor": true, "forwards": true, "prepareLink": true, "checkArbiterPIN": true,
		"sendToAuthority": true, "sendFor": true, "runHere": true}
	asks := map[string]bool{"forwards": true, "runHere": true, "sendToAuthority": true, "sendFor": true}
	var found []string
	consoleFuncs(t, func(fs *token.FileSet, fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && asks[sel.Sel.Name] {
				found = append(found, fd.Name.Name)
				if !allowed[fd.Name.Name] {
					t.Errorf("%s: %s asks which executor runs the console's commands (%s)", fs.Position(sel.Pos()), fd.Name.Name, sel.Sel.Name)
				}
			}
			return true
		})
	})
	sort.Strings(found)
	if len(found) < 3 {
		t.Fatalf("only %v found: the check reads nothing", found)
	}
}

// consoleFuncs calls fn with every function with a body in the package's
// own files (not its tests): what the source checks of the console read.
func consoleFuncs(t *testing.T, fn func(fs *token.FileSet, fd *ast.FuncDecl)) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				fn(fs, fd)
			}
		}
	}
}
