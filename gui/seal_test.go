package gui

import (
	"bytes"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/report"
	"arbiter/service"
	"arbiter/store"
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
	t.Run("a refused arbiter action is one sentence, with no warning beside it", func(t *testing.T) {
		h.c.do(actResume) // a clock runs: refused
		said := refusalShown(h.c)
		if said == "" || strings.Count(strings.TrimSuffix(said, "."), ". ") > 0 || strings.Contains(said, "\n") {
			t.Errorf("the refusal is %q, want one sentence", said)
		}
		if strings.Contains(h.c.where.Text, "Unprotected") {
			t.Errorf("the status line still warns beside the refusal: %q", h.c.where.Text)
		}
		h.key(fyne.KeyEscape)
	})
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
	if _, err := h.core.Do(h.ctx, h.c.cmdAs(h.c.arbiter()), match.Resign{Side: clock.White}); err != nil {
		t.Fatal(err)
	}
	// a note after the game's end
	h.ft.advance(time.Minute)
	if _, err := h.core.Do(h.ctx, h.c.cmdAs(h.c.arbiter()), match.LogIncident{Incident: "note", IncidentArgs: match.IncidentArgs{Text: "the players sign the scoresheets"}}); err != nil {
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
		// the paper the export dialog offers: the match's zone's, else the locale's
		paper := report.DefaultPaper(h.core.State().Match, report.PaperLocale(os.Getenv))
		want, _, err := service.ReportPDF(h.ctx, h.core, report.PDFOptions{Paper: paper, Lang: "en", Seal: &seal})
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
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
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
	if _, err := h.core.Do(h.ctx, h.c.cmdAs(h.c.arbiter()), match.Resume{}); err != nil {
		t.Fatal(err)
	}
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

// A record edited in the file (here a move, re-hashed by nobody) shows the
// banner at once, as 'arbiter status' warns, and the console appends
// nothing to it (issue 16).
func TestATamperedRecordShowsTheBannerAndTakesNothing(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, secret)
	h.newMatch("acm1996", secret)
	h.c.do(actStartGame)
	for _, mv := range []string{"e4", "e5"} {
		h.ft.advance(3 * time.Second)
		h.typeMove(mv)
	}
	if h.c.banner.obj.Visible() {
		t.Fatalf("a sound record shows the banner: %q", h.c.banner.text.Text)
	}
	raw, err := sql.Open("sqlite", h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TRIGGER IF EXISTS events_no_update",
		`UPDATE events SET payload = replace(payload, '"e5"', '"e6"') WHERE kind = 'move' AND payload LIKE '%"e5"%'`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()

	// the console is started again on the edited file
	c := h.consoleOnFile(t, secret)
	if !c.banner.obj.Visible() || !strings.Contains(c.banner.text.Text, "does not verify") || !strings.Contains(c.banner.text.Text, "(move)") {
		t.Errorf("the banner does not name the edited move: visible %v, %q", c.banner.obj.Visible(), c.banner.text.Text)
	}
	before := h.dbBytes()
	h.ft.advance(3 * time.Second)
	c.movePresses = true // typing first: the move presses the clock
	c.enterMove("Nf3")
	if h.dbBytes() != before {
		t.Error("the console appended to a tampered record")
	}
	if !strings.Contains(c.moveErr.Text, "does not verify") {
		t.Errorf("the move's refusal: %q", c.moveErr.Text)
	}
}

// The new match dialog, with its time zone and passphrase, fits a
// 1280×800 screen at 150 % text in German: its form scrolls.
func TestTheNewMatchDialogFitsWithItsTimeZone(t *testing.T) {
	inGerman(t)
	h := newHarness(t, match.RoleArbiter, "")
	t.Cleanup(func() { h.c.setScale(1) })
	for i := 0; i < 5; i++ {
		h.c.do(actTextBigger)
	}
	h.c.newMatchDialog()
	top := h.c.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog")
	}
	if min := top.MinSize(); min.Width > 1280 || min.Height > 800 {
		t.Errorf("at %.0f %% text the new match dialog needs %.0f×%.0f px", h.c.scale*100, min.Width, min.Height)
	}
}

// otherApp is a second App on the harness's record file, through a handle
// of its own (as another process writes it), closed when t ends.
func (h *harness) otherApp(t *testing.T) *match.App {
	t.Helper()
	db, err := store.Open(h.ctx, h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	core, err := match.New(h.ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	return core
}

// consoleOnFile is a console started again, as the arbiter with pin, on
// the harness's record file as it stands now.
func (h *harness) consoleOnFile(t *testing.T, pin string) *console {
	t.Helper()
	core := h.otherApp(t)
	return newConsole(h.ctx, test.NewTempApp(t), core, config{path: h.dbPath, role: match.RoleArbiter, pin: pin, now: h.ft.Now, after: h.ft.after, ui: h.ui.do})
}
