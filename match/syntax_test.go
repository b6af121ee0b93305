package match

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The core speaks no face's language: no string in match/ or store/ (a refusal, a
// warning, a report's problem) names a command-line flag ("--pin") or an
// arbiter command ('arbiter backup'). A refusal whose words differ by face
// is a Code (errors.go) that each face words in its own table.
func TestNoRefusalInTheCoreNamesTheCommandLine(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	// the store's errors too: the faces word its failures (service/codes.go)
	more, err := filepath.Glob(filepath.Join("..", "store", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, more...)
	checked := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		tags := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if fl, ok := n.(*ast.Field); ok && fl.Tag != nil {
				tags[fl.Tag] = true
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			b, ok := n.(*ast.BasicLit)
			if !ok || b.Kind != token.STRING || tags[b] {
				return true
			}
			s, err := strconv.Unquote(b.Value)
			if err != nil {
				return true
			}
			checked++
			for _, bad := range []string{"--", "'arbiter "} {
				if strings.Contains(s, bad) {
					t.Errorf("%s: %q names the command line (%q): give the refusal a Code and the words to cli/words.go and the console's translations", fset.Position(b.Pos()), s, bad)
				}
			}
			return true
		})
	}
	if checked < 300 {
		t.Fatalf("checked only %d strings in match/: the scan is broken", checked)
	}
}
