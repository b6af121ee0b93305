package gui

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/report"
	"arbiter/service"
)

const secret = "correct horse battery"

// signatureCount is the number of signatures beside the record's events.
func (h *harness) signatureCount() int {
	h.t.Helper()
	_, sigs, err := h.core.DB().Record(h.ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	return len(sigs)
}

// pdfText extracts a PDF's text with pdftotext (skips without it).
func pdfText(t *testing.T, path string) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext is not installed (make deps-test)")
	}
	out, err := exec.Command(bin, "-layout", "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// An unprotected match says so at every arbiter action, on the status line
// (issue 16): the console goes on, no dialog is in the way.
func TestEveryArbiterActionOnAnUnprotectedMatchWarns(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	if !strings.Contains(h.c.where.Text, "ARBITER mode · ⚠ Unprotected match: nothing is signed") {
		t.Errorf("starting the game (an arbiter action) does not warn: %q", h.c.where.Text)
	}
	if top := h.c.win.Canvas().Overlays().Top(); top != nil {
		t.Errorf("the warning opened a dialog: %s", topDialogTexts(h.c))
	}
	h.ft.advance(3 * time.Second)
	h.typeMove("e4") // the arbiter enters the move in arbiter mode
	if h.ply() != 1 || !strings.Contains(h.c.where.Text, "Unprotected match") {
		t.Errorf("the arbiter's move does not warn (ply %d): %q", h.ply(), h.c.where.Text)
	}
	t.Run("an operator's action does not warn", func(t *testing.T) {
		h.c.do(actArbiterMode) // to operator mode
		h.ft.advance(3 * time.Second)
		h.c.pressSlot(1) // Black's (the computer's) clock, the operator's press
		if strings.Contains(h.c.where.Text, "Unprotected") {
			t.Errorf("the operator's press warns: %q", h.c.where.Text)
		}
	})
	t.Run("a protected match does not warn", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, secret)
		h.newMatch("acm1996", secret)
		h.c.do(actStartGame)
		if h.game() == nil || strings.Contains(h.c.where.Text, "Unprotected") {
			t.Errorf("game %v; status %q", h.game(), h.c.where.Text)
		}
	})
}

// The console's PDF is the CLI's (service.ReportPDF): each game's signature
// block carries its signed head and the arbiter's key fingerprint; given the
// arbiter's credential, the export signs the head as 'export --pin' does;
// without it, it writes nothing to the record (issue 16).
func TestTheConsolesPDFCarriesTheSignedHeadsAndSignsOnlyWithTheCredential(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, secret)
	h.newMatch("acm1996", secret)
	h.c.do(actStartGame)
	for _, mv := range []string{"e4", "c5"} {
		h.ft.advance(3 * time.Second)
		h.typeMove(mv)
	}
	h.ft.advance(3 * time.Second)
	if err := h.core.Resign(h.ctx, h.c.cmdAs(h.c.arbiter()), clock.White); err != nil {
		t.Fatal(err)
	}
	// a note after the game's end
	h.ft.advance(time.Minute)
	if _, err := h.core.Incident(h.ctx, h.c.cmdAs(h.c.arbiter()), "note", match.IncidentArgs{Text: "the players sign the scoresheets"}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	key := h.core.State().ArbiterCredential().Fingerprint()

	t.Run("with the arbiter's credential the export signs the head", func(t *testing.T) {
		before, events := h.signatureCount(), h.eventCount()
		path := filepath.Join(dir, "signed.pdf")
		h.c.do(actExportPDF)
		h.submitPath(path)
		pdf, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("no PDF written (%s): %v", topDialogTexts(h.c), err)
		}
		// (the arbiter's note signed the head already: the export's
		// signature of the same head takes its place)
		if h.signatureCount() < before || h.eventCount() != events {
			t.Errorf("signatures %d → %d, events %d → %d: want the head signed and no event", before, h.signatureCount(), events, h.eventCount())
		}
		if s, last := h.core.Seal(), h.events()[events-1]; s.HeadSeq != last.Seq || s.Head != last.Hash {
			t.Errorf("the signed head is event %d, want the last, %d", s.HeadSeq, last.Seq)
		}
		if note := topDialogTexts(h.c); !strings.Contains(note, "The arbiter signed this head") || !strings.Contains(note, match.HexBlocks(key)) {
			t.Errorf("the note does not say the head was signed with the key %s: %q", key, note)
		}
		seal := h.core.Seal()
		want, _, err := service.ReportPDF(h.ctx, h.core, report.PDFOptions{Paper: "a4", Lang: "en", Seal: &seal})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(pdf, want) {
			t.Error("the console's PDF differs from the report 'export pdf' writes from the same record")
		}
		txt := pdfText(t, path)
		for _, w := range []string{"Signed by the arbiter", "Head signature", key[:8] + " " + key[8:16]} {
			if !strings.Contains(txt, w) {
				t.Errorf("game 1's signature block lacks %q:\n%s", w, txt)
			}
		}
	})
	t.Run("without the credential the export writes nothing to the record", func(t *testing.T) {
		h.c.do(actArbiterMode) // operator mode: the console forgets the arbiter's PIN
		h.c.hallPIN = ""       // a console started without --pin
		before := h.dbBytes()
		path := filepath.Join(dir, "unsigned.pdf")
		h.c.do(actExportPDF)
		h.submitPath(path)
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("no PDF written (%s): %v", topDialogTexts(h.c), err)
		}
		if h.dbBytes() != before {
			t.Error("an export without the arbiter's credential changed the record")
		}
		if note := topDialogTexts(h.c); !strings.Contains(note, "Nothing was signed") {
			t.Errorf("the note does not say nothing was signed: %q", note)
		}
		if txt := pdfText(t, path); !strings.Contains(txt, "Signed by the arbiter") {
			t.Errorf("the last signed head is not in the report:\n%s", txt)
		}
	})
}

// Every time of day the console shows is in the match's zone with the zone
// named; the record keeps UTC (issue 18).
func TestTheConsoleShowsTimesOfDayInTheMatchsZone(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	spec := defaultSpec()
	spec.White = "Garry Kasparov"
	spec.Control = "180"
	spec.TimeZone = "America/New_York"
	if err := h.core.NewMatch(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
		t.Fatal(err)
	}
	h.c.do(actStartGame) // 1996-02-10 20:00 UTC is 15:00 in Philadelphia
	h.ft.advance(time.Minute)
	h.c.pause()
	h.key(fyne.KeyReturn) // the cause: other
	h.c.refresh()
	log := strings.Join(h.c.lastLog, "\n")
	if !strings.Contains(log, "15:01:00 EST") {
		t.Errorf("the incident log is not in Eastern time:\n%s", log)
	}
	if strings.Contains(log, "20:0") {
		t.Errorf("the incident log shows UTC:\n%s", log)
	}
	h.c.resume()
	h.ft.advance(3 * time.Minute)
	h.c.refresh()
	if want := "White's flag has fallen at 15:03:00.000 EST"; !strings.Contains(h.c.notice.Text, want) {
		t.Errorf("notice = %q, want %q", h.c.notice.Text, want)
	}
	if want := "FLAG 15:03:00.000 EST"; !strings.Contains(h.c.clocks[0].flag.Text+h.c.clocks[1].flag.Text, want) {
		t.Errorf("the clock's flag does not say %q", want)
	}
	if g := h.game(); g.Incidents[0].At.Location() != time.UTC || !g.Incidents[0].At.Equal(t0.Add(time.Minute)) {
		t.Errorf("the record's instant %v is not UTC %v", g.Incidents[0].At, t0.Add(time.Minute))
	}
}
