package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestNoPackageOutsideTheCommandLineHoldsItsWords: the command line's words
// (its commands and flags, docs/cli.md) are the command line's alone
// (issue 25): every other face, the core and the stations build, send, sign
// and run commands as values (match.Command). In the Go files of every
// package outside cli/ (tests aside, and the demo and crash-test programs,
// which write scripts for 'arbiter play' and run the program), no string
// literal is a flag word ("--pressed", "--role") and no list of strings
// begins with a command's words ({"move", …}, {"credential", "add", …}).
func TestNoPackageOutsideTheCommandLineHoldsItsWords(t *testing.T) {
	excepted := map[string]bool{"cli": true, "internal/demo": true, "internal/crashtest": true, "build": true}
	first := map[string]bool{} // a command's first word, when it is a command alone
	pairs := map[string]bool{} // a command of two words
	for _, c := range Commands() {
		if w := strings.Fields(c.name); len(w) == 1 {
			first[w[0]] = true
		} else {
			pairs[w[0]+" "+w[1]] = true
		}
	}
	flagWord := regexp.MustCompile(`^--[a-z][a-z-]*(=.*)?$`)
	root := ".."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (excepted[rel] || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		str := func(e ast.Expr) (string, bool) {
			if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
				s, err := strconv.Unquote(b.Value)
				return s, err == nil
			}
			return "", false
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BasicLit:
				if s, ok := str(x); ok && flagWord.MatchString(s) {
					t.Errorf("%s: the flag word %q outside cli/", fs.Position(x.Pos()), s)
				}
			case *ast.CompositeLit:
				at, ok := x.Type.(*ast.ArrayType)
				if !ok || len(x.Elts) == 0 {
					return true
				}
				if id, ok := at.Elt.(*ast.Ident); !ok || id.Name != "string" {
					return true
				}
				w0, ok0 := str(x.Elts[0])
				w1, ok1 := "", false
				if len(x.Elts) > 1 {
					w1, ok1 = str(x.Elts[1])
				}
				if ok0 && ((ok1 && pairs[w0+" "+w1]) || (first[w0] && len(x.Elts) <= 3 && !ok1)) {
					t.Errorf("%s: a command's words %q… outside cli/", fs.Position(x.Pos()), w0)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: the walk missed the module", checked)
	}
}
