package gui

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/engine"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/service"
	"arbiter/station"
	"arbiter/store"
)

// dictionary is translations/LANGUAGE.json.
func dictionary(t *testing.T, language string) map[string]string {
	t.Helper()
	name := "translations/" + language + ".json"
	data, err := translations.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]string
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d
}

// checkGerman fails on each key without a German entry, or whose entry
// takes other printf arguments (phrase.CheckDictionary, the check the PDF's
// labels pass too).
func checkGerman(t *testing.T, keys []string) {
	t.Helper()
	phrase.CheckDictionary(t, dictionary(t, "de"), "", keys)
}

// goFiles parses the non-test Go files of dir.
func goFiles(t *testing.T, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// stringLit is the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(b.Value)
	return s, err == nil
}

// phrasesIn lists the English formats and words that the packages in dirs
// hand to users as phrases: the first argument of refuse, forbid and
// phrase.Errorf, the actions given to mayActFor, the methods given to refuseNegative, the subjects given to checkText, the literals made
// phrase.Words (by conversion or as map keys), the literals returned by
// functions that return a phrase.Word, and the values of the constants of
// the types that translate themselves (GameState, Role, Termination).
func phrasesIn(t *testing.T, dirs ...string) []string {
	t.Helper()
	seen := map[string]bool{}
	add := func(lit ast.Expr) {
		if s, ok := stringLit(lit); ok {
			seen[s] = true
		}
	}
	isWord := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Word" && sel.X.(*ast.Ident).Name == "phrase"
	}
	for _, dir := range dirs {
		for _, f := range goFiles(t, filepath.Join("..", dir)) {
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.CallExpr:
					switch fun := x.Fun.(type) {
					case *ast.Ident:
						switch fun.Name {
						case "refuse", "forbid", "checkText", "computerMatch":
							add(x.Args[0])
						case "notHumansTurn":
							add(x.Args[0])
							add(x.Args[1])
						}
					case *ast.SelectorExpr:
						if id, ok := fun.X.(*ast.Ident); ok && id.Name == "phrase" && fun.Sel.Name == "Errorf" && len(x.Args) > 0 {
							add(x.Args[0])
						}
						if fun.Sel.Name == "mayActFor" && len(x.Args) == 3 {
							add(x.Args[2])
						}
						if fun.Sel.Name == "refuseNegative" && len(x.Args) == 1 {
							add(x.Args[0])
						}
						if isWord(fun) && len(x.Args) == 1 {
							add(x.Args[0])
						}
					}
				case *ast.FuncDecl:
					if r := x.Type.Results; r != nil && len(r.List) == 1 && isWord(r.List[0].Type) {
						ast.Inspect(x.Body, func(n ast.Node) bool {
							if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
								add(ret.Results[0])
							}
							return true
						})
					}
				case *ast.CompositeLit:
					if m, ok := x.Type.(*ast.MapType); ok && isWord(m.Key) {
						for _, el := range x.Elts {
							add(el.(*ast.KeyValueExpr).Key)
						}
					}
				case *ast.ValueSpec:
					if id, ok := x.Type.(*ast.Ident); ok && (id.Name == "GameState" || id.Name == "Role" || id.Name == "Termination") {
						for _, v := range x.Values {
							add(v)
						}
					}
				case *ast.AssignStmt:
					// both = "all", king = "the black king": literals assigned
					// to a variable first declared as a phrase.Word
					if x.Tok != token.ASSIGN || len(x.Lhs) != len(x.Rhs) {
						break
					}
					for i, lhs := range x.Lhs {
						id, ok := lhs.(*ast.Ident)
						if !ok || id.Obj == nil {
							continue
						}
						decl, ok := id.Obj.Decl.(*ast.AssignStmt)
						if !ok || len(decl.Lhs) != len(decl.Rhs) {
							continue
						}
						for j, l := range decl.Lhs {
							if d, ok := l.(*ast.Ident); ok && d.Name == id.Name {
								if c, ok := decl.Rhs[j].(*ast.CallExpr); ok && isWord(c.Fun) {
									add(x.Rhs[i])
								}
							}
						}
					}
				}
				return true
			})
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func TestEveryRefusalHasAGermanTranslationWithTheSameArguments(t *testing.T) {
	keys := phrasesIn(t, "match", "scoresheet", "cli", "service", "unwinnable")
	// joinOr and the role lists build these from a conjunction, the piece
	// plurals add an s, draw answers are made from the command's name
	keys = append(keys, "%s and %s", "%s or %s", "kings", "queens", "rooks", "bishops", "knights", "pawns", "pieces",
		"accept the draw", "decline the draw")
	if len(keys) < 100 {
		t.Fatalf("found only %d phrases in match/ and scoresheet/: the scan of the sources is broken", len(keys))
	}
	// "%s" alone passes a sentence made elsewhere
	checkGerman(t, slices.DeleteFunc(keys, func(k string) bool { return strings.Join(phrase.Verbs(k), "") == k }))
}

func TestARefusalIsShownInTheConsolesLanguage(t *testing.T) {
	de := dictionary(t, "de")
	german := func(s string) string {
		if tr, ok := de[s]; ok {
			return tr
		}
		return s
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"a word argument is translated", phrase.Errorf("%s is not legal for %s: no %s can reach %s", "Nf6", phrase.Word("White"), phrase.Word("knight"), "f6"),
			"Nf6 ist für Weiß nicht legal: Springer nach f6 ist nicht möglich."},
		{"a nested phrase is translated", phrase.Errorf("%s is not legal for %s: %s", "O-O", phrase.Word("Black"), phrase.Errorf("%s is in check", phrase.Word("Black"))),
			"O-O ist für Schwarz nicht legal: Schwarz steht im Schach."},
		{"a plain string argument stays as typed", phrase.Errorf("both players are called %q: give two different names", "Deep Blue"),
			`Beide Spieler heißen "Deep Blue": geben Sie zwei verschiedene Namen an.`},
		{"an unknown format stays English", phrase.Errorf("no such %s", phrase.Word("White")),
			"No such Weiß."},
		{"an error without a phrase stays as it is", errors.New("disk on fire"), "Disk on fire."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := phrase.Sentence(tc.err, german); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// inGerman runs the rest of the test with the console's dictionary in
// German, as under LANG=de_DE.UTF-8, and restores the language after.
func inGerman(t *testing.T) {
	t.Helper()
	// cleanups run last added first: registered before t.Setenv's, this
	// one runs after the variables were restored, and reloads the
	// localizer for the language they say
	t.Cleanup(func() { _ = loadTranslations() })
	for _, k := range []string{"LANGUAGE", "LC_ALL", "LANG"} {
		t.Setenv(k, "de_DE.UTF-8")
	}
	if err := loadTranslations(); err != nil { // reloads the localizer for the locale
		t.Fatal(err)
	}
}

func TestTheGermanConsoleRefusesInGerman(t *testing.T) {
	inGerman(t)
	if got := lang.L("Not done"); got == "Not done" {
		t.Fatalf("the dictionary did not switch to German (%q)", got)
	}
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(time.Second)
	t.Run("an illegal move gives its reason in German, one sentence with its full stop after the parenthesis", func(t *testing.T) {
		h.typeMove("Ke2")
		if want := "Ke2 ist für Weiß nicht legal: auf e2 steht schon eine Figur von Weiß (Bauer)."; h.c.moveErr.Text != want {
			t.Errorf("under the move field: %q, want %q", h.c.moveErr.Text, want)
		}
	})
	t.Run("a refusal in a dialog is German too", func(t *testing.T) {
		h.c.moveEntry.SetText("")
		h.c.showError(errOf(h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, match.Resume{})))
		if want := "Eine Uhr läuft bereits."; refusalShown(h.c) != want {
			t.Errorf("dialog says %q, want %q", refusalShown(h.c), want)
		}
	})
}

// The console is laid out for a 1280×800 screen (docs/console.md): its
// labels in either language, and any refusal under the move field, must not
// make the window wider than that.
func TestTheConsoleFits1280PixelsInEveryLanguage(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		for _, role := range []match.Role{match.RoleOperator, match.RoleArbiter} {
			t.Run(language+"/"+string(role), func(t *testing.T) {
				if language == "de" {
					inGerman(t)
				}
				h := newHarness(t, role, "")
				h.newMatch("acm1996", "")
				h.c.do(actStartGame)
				h.ft.advance(time.Second)
				h.c.mode = match.RoleArbiter // the arbiter enters both sides' moves
				h.c.refresh()
				h.typeMove("Ke2") // a long refusal: the square is taken by a pawn
				if h.c.moveErr.Text == "" {
					t.Fatal("Ke2 was not refused")
				}
				// and the longest flag lines: both flags fallen, order unknown
				h.ft.advance(2 * time.Hour)
				h.c.moveEntry.SetText("")
				h.typeMove("e4")
				h.key(fyne.KeyReturn) // after White's flag: the arbiter confirms
				h.ft.advance(2*time.Hour + time.Minute)
				h.typeMove("e5")
				h.key(fyne.KeyReturn)
				h.typeMove("Ke2") // the long refusal again, now beside the flags
				if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, match.Flag{Side: "both", OrderUnknown: true}); err != nil {
					t.Fatal(err)
				}
				if h.c.clocks[0].notes[0].Text == "" {
					t.Fatal("no note on the fallen flags")
				}
				h.c.mode = role
				h.c.refresh()
				h.c.win.Content().Refresh()
				for _, cv := range h.c.clocks {
					if w, have := fyne.MeasureText(cv.flag.Text, cv.flag.TextSize, cv.flag.TextStyle).Width, cv.obj.Size().Width-4*theme.Padding(); w > have {
						t.Errorf("the flag line %q needs %.0f px; its clock has %.0f", cv.flag.Text, w, have)
					}
				}
				// the window pads its content on both sides
				if w := h.c.win.Content().MinSize().Width + 2*theme.Padding(); w > 1280 {
					t.Errorf("the console needs %.0f px of width; the screen has 1280", w)
					for id, b := range h.c.buttons {
						t.Logf("button %s %q: %.0f px", id, b.Text, b.MinSize().Width)
					}
				}
			})
		}
	}
}

// Both dictionaries hold the same keys. en.json maps the console's own
// texts to themselves and a refusal's code (match.Code) to the console's
// words for it; a neutral sentence of the core may still be reworded for
// the console, with the same arguments.
func TestBothDictionariesHoldTheSameTexts(t *testing.T) {
	de, en := dictionary(t, "de"), dictionary(t, "en")
	core := map[string]bool{}
	for _, k := range phrasesIn(t, "match", "scoresheet", "cli", "service", "unwinnable") {
		core[k] = true
	}
	codes := map[string]bool{}
	for _, c := range matchCodes(t) {
		codes[c] = true
	}
	for _, c := range clock.Codes() {
		codes[string(c)] = true // the clock's refusals, worded by the shared dictionary
	}
	for _, c := range service.RefusalCodes() {
		codes[string(c)] = true // the service's own, likewise
	}
	for _, c := range station.RefusalCodes() {
		codes[string(c)] = true // and the station's
	}
	for _, c := range station.AlarmCodes() {
		codes[string(c)] = true // and its alarm's and head refusals' (station/alarms.go)
	}
	for _, c := range store.RefusalCodes() {
		codes[string(c)] = true // and the store's
	}
	for _, c := range store.ProblemCodes() {
		codes[string(c)] = true // the chain's problems (store/problems.go)
	}
	for _, c := range match.ProblemCodes() {
		codes[string(c)] = true // and the record's beyond it (match/problems.go)
	}
	for _, c := range engine.ProblemCodes() {
		codes[string(c)] = true // and an engine transcript's (engine/verify.go)
	}
	for _, c := range append(engine.RefusalCodes(), engine.FaceCodes()...) {
		codes[string(c)] = true // and the engine bridge's
	}
	kinds := map[string]bool{}
	for _, k := range match.IncidentKinds() {
		kinds[k] = true
	}
	for k, v := range en {
		_, text, inContext := strings.Cut(k, "|")
		switch {
		case v == k:
		case inContext && v == text: // a face's own word in a context ("report|Reason": the PDF's)
		case codes[k]: // the console's words for a refusal (TestTheConsoleWordsEveryCodedRefusalItself)
		case kinds[kindOf(k)] && v == kindName(kindOf(k)):
			// an incident kind by its name, not its identifier ("technical-fault" → "technical fault")
		case !core[k]:
			t.Errorf("en.json maps %q to %q; the console's own English texts map to themselves", k, v)
		case !slices.Equal(phrase.Verbs(k), phrase.Verbs(v)):
			t.Errorf("en.json rewords %q as %q with other arguments", k, v)
		}
		if _, ok := de[k]; !ok {
			t.Errorf("de.json lacks %q, which en.json has", k)
		}
	}
	for k := range de {
		if _, ok := en[k]; !ok {
			t.Errorf("en.json lacks %q, which de.json has: Fyne would log a failed lookup in English", k)
		}
	}
}

// kindOf is the text of a dictionary key without its context
// ("report|clock-replaced" → "clock-replaced").
func kindOf(key string) string {
	if _, text, ok := strings.Cut(key, "|"); ok {
		return text
	}
	return key
}

// kindName is an incident kind's English name: its identifier in words.
func kindName(kind string) string {
	if kind == "time-info" {
		return "time information"
	}
	return strings.ReplaceAll(kind, "-", " ")
}

func TestARefusalInAFormDialogCoversNoField(t *testing.T) {
	for _, tc := range []struct {
		name   string
		action actionID
		setup  func(h *harness)
		fill   func(t *testing.T, entries []*formEntry) // then Enter submits
	}{
		{"a PIN too short (two lines in German)", actNewMatch, func(h *harness) {},
			func(t *testing.T, entries []*formEntry) {
				for _, e := range entries {
					if e.Password {
						test.Type(e, "12")
					}
				}
			}},
		{"a forfeit before the next game is scheduled (three lines)", actForfeit, func(h *harness) {
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, match.Decide{Result: "1/2-1/2", Reason: "the test needs a finished game"}); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, entries []*formEntry) {
			test.Type(entries[len(entries)-1], "did not arrive")
		}},
	} {
		for _, language := range []string{"en", "de"} {
			t.Run(tc.name+"/"+language, func(t *testing.T) {
				if language == "de" {
					inGerman(t)
				}
				h := newHarness(t, match.RoleArbiter, "")
				tc.setup(h)
				h.c.do(tc.action)
				top := h.c.win.Canvas().Overlays().Top()
				var entries []*formEntry
				for _, o := range test.LaidOutObjects(top) {
					if e, ok := o.(*formEntry); ok {
						entries = append(entries, e)
					}
				}
				if len(entries) == 0 {
					t.Fatal("the dialog has no field")
				}
				tc.fill(t, entries)
				h.c.win.Canvas().Focus(entries[len(entries)-1])
				h.key(fyne.KeyReturn)
				abs := fyne.CurrentApp().Driver().AbsolutePositionForObject
				var refusal *widget.Label
				lowest := float32(0) // the bottom of the lowest field
				for _, o := range test.LaidOutObjects(top) {
					switch w := o.(type) {
					case *widget.Label:
						if w.Importance == widget.DangerImportance && w.Visible() {
							refusal = w
						}
					case *formEntry, *widget.Select, *widget.SelectEntry, *widget.RadioGroup:
						lowest = max(lowest, abs(w).Y+w.Size().Height)
					}
				}
				if refusal == nil {
					t.Fatal("nothing was refused in the dialog")
				}
				if y := abs(refusal).Y; y < lowest {
					t.Errorf("the refusal %q starts at y=%.0f, above the bottom of the fields (%.0f): it covers a field", refusal.Text, y, lowest)
				}
				if h, min := refusal.Size().Height, refusal.MinSize().Height; h < min {
					t.Errorf("the refusal has %.0f px for %.0f px of text", h, min)
				}
			})
		}
	}
}

// consoleTexts lists the literal texts the console's own code looks up:
// the first argument of lang.L, tr and translate, and the labels of the
// actions (menus, shortcuts, buttons).
func consoleTexts(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range goFiles(t, ".") {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			lookup := false
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				lookup = fun.Name == "tr" || fun.Name == "translate"
			case *ast.SelectorExpr:
				id, ok := fun.X.(*ast.Ident)
				lookup = ok && id.Name == "lang" && (fun.Sel.Name == "L" || fun.Sel.Name == "X")
			}
			if s, ok := stringLit(call.Args[0]); lookup && ok {
				seen[s] = true
			}
			return true
		})
	}
	for _, a := range actions {
		seen[a.label] = true
		seen[a.menu] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

func TestEveryConsoleTextHasAGermanTranslation(t *testing.T) {
	texts := consoleTexts(t)
	if len(texts) < 150 {
		t.Fatalf("found only %d texts in gui/: the scan of the sources is broken", len(texts))
	}
	checkGerman(t, texts)
}

func TestTheCorrectionDialogsButtonsFitTheirColumnsInGerman(t *testing.T) {
	inGerman(t)
	h := correctionGame(t)
	cd := openCorrection(t, h)
	for _, m := range []string{match.MethodRecord, match.MethodProportional, match.MethodKeep, match.MethodSet} {
		b := cd.cols[m].choose
		if need, have := b.MinSize().Width, b.Size().Width; need > have {
			t.Errorf("the button %q needs %.0f px, its column gives it %.0f", b.Text, need, have)
		}
	}
}

// The audience display (Article 6.14) opens at 1280×720 for a projector: in
// either language its board and clocks must fit that width.
func TestTheAudienceDisplayFits1280PixelsInEveryLanguage(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		t.Run(language, func(t *testing.T) {
			if language == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			for _, mv := range game1996Plies[:20] {
				h.ft.advance(time.Second)
				h.typeMove(mv)
			}
			h.c.do(actAudience)
			a := h.c.audience
			if a == nil {
				t.Fatal("no audience window")
			}
			if w := a.win.Content().MinSize().Width + 2*theme.Padding(); w > 1280 {
				t.Errorf("the audience display needs %.0f px of width; the projector has 1280 (period line %q)", w, a.clocks[0].info.Text+" "+a.clocks[0].toGo.Text)
			}
		})
	}
}

func TestRuleReferencesAreSaidInTheConsolesLanguage(t *testing.T) {
	inGerman(t)
	for in, want := range map[string]string{"rule 19": "Regel 19", "rules 6, 7, 12": "Regeln 6, 7, 12", "6.12b": "6.12b", "": ""} {
		if got := ruleText(in); got != want {
			t.Errorf("ruleText(%q) = %q, want %q", in, got, want)
		}
	}
}

// A refusal the console shows names keys and menus, not the command line's
// flags: every refusal of the core that each face words itself (a
// match.Code, found in match/errors.go) has the console's words in en.json
// and de.json, with the same arguments in both, and none of them names a
// flag ("--reason") or a command ('game start').
func TestTheConsoleWordsEveryCodedRefusalItself(t *testing.T) {
	de, en := dictionary(t, "de"), dictionary(t, "en")
	codes := matchCodes(t)
	if len(codes) < 40 {
		t.Fatalf("found only %d codes in match/errors.go: the scan is broken", len(codes))
	}
	for _, code := range codes {
		for lang, v := range map[string]string{"en": en[code], "de": de[code]} {
			if v == "" {
				t.Errorf("%s.json has no words for the refusal %q", lang, code)
			}
			if strings.Contains(v, "--") || regexp.MustCompile(`'[a-z]+( [a-z-]+)*'`).MatchString(v) {
				t.Errorf("%s.json says %q as %q: name the console's keys or menus instead", lang, code, v)
			}
		}
		if e, d := phrase.Verbs(en[code]), phrase.Verbs(de[code]); !slices.Equal(e, d) {
			t.Errorf("the refusal %q takes arguments %v in English and %v in German", code, e, d)
		}
	}
}

// isCode is the type Code or match.Code.
func isCode(e ast.Expr) bool {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		return sel.Sel.Name == "Code"
	}
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "Code"
}

// matchCodes are the values of the match.Code constants in match/errors.go
// and service/codes.go that faces word themselves (not the neutral kinds).
func matchCodes(t *testing.T) []string {
	t.Helper()
	neutral := map[string]bool{"invalid": true, "forbidden": true, "wrong-credential": true, "too-many-wrong-credentials": true}
	var codes []string
	for _, name := range []string{filepath.Join("..", "match", "errors.go"), filepath.Join("..", "service", "codes.go")} {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if v, ok := n.(*ast.ValueSpec); ok && isCode(v.Type) {
				for _, x := range v.Values {
					if s, ok := stringLit(x); ok && !neutral[s] {
						codes = append(codes, s)
					}
				}
			}
			return true
		})
	}
	return codes
}

func TestTheConsoleSaysARefusalInItsOwnWordsInBothLanguages(t *testing.T) {
	for _, tc := range []struct{ language, want string }{
		{"en", "Give a reason: say why the arbiter decides."},
		{"de", "Ein Grund fehlt: geben Sie an, warum der Schiedsrichter so entscheidet."},
	} {
		t.Run(tc.language, func(t *testing.T) {
			if tc.language == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			_, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, match.Decide{Result: "1-0", Reason: ""})
			if err == nil {
				t.Fatal("a result without a reason was accepted")
			}
			if got := sentence(err); got != tc.want {
				t.Errorf("the console says %q, want %q", got, tc.want)
			}
			if got := match.ErrorCode(err); got != match.CodeResultNeedsReason {
				t.Errorf("the refusal's code is %q, want %q", got, match.CodeResultNeedsReason)
			}
		})
	}
}

// At a larger text size (View → Larger text, for projection) the action bar
// wraps to a second row rather than pushing buttons out of the window, in
// both languages. (The clocks' name lines still widen the window at larger
// sizes; the bar no longer does.)
func TestTheActionBarWrapsAtLargerTextSizes(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		t.Run(language, func(t *testing.T) {
			if language == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleOperator, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			h.c.setScale(1.2)
			t.Cleanup(func() { h.c.setScale(1) })
			h.c.refresh()
			h.c.win.Content().Refresh()
			abs := fyne.CurrentApp().Driver().AbsolutePositionForObject
			size := h.c.win.Canvas().Size()
			rows := map[float32]bool{}
			for id, b := range h.c.buttons {
				p := abs(b)
				rows[p.Y] = true
				if p.X+b.Size().Width > size.Width || p.Y+b.Size().Height > size.Height {
					t.Errorf("button %s %q at %v size %v lies outside the %v window", id, b.Text, p, b.Size(), size)
				}
			}
			if len(rows) < 2 {
				t.Errorf("the bar has %d row(s) at 120 %% text; it should wrap", len(rows))
			}
		})
	}
}

// The engine bridge's refusals that name the command line's flags are
// worded by the console itself, in English and German with the same
// arguments, naming no flag (engine.FaceCodes).
func TestTheConsoleWordsTheEngineBridgesRefusalsItself(t *testing.T) {
	de, en := dictionary(t, "de"), dictionary(t, "en")
	for _, code := range engine.FaceCodes() {
		c := string(code)
		for lang, v := range map[string]string{"en": en[c], "de": de[c]} {
			if v == "" || strings.Contains(v, "--") {
				t.Errorf("%s.json says %q as %q: the console's words, naming no flag", lang, c, v)
			}
		}
		if e, d := phrase.Verbs(en[c]), phrase.Verbs(de[c]); !slices.Equal(e, d) {
			t.Errorf("the refusal %q takes arguments %v in English and %v in German", c, e, d)
		}
	}
}
