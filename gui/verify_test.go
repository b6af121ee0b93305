package gui

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/store"
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

// A record that does not verify runs nothing: opened in the console, its
// clocks stand still as the record last proves them (the instant of its
// last event that verifies), framed and marked as stopped by the broken
// record, never ticking on as if play went on; the notice says so, and
// every writing action of the action bar is disabled with the core's
// record-broken sentence, which the console also says, before any dialog,
// when one is asked for from the menu, a key or a click on a clock; in
// English and German.
func TestATamperedRecordsClocksStandStillAndEveryActionSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		lang, mark, notice, refusal string
	}{
		{"en", "■ clocks stopped: the record does not verify", "Clocks stopped: the record does not verify, so nothing can be recorded.",
			"The record does not verify (event %d (move) was edited (hash mismatch)), so nothing more is written to it"},
		{"de", "■ Uhren angehalten: Aufzeichnung nicht unversehrt", "Uhren angehalten: Die Aufzeichnung ist nicht unversehrt, daher kann nichts aufgezeichnet werden.",
			"Die Aufzeichnung ist nicht unversehrt (Ereignis %d (move) wurde verändert (Hash stimmt nicht)), daher wird nichts mehr in sie geschrieben"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if tc.lang == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, secret)
			h.newMatch("acm1996", secret)
			h.c.do(actStartGame)
			var lastSound time.Time // e4's instant: the record is sound up to it
			for _, mv := range []string{"e4", "e5"} {
				h.ft.advance(3 * time.Second)
				h.typeMove(mv)
				if mv == "e4" {
					lastSound = h.ft.Now()
				}
			}
			seq := tamperMove(t, h)
			h.ft.advance(time.Minute)
			c := h.consoleOnFile(t, secret)
			c.win.Resize(fyne.NewSize(1280, 800))
			c.refresh()
			refusal := fmt.Sprintf(tc.refusal, seq)
			before := h.dbBytes()
			readings := func() [2]string { return [2]string{c.clocks[0].time.Text, c.clocks[1].time.Text} }
			shown := readings()

			t.Run("the clocks show the record's last sound instant", func(t *testing.T) {
				g := c.game()
				for i := range c.clocks {
					want, _ := g.Clock.Display(c.sideAt(i), lastSound, clock.DisplayOptions{})
					if shown[i] != want {
						t.Errorf("clock %d shows %s, want %s (the reading at %s, the record's last sound instant)", i, shown[i], want, lastSound.Format("15:04:05"))
					}
				}
			})
			t.Run("the clocks do not tick", func(t *testing.T) {
				h.ft.advance(10 * time.Second)
				if got := readings(); got != shown {
					t.Errorf("the clocks went on from %v to %v on a record that does not verify", shown, got)
				}
			})
			t.Run("both clocks are marked stopped by the broken record, neither framed as running", func(t *testing.T) {
				for i, cv := range c.clocks {
					if cv.flag.Text != tc.mark {
						t.Errorf("clock %d's line under the reading says %q, want %q", i, cv.flag.Text, tc.mark)
					}
					if cv.frame.StrokeColor == colRunning {
						t.Errorf("clock %d is framed as running", i)
					}
					if cv.time.Color == themeColor(theme.ColorNameForeground) {
						t.Errorf("clock %d's digits are bright, as a running clock's", i)
					}
				}
			})
			t.Run("the notice says the clocks are stopped and nothing can be recorded", func(t *testing.T) {
				if !strings.Contains(c.notice.Text, tc.notice) {
					t.Errorf("the notice says %q, want %q", c.notice.Text, tc.notice)
				}
			})
			t.Run("the game is not shown running", func(t *testing.T) {
				for _, tx := range gamesRowTexts(c.gamesBox) {
					if strings.HasPrefix(tx.Text, tr("G%d %s–%s", 1, "GK", "DB")) {
						if strings.Contains(tx.Text, translate("running")) || tx.Color == colRunning {
							t.Errorf("the games row shows %q as running", tx.Text)
						}
					}
				}
			})
			for _, id := range []actionID{actPressLeft, actPressRight, actCallArbiter, actPause, actDrawOffer, actIncident} {
				t.Run("the "+string(id)+" button is disabled with the record-broken sentence", func(t *testing.T) {
					b := c.buttons[id]
					if !b.Disabled() || !strings.Contains(b.why, refusal) {
						t.Errorf("disabled %v, tip %q; want it disabled with %q", b.Disabled(), b.why, refusal)
					}
				})
			}
			for _, act := range []struct {
				name string
				do   func()
			}{
				{"the arbiter's stop from the menu or F9", func() { c.do(actPause) }},
				{"a clock adjustment from the menu", func() { c.do(actAdjust) }},
				{"an incident from the menu", func() { c.do(actIncident) }},
				{"a click on the clock shown running", func() { c.pressSlot(1) }},
				{"the clock key of the clock shown running", func() { c.handleKey(&fyne.KeyEvent{Name: c.keyRight}) }},
				{"the arbiter's stop key", func() { c.handleKey(&fyne.KeyEvent{Name: c.keyStop}) }},
				{"the call key", func() { c.handleKey(&fyne.KeyEvent{Name: c.keyCall}) }},
			} {
				t.Run(act.name+" is refused at once with the record-broken sentence", func(t *testing.T) {
					for _, o := range c.win.Canvas().Overlays().List() {
						c.win.Canvas().Overlays().Remove(o) // the refusal before read
					}
					c.dialogs = nil
					act.do()
					if got := refusalShown(c); !strings.Contains(got, refusal) {
						t.Errorf("the console shows %q (dialog %q), want the refusal %q", got, topDialogTexts(c), refusal)
					}
				})
			}
			t.Run("a move typed is refused with the record-broken sentence", func(t *testing.T) {
				c.movePresses = false // press first: the press is still to come
				c.enterMove("Nf3")
				if !strings.Contains(c.moveErr.Text, refusal) {
					t.Errorf("the move's refusal: %q, want %q", c.moveErr.Text, refusal)
				}
			})
			if h.dbBytes() != before {
				t.Error("the console appended to a record that does not verify")
			}
		})
	}
}

// A console that is running finds an edit of an old event (sqlite3 on the
// file behind it) at its next poll, not at its next open, Verify or
// export: the clocks stop at the record's last sound instant, the notice
// says so and every writing action is refused, as on a console opened on
// the edited file; the arbiter writes nothing more onto it. A reader that
// only reads raises nothing at the poll.
func TestARunningConsoleFindsAnEditOfAnOldEventAtItsNextPoll(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, secret)
	h.newMatch("acm1996", secret)
	h.c.do(actStartGame)
	var lastSound time.Time
	for _, mv := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5"} {
		h.ft.advance(3 * time.Second)
		h.typeMove(mv)
		if mv == "e4" {
			lastSound = h.ft.Now() // e5 is edited below: e4 is the last sound event
		}
	}
	var p pollState
	h.c.poll(h.ctx, &p, h.ft.Now())
	t.Run("a poll after a reader that only reads raises nothing", func(t *testing.T) {
		ro, err := store.OpenReadOnly(h.ctx, h.dbPath)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ro.Record(h.ctx); err != nil {
			t.Fatal(err)
		}
		ro.Close()
		h.c.poll(h.ctx, &p, h.ft.Now())
		if p := h.core.Why(); p != nil {
			t.Fatalf("a false alarm: %v", p)
		}
		if n := len(h.game().Sheet.Entries()); n != 5 {
			t.Errorf("the console shows %d plies, want 5", n)
		}
	})
	seq := tamperMove(t, h)
	h.ft.advance(time.Minute)
	h.c.poll(h.ctx, &p, h.ft.Now())
	c := h.c
	refusal := fmt.Sprintf("The record does not verify (event %d (move) was edited (hash mismatch)), so nothing more is written to it", seq)
	t.Run("the next poll finds it: the notice says the clocks are stopped", func(t *testing.T) {
		if want := "Clocks stopped: the record does not verify, so nothing can be recorded."; !strings.Contains(c.notice.Text, want) {
			t.Errorf("the notice says %q, want %q", c.notice.Text, want)
		}
	})
	t.Run("the clocks show the record's last sound instant and do not tick", func(t *testing.T) {
		g := c.game()
		shown := [2]string{c.clocks[0].time.Text, c.clocks[1].time.Text}
		for i := range c.clocks {
			want, _ := g.Clock.Display(c.sideAt(i), lastSound, clock.DisplayOptions{})
			if shown[i] != want {
				t.Errorf("clock %d shows %s, want %s (the reading at the last sound instant)", i, shown[i], want)
			}
		}
		h.ft.advance(10 * time.Second)
		if got := [2]string{c.clocks[0].time.Text, c.clocks[1].time.Text}; got != shown {
			t.Errorf("the clocks went on from %v to %v", shown, got)
		}
	})
	t.Run("the press button is disabled with the record-broken sentence", func(t *testing.T) {
		for _, id := range []actionID{actPressLeft, actPressRight, actPause} {
			if b := c.buttons[id]; !b.Disabled() || !strings.Contains(b.why, refusal) {
				t.Errorf("%s: disabled %v, tip %q; want it disabled with %q", id, b.Disabled(), b.why, refusal)
			}
		}
	})
	t.Run("a move typed is refused and nothing is written", func(t *testing.T) {
		before := h.dbBytes()
		c.movePresses = false
		c.enterMove("Nf6")
		if !strings.Contains(c.moveErr.Text, refusal) {
			t.Errorf("the move's refusal: %q, want %q", c.moveErr.Text, refusal)
		}
		h.c.poll(h.ctx, &p, h.ft.Now())
		if h.dbBytes() != before {
			t.Error("the console wrote to the record after the edit was found")
		}
	})
}

// The Verify dialog gives what an appeals board compares with the paper the
// arbiter signed: the record's first key (its fingerprint, which
// 'arbiter verify --key' checks) and the match id ('arbiter verify
// --match'), in the words the command line's verify uses, in English and
// in German; an unprotected match has no key but its id.
func TestTheVerifyDialogGivesTheFirstKeyAndTheMatchID(t *testing.T) {
	for _, tc := range []struct {
		name      string
		german    bool
		secret    string
		wantKey   string // the words before the first key ("": no key said)
		wantMatch string // the words before the match id
	}{
		{"a protected match gives its first key and its id", false, secret,
			"The arbiter's first key, which anchors the record ('arbiter verify --key' checks it):\n",
			"The match id ('arbiter verify --match' checks it):\n"},
		{"an unprotected match gives its id", false, "", "",
			"The match id ('arbiter verify --match' checks it):\n"},
		{"the German console gives both in German", true, secret,
			"Der erste Schlüssel des Schiedsrichters, der die Aufzeichnung verankert ('arbiter verify --key' prüft ihn):\n",
			"Die Kennung des Wettkampfs ('arbiter verify --match' prüft sie):\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.german {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, tc.secret)
			h.newMatch("acm1996", tc.secret)
			h.c.do(actStartGame)
			h.ft.advance(3 * time.Second)
			h.typeMove("e4")
			rep, err := match.VerifyRecord(h.ctx, h.core.DB(), "", "")
			if err != nil || !rep.OK || rep.Seal.MatchID == "" {
				t.Fatalf("the record: %+v, %v", rep, err)
			}
			h.c.do(actVerify)
			got := topDialogTexts(h.c)
			// the values stand under their words, a head and a key in two
			// lines of four blocks, as 'Match created' shows them
			if want := tc.wantMatch + hexLines(rep.Seal.MatchID); !strings.Contains(got, want) {
				t.Errorf("the dialog does not give the match id %q:\n%s", want, got)
			}
			if tc.wantKey == "" {
				if strings.Contains(got, "key") {
					t.Errorf("the dialog of an unprotected match names a key:\n%s", got)
				}
				return
			}
			if want := tc.wantKey + hexLines(rep.Seal.FirstKey()); !strings.Contains(got, want) {
				t.Errorf("the dialog does not give the first key %q:\n%s", want, got)
			}
			if want := hexLines(rep.Head); !strings.Contains(got, want) || strings.Count(want, "\n") != 1 {
				t.Errorf("the dialog does not give the head %q in two lines:\n%s", want, got)
			}
		})
	}
}
