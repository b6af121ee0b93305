package gui

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/match"
)

// tamperMove edits the move e5 in h's file behind the console, as an
// intruder would (no hash made anew), and returns its seq.
func tamperMove(t *testing.T, h *harness) int64 {
	t.Helper()
	raw, err := sql.Open("sqlite", h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var seq int64
	if err := raw.QueryRow(`SELECT seq FROM events WHERE kind = 'move' AND payload LIKE '%"e5"%'`).Scan(&seq); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TRIGGER IF EXISTS events_no_update",
		`UPDATE events SET payload = replace(payload, '"e5"', '"e6"') WHERE seq = ?`} {
		if _, err := raw.Exec(q, seq); err != nil {
			t.Fatal(err)
		}
	}
	return seq
}

// The German console says why the record does not verify in German — the
// record's problem is a phrase of the core (store.VerifyReport.Why), not an
// English sentence inside a German one — in the Verify dialog, in an
// export's refusal and in the banner of a console opened on the file; the
// event's kind stays as recorded.
func TestTheGermanConsoleSaysWhyTheRecordDoesNotVerifyInGerman(t *testing.T) {
	inGerman(t)
	h := newHarness(t, match.RoleArbiter, secret)
	h.newMatch("acm1996", secret)
	h.c.do(actStartGame)
	for _, mv := range []string{"e4", "e5"} {
		h.ft.advance(3 * time.Second)
		h.typeMove(mv)
	}
	seq := tamperMove(t, h)
	why := fmt.Sprintf("Ereignis %d (move) wurde verändert (Hash stimmt nicht)", seq)
	for _, tc := range []struct {
		name string
		said func(t *testing.T) string
		want []string
	}{
		{"the Verify dialog says it in German", func(t *testing.T) string {
			h.c.verifyRecord()
			return topDialogTexts(h.c)
		}, []string{"Die Aufzeichnung ist nicht unversehrt\n", why + ". Lassen Sie diese Datei unverändert"}},
		{"an export's refusal says it in German", func(t *testing.T) string {
			_, _, err := h.c.exportPDF(filepath.Join(t.TempDir(), "report.pdf"), "A4", 0)
			if err == nil {
				t.Fatal("a report was written of a record that does not verify")
			}
			return err.Error()
		}, []string{"die Aufzeichnung besteht die Prüfung nicht (" + why + "), daher könnte ein Bericht"}},
		{"the banner of a console opened on the file says it in German", func(t *testing.T) string {
			c := h.consoleOnFile(t, secret)
			if !c.banner.obj.Visible() {
				t.Error("the banner is not shown")
			}
			return c.banner.text.Text
		}, []string{"Die Aufzeichnung ist nicht unversehrt (" + why + "): es kann nichts mehr in sie geschrieben werden."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.said(t)
			if n := timesNamed(got, fmt.Sprintf("Ereignis %d", seq)); n > 1 {
				t.Errorf("the console names the event %d times in %q: once is enough", n, got)
			}
			for _, want := range tc.want {
				if !strings.Contains(got, want) {
					t.Errorf("the console says\n%q\nwant it to say\n%q", got, want)
				}
			}
			for _, english := range []string{"was edited", "hash mismatch", "event "} {
				if strings.Contains(got, english) {
					t.Errorf("the German console says %q: English %q in it", got, english)
				}
			}
		})
	}
}

// The English Verify dialog names the event that fails once, in the
// problem, as a sentence of its own, and says what to do.
func TestTheVerifyDialogNamesTheEventOnce(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, secret)
	h.newMatch("acm1996", secret)
	h.c.do(actStartGame)
	for _, mv := range []string{"e4", "e5"} {
		h.ft.advance(3 * time.Second)
		h.typeMove(mv)
	}
	seq := tamperMove(t, h)
	h.c.verifyRecord()
	got := topDialogTexts(h.c)
	t.Run("the event is named once", func(t *testing.T) {
		if n := timesNamed(got, fmt.Sprintf("event %d", seq)); n != 1 {
			t.Errorf("the dialog names event %d %d times: %q", seq, n, got)
		}
	})
	t.Run("the problem is a sentence followed by what to do", func(t *testing.T) {
		want := fmt.Sprintf("Event %d (move) was edited (hash mismatch). Keep this file as it is and tell the appeals board.", seq)
		if !strings.Contains(got, want) {
			t.Errorf("the dialog says\n%q\nwant\n%q", got, want)
		}
	})
}

// timesNamed is how often the line of text that names an event (name, in
// any case) names it.
func timesNamed(text, name string) int {
	for _, line := range strings.Split(text, "\n") {
		if n := strings.Count(strings.ToLower(line), strings.ToLower(name)); n > 0 {
			return n
		}
	}
	return 0
}
