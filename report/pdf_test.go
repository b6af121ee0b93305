package report_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"arbiter/match"
	"arbiter/report"
	"arbiter/store"
)

// pdfText renders a PDF and extracts its text with pdftotext.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin := requireTool(t, "pdftotext")
	p := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(p, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-layout", "-enc", "UTF-8", p, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

func writePDF(t *testing.T, st *match.State, head string, o report.PDFOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.WritePDF(&b, st, head, o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPDFContent(t *testing.T) {
	st, head := loadState(t, sixGames(t))
	tests := []struct {
		name string
		opts report.PDFOptions
		want []string
	}{
		{"the English report names the players, the results, the moves, the incidents and the fingerprint", report.PDFOptions{}, []string{
			"ACM Chess Challenge 1996", "Garry Kasparov", "Deep Blue", "operators: Feng-hsiung Hsu", "Mike Valvo",
			"Carol Whitfield", "Garry Kasparov wins the match 4–2", "resignation", "agreement", "1/2-1/2",
			"♘f3", "♖xh7+", "e1=♕", "(=)", "control at move 40", "technical fault", "Deep Blue's system stopped", "photographers' flashes",
			"Incident log", "SIGNATURES FOR GAME 1", "Rulings, appeals and corrections", head, "arbiter verify --head " + head,
			"Started 1996-02-10 15:00 EST", "Ended 1996-02-14 19:43 EST", "1996-02-10 – 1996-02-17", "Time zone", "America/New_York", "Time (EST)", "Clock adjustments and bonuses",
			"console brought in step", "Fingerprint of the record",
		}},
		{"the German report has German labels", report.PDFOptions{Lang: "de"}, []string{
			"Wettkampfbericht", "Partieformular", "Zeitkontrolle nach Zug 40", "Garry Kasparov gewinnt den Wettkampf 4–2",
			"Aufgabe", "Schiedsrichter", "UNTERSCHRIFTEN ZU PARTIE 4", head,
			"Beginn 14.02.1996 15:00 EST", "Zeitzone", "Zeit (EST)", "technische Störung", "Uhrkorrekturen und Zeitgutschriften",
			"Sf3", "Txh7+", "e1=D", "Unterbrechung", "Fortsetzung", "Remis abgelehnt", "Regel 8/14", "Uhren angehalten",
			"Garry Kasparov hat aufgegeben", "1-0 (Aufgabe): Garry", "die Uhr von Schwarz läuft wieder", "Deep Blue lehnt das Remisangebot ab",
		}},
		{"a one-game report holds that game only", report.PDFOptions{Game: 5, Paper: "letter"}, []string{
			"Game 5: Deep Blue – Garry Kasparov", "declines the draw offer", head,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := pdfText(t, writePDF(t, st, head, tc.opts))
			for _, w := range tc.want {
				if !strings.Contains(text, w) && !cellText(text, w) {
					t.Errorf("the report lacks %q", w)
				}
			}
			if tc.opts.Lang == "de" && strings.ContainsAny(text, "♘♗♖♕") {
				t.Errorf("the German report prints figurines, not the German piece letters")
			}
			if tc.opts.Game == 5 && strings.Contains(text, "Game 4:") {
				t.Errorf("the report of game 5 shows game 4")
			}
		})
	}
}

func TestPDFPagesRender(t *testing.T) {
	st, head := loadState(t, sixGames(t))
	ppm := requireTool(t, "pdftoppm")
	info := requireTool(t, "pdfinfo")
	for _, paper := range []string{"a4", "letter"} {
		t.Run("every "+paper+" page renders", func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "r.pdf")
			if err := os.WriteFile(p, writePDF(t, st, head, report.PDFOptions{Paper: paper}), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(info, p).CombinedOutput()
			if err != nil {
				t.Fatalf("pdfinfo: %v: %s", err, out)
			}
			pages := 0
			for _, l := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(l, "Pages:"); ok {
					pages, _ = strconv.Atoi(strings.TrimSpace(v))
				}
			}
			if pages < 8 {
				t.Fatalf("the 6-game report has %d pages; want a cover, each game and the appendix", pages)
			}
			if out, err := exec.Command(ppm, "-r", "20", "-png", p, filepath.Join(dir, "pg")).CombinedOutput(); err != nil || len(out) > 0 {
				t.Fatalf("pdftoppm: %v: %s", err, out)
			}
			pngs, _ := filepath.Glob(filepath.Join(dir, "pg*.png"))
			if len(pngs) != pages {
				t.Errorf("pdftoppm rendered %d of %d pages", len(pngs), pages)
			}
		})
	}
}

func TestPDFIsDeterministic(t *testing.T) {
	st, head := loadState(t, sixGames(t))
	a := writePDF(t, st, head, report.PDFOptions{})
	b := writePDF(t, st, head, report.PDFOptions{})
	if !bytes.Equal(a, b) {
		t.Errorf("two exports of the same record differ (%d and %d bytes)", len(a), len(b))
	}
}

func TestWritePDFRefuses(t *testing.T) {
	st, head := loadState(t, sixGames(t))
	tests := []struct {
		name string
		st   *match.State
		opts report.PDFOptions
		want string
	}{
		{"no match, no report", match.NewState(), report.PDFOptions{}, "no match"},
		{"an unknown paper size is named", st, report.PDFOptions{Paper: "a3"}, `"a3"`},
		{"an unknown language is named", st, report.PDFOptions{Lang: "fr"}, `"fr"`},
		{"a game beyond the match is refused", st, report.PDFOptions{Game: 7}, "no game 7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := report.WritePDF(&bytes.Buffer{}, tc.st, head, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("WritePDF: %v; want an error about %s", err, tc.want)
			}
		})
	}
}

func TestExportPDFCommand(t *testing.T) {
	db := sixGames(t)
	out := filepath.Join(t.TempDir(), "report.pdf")
	_, head := loadState(t, db)
	runCLI(t, "--db", db, "export", "pdf", "-o", out, "--lang", "de", "--paper", "letter")
	if _, after := loadState(t, db); after != head {
		t.Errorf("export pdf wrote an event: the head moved from %s to %s", head, after)
	}
	pdf, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if text := pdfText(t, pdf); !strings.Contains(text, "Wettkampfbericht") || !strings.Contains(text, head) {
		t.Errorf("the exported report lacks the German title or the fingerprint")
	}
	t.Run("export pdf without -o says what is missing", func(t *testing.T) {
		_, e, code := runCLIStatus("--db", db, "export", "pdf")
		if code == 0 || !strings.Contains(e, "-o FILE") {
			t.Errorf("exit %d, stderr %q", code, e)
		}
	})
	t.Run("export pdf of a game that does not exist is one sentence", func(t *testing.T) {
		_, e, code := runCLIStatus("--db", db, "export", "pdf", "-o", out, "--game", "9")
		if code == 0 || !strings.Contains(e, "There is no game 9") {
			t.Errorf("exit %d, stderr %q", code, e)
		}
	})
}

// pageTexts is the text of each page of a PDF.
func pageTexts(t *testing.T, pdf []byte) []string {
	t.Helper()
	bin := requireTool(t, "pdftotext")
	p := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(p, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-layout", "-enc", "UTF-8", p, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.Split(string(out), "\f")
}

func TestPDFForTheAppealsBoard(t *testing.T) {
	st, head := loadState(t, sixGames(t))
	db := sixGames(t)
	ctx := context.Background()
	sdb, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	events, err := sdb.EventsAfter(ctx, 0)
	sdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	heads := report.GameHeads(events)
	for _, o := range []report.PDFOptions{{Lang: "en"}, {Lang: "de"}, {Lang: "en", Paper: "letter"}} {
		lang := o.Lang
		o.Heads = heads
		pages := pageTexts(t, writePDF(t, st, head, o))
		lang += " " + o.Paper
		sig := "SIGNATURES FOR GAME %d"
		if o.Lang == "de" {
			sig = "UNTERSCHRIFTEN ZU PARTIE %d"
		}
		for _, g := range st.Games {
			es := g.Sheet.Entries()
			last := es[len(es)-1]
			lastRow := fmt.Sprintf("%d ", last.Number) // the scoresheet row of the last move
			t.Run(lang+": game "+strconv.Itoa(g.Number)+"'s signature block stands on the page where its scoresheet ends, with the result, the game's head and the fingerprint", func(t *testing.T) {
				for _, p := range pages {
					if !strings.Contains(p, fmt.Sprintf(sig, g.Number)) {
						continue
					}
					block := p[strings.Index(p, fmt.Sprintf(sig, g.Number)):]
					flat := strings.Join(strings.Fields(block), " ")
					h := heads[g.Number].Hash
					for _, w := range []string{g.Result, h[:8] + " " + h[8:16], head[:8] + " " + head[8:16]} {
						if !strings.Contains(flat, w) {
							t.Errorf("the signature block lacks %q:\n%s", w, block)
						}
					}
					before := p[:strings.Index(p, fmt.Sprintf(sig, g.Number))]
					if !strings.Contains(before, lastRow) {
						t.Errorf("the page of the signature block does not hold the scoresheet's last row %q", lastRow)
					}
					return
				}
				t.Errorf("no page has the signature block of game %d", g.Number)
			})
		}
		t.Run(lang+": no incident kind or column word is broken inside", func(t *testing.T) {
			text := strings.Join(pages, "\n")
			for _, bad := range []string{"technical-fault", "technical fa ult", "technical fa\n", "Schwar z", "Schwar\n", "technische Stö rung"} {
				if strings.Contains(text, bad) {
					t.Errorf("the report breaks a word: %q", bad)
				}
			}
			for _, g := range st.Games {
				for _, in := range g.Incidents {
					// an incident kind is printed by its name, never its
					// identifier ("technical fault", not "technical-fault")
					kind := strings.ReplaceAll(strings.Replace(in.Kind, "time-info", "time information", 1), "-", " ")
					if o.Lang == "de" {
						continue
					}
					if !strings.Contains(text, kind) {
						t.Errorf("the incident kind %q is not printed whole", kind)
					}
				}
			}
		})
	}
}

func TestPDFNamesStruckMoves(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(sp, []byte(correctionScript), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "c.db")
	runCLI(t, "--db", db, "--at", "2024-05-01T13:00:00Z", "play", sp)
	st, head := loadState(t, db)
	tests := []struct{ lang, want string }{
		{"en", "Struck out: 2… ♘c6 3. ♗b5 (rule 10)"},
		{"de", "Gestrichen: 2… Sc6 3. Lb5 (Regel 10)"},
		{"en", "Started 2024-05-01 15:00 CEST"},
		{"en", "recovery bonus after the operator's error"},
	}
	for _, tc := range tests {
		t.Run(tc.lang+": the scoresheet shows "+tc.want, func(t *testing.T) {
			pages := pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: tc.lang}))
			if !strings.Contains(pages[1], tc.want) && !cellText(pages[1], tc.want) {
				t.Errorf("page 2 lacks %q:\n%s", tc.want, pages[1])
			}
		})
	}
}

// cellText reports whether a table cell holds want wrapped at its spaces:
// each word stands whole in the text, the first at the start of a cell line.
func cellText(text, want string) bool {
	words := strings.Fields(want)
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if !regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(w) + `(\s|$)`).MatchString(text) {
			return false
		}
	}
	return true
}
