package report_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arbiter/match"
	"arbiter/report"
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
			"♘f3", "♖xh7+", "e1=♕", "(=)", "control at move 40", "technical-fault", "Deep Blue's system stopped", "photographers' flashes",
			"Incident log", "SIGNATURES", "Rulings, appeals and corrections", head, "arbiter verify --head " + head,
		}},
		{"the German report has German labels", report.PDFOptions{Lang: "de"}, []string{
			"Wettkampfbericht", "Partieformular", "Zeitkontrolle nach Zug 40", "Garry Kasparov gewinnt den Wettkampf 4–2",
			"Aufgabe", "Schiedsrichter", "UNTERSCHRIFTEN", head,
		}},
		{"a one-game report holds that game only", report.PDFOptions{Game: 5, Paper: "letter"}, []string{
			"Game 5: Deep Blue – Garry Kasparov", "declines the draw offer", head,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := pdfText(t, writePDF(t, st, head, tc.opts))
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the report lacks %q", w)
				}
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
