package report

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/scoresheet"
)

// pdfLabels lists the literal texts the report's code says through its
// label set: the first argument of t.s and t.f (r.t.s, r.t.f).
func pdfLabels(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(gotoken.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "s" && sel.Sel.Name != "f") {
				return true
			}
			if s, ok := literal(call.Args[0]); ok {
				seen[s] = true
			}
			return true
		})
	}
	return slices.Sorted(maps.Keys(seen))
}

// literal is the value of a string literal or a sum of them.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != gotoken.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		a, okA := literal(e.X)
		b, okB := literal(e.Y)
		return a + b, okA && okB && e.Op == gotoken.ADD
	}
	return "", false
}

// The German PDF says every label, incident kind, role and termination
// from the shared dictionary (assets/translations/de.json, the console's),
// with the same arguments: the one check both faces pass.
func TestEveryTextOfTheGermanPDFIsInTheSharedDictionary(t *testing.T) {
	labels := pdfLabels(t)
	if len(labels) < 80 {
		t.Fatalf("found only %d labels in report/: the scan of the sources is broken", len(labels))
	}
	keys := append(labels, match.IncidentKinds()...)
	keys = append(keys, match.IncidentResult, match.IncidentAdjust, match.IncidentCorrect, match.IncidentAmend,
		match.IncidentFlag, match.IncidentRecovery, match.IncidentClaim, match.IncidentPostponed, match.IncidentRuling,
		match.IncidentAppeal, match.IncidentAppealDecision, match.IncidentTechnicalFault, match.IncidentMaintenance,
		match.IncidentOperatorReplaced, match.IncidentArbiterReplaced, match.IncidentTakeback, match.IncidentPenalty,
		match.IncidentForfeit)
	for _, r := range []match.Role{match.RoleArbiter, match.RoleOperator, match.RoleWhite, match.RoleBlack, match.RoleSystem} {
		keys = append(keys, string(r))
	}
	for _, term := range []scoresheet.Termination{scoresheet.TermCheckmate, scoresheet.TermStalemate, scoresheet.TermResignation,
		scoresheet.TermAgreement, scoresheet.TermTimeForfeit, scoresheet.TermDeadPosition, scoresheet.TermArbiter,
		scoresheet.TermForfeit, scoresheet.TermRepetition, scoresheet.TermFiftyMoves} {
		keys = append(keys, string(term))
	}
	phrase.CheckDictionary(t, germanPhrases(), "report", keys)
}
