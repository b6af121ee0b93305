package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"arbiter/engine"
	"arbiter/match"

	"arbiter/internal/phrase"
	"arbiter/service"
)

func TestSentenceIsOneCapitalisedSentence(t *testing.T) {
	upper := map[string]string{"%s is in check": "über %s: Schach", "Black": "Schwarz"}
	tr := func(s string) string {
		if t, ok := upper[s]; ok {
			return t
		}
		return s
	}
	for _, tc := range []struct {
		name string
		err  error
		tr   func(string) string
		want string
	}{
		{"the first letter is capitalised and a full stop added", errors.New("no game is in progress"), nil, "No game is in progress."},
		{"a sentence starting with a move keeps it as written", errors.New("e4 is not legal"), nil, "e4 is not legal."},
		{"a sentence ending in a parenthesis takes its full stop after it", errors.New("wait (6.6)"), nil, "Wait (6.6)."},
		{"a translated sentence starting with an umlaut is capitalised whole", phrase.Errorf("%s is in check", phrase.Word("Black")), tr, "Über Schwarz: Schach."},
		{"an empty error says so", errors.New(" "), nil, "unknown error."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Sentence(tc.err)
			if tc.tr != nil {
				got = phrase.Sentence(tc.err, tc.tr)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// Every refusal the core leaves to the faces (a match.Code in
// match/errors.go, service/codes.go) has the command line's words in words.go, taking the
// arguments the console's words (assets/translations/en.json) take, in the
// same order: the two faces say the same refusal with the same facts.
func TestTheCommandLineWordsEveryCodedRefusal(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "assets", "translations", "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	var console map[string]string
	if err := json.Unmarshal(data, &console); err != nil {
		t.Fatal(err)
	}
	// the codes whose English every face shares (the shared dictionary's)
	neutral := map[match.Code]bool{match.CodeInvalid: true, match.CodeForbidden: true, match.CodeWrongCredential: true, match.CodeTooManyWrong: true}
	for _, c := range append(append(service.SharedCodes, match.SharedCodes...), engine.RefusalCodes()...) {
		neutral[c] = true
	}
	n := 0
	for _, name := range []string{filepath.Join("..", "match", "errors.go"), filepath.Join("..", "service", "codes.go"), filepath.Join("..", "engine", "refusals.go")} {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			v, ok := node.(*ast.ValueSpec)
			if !ok {
				return true
			}
			if id, ok := v.Type.(*ast.Ident); ok && id.Name != "Code" || !ok && fmt.Sprint(v.Type) != "&{match Code}" {
				return true
			}
			for _, x := range v.Values {
				s, err := strconv.Unquote(x.(*ast.BasicLit).Value)
				if err != nil {
					continue
				}
				w, ok := words[s]
				if !ok && neutral[match.Code(s)] {
					continue // worded alike by every face: the shared dictionary's
				}
				n++
				if !ok {
					t.Errorf("words.go has no words for the refusal %q", s)
					continue
				}
				if c, l := phrase.Verbs(w), phrase.Verbs(console[s]); !slices.Equal(c, l) {
					t.Errorf("the refusal %q takes %v on the command line and %v in the console", s, c, l)
				}
			}
			return true
		})
	}
	if n < 40 {
		t.Fatalf("found only %d codes: the scan of match/errors.go is broken", n)
	}
	coded := 0
	for k := range words {
		if !strings.Contains(k, " ") {
			coded++
		}
	}
	if n != coded {
		t.Errorf("words.go words %d refusals, match/errors.go, service/codes.go and engine/refusals.go have %d codes", coded, n)
	}
}
