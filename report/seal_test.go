package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sealScript is a one-game match of Deep Blue's four-move mate: Deep Blue's
// moves by the operator (with his own credential when protected), the
// human's by the arbiter. lastByArbiter adds a resignation by the arbiter
// instead of the mating move, so the arbiter's credential ends the game.
func sealScript(protected, lastByArbiter bool) string {
	pin, op := "", ""
	if protected {
		pin = ` --pin "Mike Valvo's passphrase"`
		op = ` --as operator --secret "Hsu's passphrase 1996"`
	}
	lines := []string{
		`0:00:00 match new --title "Seal" --player "Garry Kasparov" --player "Deep Blue" --computer "Deep Blue" --operator "Feng-hsiung Hsu" --arbiter "Mike Valvo" --white "Deep Blue"` + pin,
	}
	if protected {
		lines = append(lines, `0:00:01`+pin+` credential add --role operator --secret "Hsu's passphrase 1996"`)
	}
	lines = append(lines,
		"0:00:02"+pin+" game start",
		"0:00:05"+op+" move e4", "0:00:09"+pin+" move e5",
		"0:00:15"+op+" move Bc4", "0:00:19"+pin+" move Nc6",
		"0:00:25"+op+" move Qh5", "0:00:29"+pin+" move Nf6")
	if lastByArbiter {
		lines = append(lines, "0:00:35"+pin+" resign black")
	} else {
		lines = append(lines, "0:00:35"+op+" move Qxf7#")
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestPDFPrintsTheSeal(t *testing.T) {
	const (
		cover   = "Unprotected match: no arbiter credential; events are unsigned"
		coverDE = "Ungeschützter Wettkampf: kein Schiedsrichter-Zugang; die Ereignisse sind nicht signiert"
	)
	tests := []struct {
		name                 string
		protected, byArbiter bool
		lang                 string
		want, not            []string
	}{
		{"a game the arbiter's credential ended has its head signed by the arbiter, beside his key", true, true, "en",
			[]string{"Arbiter's key: KEY", "Signed by the arbiter", "Head signature: "}, []string{cover, "Not signed"}},
		{"German: the signed head is vom Schiedsrichter signiert", true, true, "de",
			[]string{"Schlüssel des Schiedsrichters: KEY", "Vom Schiedsrichter signiert", "Signatur des Kettenkopfs: "}, []string{coverDE}},
		{"a game ended by the operator's move has an unsigned head, and the block says why", true, false, "en",
			[]string{"Arbiter's key: KEY", "Not signed: the game ended without the arbiter's credential"}, []string{cover, "Signed by the arbiter", "Head signature"}},
		{"German: a game ended by the operator's move is nicht signiert", true, false, "de",
			[]string{"Schlüssel des Schiedsrichters: KEY", "Nicht signiert: die Partie endete ohne den Zugang des Schiedsrichters"}, []string{coverDE}},
		{"an unprotected match says so on its cover and has no key", false, false, "en",
			[]string{cover, "Arbiter's key: none (unprotected match)", "Not signed: the match has no arbiter key"}, []string{"Signed by the arbiter"}},
		{"German: an unprotected match says so on its cover", false, true, "de",
			[]string{coverDE, "keiner (ungeschützter Wettkampf)", "Nicht signiert: der Wettkampf hat keinen Schlüssel des Schiedsrichters"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sp, db, out := filepath.Join(dir, "s.txt"), filepath.Join(dir, "m.db"), filepath.Join(dir, "r.pdf")
			if err := os.WriteFile(sp, []byte(sealScript(tc.protected, tc.byArbiter)), 0o644); err != nil {
				t.Fatal(err)
			}
			playLive(t, db, time.Date(2024, 5, 1, 13, 0, 0, 0, time.UTC), sealScript(tc.protected, tc.byArbiter))
			key := ""
			if tc.protected {
				// the key verify names, in blocks of eight
				_, errs, code := runCLIStatus("--db", db, "verify")
				i := strings.Index(errs, "the arbiter's key is ")
				if code != 0 || i < 0 {
					t.Fatalf("verify: exit %d: %s", code, errs)
				}
				key = strings.TrimSpace(strings.SplitN(errs[i+len("the arbiter's key is "):], "\n", 2)[0])
			}
			runCLI(t, "--db", db, "export", "pdf", "-o", out, "--lang", tc.lang)
			pdf, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			pages := pageTexts(t, pdf)
			flat := strings.Join(strings.Fields(strings.Join(pages, "\n")), " ")
			for _, w := range tc.want {
				w = strings.ReplaceAll(w, "KEY", key)
				if !strings.Contains(flat, w) {
					t.Errorf("the report lacks %q:\n%s", w, pages[1])
				}
			}
			for _, w := range tc.not {
				if strings.Contains(flat, w) {
					t.Errorf("the report says %q", w)
				}
			}
			if !tc.protected && !strings.Contains(strings.Join(strings.Fields(pages[0]), " "), map[string]string{"en": cover, "de": coverDE}[tc.lang]) {
				t.Errorf("the cover does not say the match is unprotected:\n%s", pages[0])
			}
			if tc.protected && !strings.Contains(strings.Join(strings.Fields(pages[0]), " "), key) {
				t.Errorf("the cover lacks the arbiter's key %s:\n%s", key, pages[0])
			}
		})
	}
}

func TestPDFSignatureBlocksShowTheArbitersFirstKeyEveryRotationAndTheMatchID(t *testing.T) {
	const old, rotated = "Mike Valvo's passphrase", "Mike Valvo's new passphrase"
	dir := t.TempDir()
	sp, db := filepath.Join(dir, "s.txt"), filepath.Join(dir, "m.db")
	script := strings.Join([]string{
		`0:00:00 match new --title "Seal" --player "Garry Kasparov" --player "Deep Blue" --white "Deep Blue" --pin "` + old + `"`,
		`0:00:01 --pin "` + old + `" credential add --role arbiter --secret "` + rotated + `"`,
		`0:00:02 --pin "` + rotated + `" game start`,
		`0:00:05 --pin "` + rotated + `" resign white`,
	}, "\n") + "\n"
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "--db", db, "--at", "2024-05-01T13:00:00Z", "play", sp)
	list := runCLI(t, "--db", db, "credential", "list")
	after := func(prefix string) string {
		i := strings.Index(list, prefix)
		if i < 0 {
			t.Fatalf("credential list lacks %q:\n%s", prefix, list)
		}
		return strings.TrimSpace(strings.SplitN(list[i+len(prefix):], "\n", 2)[0])
	}
	first := strings.TrimSpace(strings.SplitN(after("anchors the record ('verify --key' checks it): "), "(", 2)[0])
	next, id := after("signed by the key it replaces: "), after("match id: ")
	for _, tc := range []struct{ lang, firstLabel, rotLabel, idLabel string }{
		{"en", "Arbiter's first key (anchors the record): ", "Arbiter's key replaced at event 2 by: ", "Match id: "},
		{"de", "Erster Schlüssel des Schiedsrichters (verankert das Protokoll): ", "Schlüssel des Schiedsrichters ersetzt bei Ereignis 2 durch: ", "Kennung des Wettkampfs: "},
	} {
		t.Run("in "+tc.lang+", the block of the game names the first key, the rotation at event 2 and the match id", func(t *testing.T) {
			out := filepath.Join(dir, "r-"+tc.lang+".pdf")
			runCLI(t, "--db", db, "export", "pdf", "-o", out, "--lang", tc.lang)
			pdf, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			pages := pageTexts(t, pdf)
			sheet := strings.Join(strings.Fields(strings.Join(pages[1:], "\n")), " ")
			for _, w := range []string{tc.firstLabel + first, tc.rotLabel + next, tc.idLabel + id} {
				if !strings.Contains(sheet, w) {
					t.Errorf("the game's pages lack %q:\n%s", w, pages[1])
				}
			}
			cover := strings.Join(strings.Fields(pages[0]), " ")
			for _, w := range []string{first, next, id} {
				if !strings.Contains(cover, w) {
					t.Errorf("the cover lacks %q:\n%s", w, pages[0])
				}
			}
		})
	}
}
