package cli

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/store"
)

const arbPass = "Mike Valvo's passphrase"

// protectedMatch plays a protected match by script: game 1 to a
// resignation (the arbiter signs the head), a note and two moves of game 2.
func protectedMatch(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "m.db")
	script := writeScript(t,
		"0:00:00 "+newMatch+" --pin \""+arbPass+"\"",
		"0:00:01 --pin \""+arbPass+"\" game start",
		"0:00:05 --pin \""+arbPass+"\" move e4",
		"0:00:09 --pin \""+arbPass+"\" move c5",
		"0:00:10 --pin \""+arbPass+"\" resign black",
		"1:00:00 --pin \""+arbPass+"\" game start",
		"1:00:05 --pin \""+arbPass+"\" move e4",
		"1:00:06 --pin \""+arbPass+"\" incident note --text 'the hall is quiet'",
		"1:00:09 --pin \""+arbPass+"\" move e5",
	)
	mustArb(t, db, "--at", at(0), "play", script)
	return db
}

func rawOpen(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{"DROP TRIGGER IF EXISTS events_no_update", "DROP TRIGGER IF EXISTS events_no_delete"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// putBack makes the guard triggers rawOpen dropped again as the
// migrations make them, as a careful forger does after his edit: since
// branch htrust a guard missing is itself an edit of the file
// (record-check-trigger-dropped).
func putBack(t *testing.T, db *sql.DB) {
	t.Helper()
	for _, q := range []string{
		"CREATE TRIGGER events_no_update BEFORE UPDATE ON events\nBEGIN\n\tSELECT RAISE(ABORT, 'events are append-only');\nEND",
		"CREATE TRIGGER events_no_delete BEFORE DELETE ON events\nBEGIN\n\tSELECT RAISE(ABORT, 'events are append-only');\nEND",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// rehashAll recomputes the whole chain after an edit, as docs/store.md allows anyone to.
func rehashAll(t *testing.T, db *sql.DB) {
	t.Helper()
	rows, err := db.Query("SELECT seq, match, game, at_ns, received_ns, role, actor, kind, payload FROM events ORDER BY seq")
	if err != nil && strings.Contains(err.Error(), "no such column") {
		// a file of schema 4 or older: no receipts
		rows, err = db.Query("SELECT seq, match, game, at_ns, 0, role, actor, kind, payload FROM events ORDER BY seq")
	}
	if err != nil {
		t.Fatal(err)
	}
	var evs []store.Event
	for rows.Next() {
		var e store.Event
		var ns, rec int64
		var p string
		if err := rows.Scan(&e.Seq, &e.Match, &e.Game, &ns, &rec, &e.Role, &e.Actor, &e.Kind, &p); err != nil {
			t.Fatal(err)
		}
		e.At, e.Payload = time.Unix(0, ns).UTC(), []byte(p)
		if rec != 0 {
			e.Received = time.Unix(0, rec).UTC()
		}
		evs = append(evs, e)
	}
	rows.Close()
	if _, err := db.Exec("UPDATE events SET hash = printf('%064d', seq)"); err != nil {
		t.Fatal(err)
	}
	prev := store.GenesisPrev
	for _, e := range evs {
		e.Prev = prev
		e.Hash = store.EventHash(e)
		if _, err := db.Exec("UPDATE events SET prev = ?, hash = ? WHERE seq = ?", e.Prev, e.Hash, e.Seq); err != nil {
			t.Fatal(err)
		}
		prev = e.Hash
	}
}

func TestCredentialsOnTheCommandLine(t *testing.T) {
	t.Run("a PIN on a play script's match new line is kept", func(t *testing.T) {
		db := protectedMatch(t)
		if _, errs, code := arb(t, db, "--at", at(2*time.Hour), "resign", "white"); code == 0 || !strings.Contains(errs, "protected") {
			t.Errorf("resign without a credential: exit %d, %s", code, errs)
		}
	})
	t.Run("the operator acts with his own credential, handed out by the arbiter", func(t *testing.T) {
		db := protectedMatch(t)
		fp := mustArb(t, db, "--at", at(2*time.Hour), "--pin", arbPass, "credential", "add", "--role", "operator", "--secret", "Hsu's passphrase")
		if _, key, ok := strings.Cut(strings.TrimSpace(fp), "; its key: "); !ok || len(strings.ReplaceAll(key, " ", "")) != 64 {
			t.Errorf("credential add printed %q, want the key's fingerprint", fp)
		}
		mustArb(t, db, "--at", at(2*time.Hour), "--pin", arbPass, "move", "Nf3") // the arbiter enters the human's move
		mustArb(t, db, "--at", at(2*time.Hour+time.Second), "--as", "operator", "--secret", "Hsu's passphrase", "move", "Nc6")
		if _, errs, code := arb(t, db, "--at", at(2*time.Hour+2*time.Second), "--as", "operator", "--secret", "someone else's", "move", "Nc6"); code == 0 || !strings.Contains(errs, "recorded") {
			t.Errorf("a wrong operator credential: exit %d, %s", code, errs)
		}
		if out := mustArb(t, db, "credential", "list"); !strings.Contains(out, "operator") || !strings.Contains(out, "arbiter") {
			t.Errorf("credential list: %s", out)
		}
	})
	t.Run("a key file is a credential", func(t *testing.T) {
		dir := t.TempDir()
		key := filepath.Join(dir, "arbiter.key")
		fp := strings.TrimSpace(mustArb(t, "", "credential", "keygen", key))
		if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("key file: %v %v", fi, err)
		}
		db := filepath.Join(dir, "m.db")
		out := mustArb(t, db, "--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--key-file", key)
		if !strings.Contains(out, "the arbiter's key: "+fp) {
			t.Errorf("match new printed %q", out)
		}
		if _, _, code := arb(t, db, "--at", at(time.Second), "game", "start"); code == 0 {
			t.Error("game start without the key file")
		}
		mustArb(t, db, "--at", at(time.Second), "--key-file", key, "game", "start")
		if err := os.Chmod(key, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, errs, code := arb(t, db, "--at", at(2*time.Second), "--key-file", key, "move", "e4"); code == 0 || !strings.Contains(errs, "read by others") {
			t.Errorf("a key file others may read: exit %d, %s", code, errs)
		}
	})
	t.Run("an unprotected match warns at every arbiter action", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "m.db")
		_, errs, _ := arb(t, db, "--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B")
		if !strings.Contains(errs, "Unprotected match") {
			t.Errorf("match new said %q", errs)
		}
		_, errs, _ = arb(t, db, "--at", at(time.Second), "game", "start")
		if !strings.Contains(errs, "Unprotected match") {
			t.Errorf("game start said %q", errs)
		}
		_, errs, _ = arb(t, db, "--at", at(2*time.Second), "--as", "white", "move", "e4")
		if strings.Contains(errs, "nprotected") {
			t.Errorf("a player's move warned: %q", errs)
		}
		_, errs, _ = arb(t, db, "verify")
		if !strings.Contains(errs, "unsigned") {
			t.Errorf("verify said %q", errs)
		}
	})
	t.Run("an export without the arbiter's credential writes nothing and names the last signed head", func(t *testing.T) {
		db := protectedMatch(t)
		before, _ := os.ReadFile(db)
		_, errs, code := arb(t, db, "export", "pgn")
		if code != 0 || !strings.Contains(errs, "last head the arbiter signed is event") {
			t.Errorf("export pgn: exit %d, %s", code, errs)
		}
		after, _ := os.ReadFile(db)
		if string(before) != string(after) {
			t.Error("the export without a credential changed the file")
		}
		mustArb(t, db, "--pin", arbPass, "export", "pgn")
		_, errs, _ = arb(t, db, "verify")
		if !regexp.MustCompile(`the arbiter signed the head at event \d+, the last event`).MatchString(errs) {
			t.Errorf("after an export with the credential, verify says %q; want the head signed", errs)
		}
	})
}

func TestVerify(t *testing.T) {
	t.Run("consistent rewrite is detected by signatures", func(t *testing.T) {
		db := protectedMatch(t)
		raw := rawOpen(t, db)
		if _, err := raw.Exec(`UPDATE events SET payload = replace(payload, 'quiet', 'noisy') WHERE kind = 'incident'`); err != nil {
			t.Fatal(err)
		}
		rehashAll(t, raw)
		raw.Close()
		_, errs, code := arb(t, db, "verify")
		if code == 0 || !strings.Contains(errs, "(incident)") {
			t.Errorf("verify of a re-hashed rewrite: exit %d, %s", code, errs)
		}
	})
	t.Run("deleting the arbiter credential and re-hashing does not open the match to anyone", func(t *testing.T) {
		db := protectedMatch(t)
		raw := rawOpen(t, db)
		if _, err := raw.Exec(`UPDATE events SET payload = json_remove(payload, '$.credential') WHERE seq = 1`); err != nil {
			t.Fatal(err)
		}
		rehashAll(t, raw)
		raw.Close()
		if _, errs, code := arb(t, db, "verify"); code == 0 || !strings.Contains(errs, "event 1 (match.new)") {
			t.Errorf("verify: exit %d, %s", code, errs)
		}
		before, _ := os.ReadFile(db)
		if _, errs, code := arb(t, db, "--at", at(3*time.Hour), "result", "0-1", "--reason", "forged"); code == 0 || !strings.Contains(errs, "does not verify") {
			t.Errorf("result without a credential on the stripped record: exit %d, %s", code, errs)
		}
		if after, _ := os.ReadFile(db); string(before) != string(after) {
			t.Error("the stripped record was appended to")
		}
	})
	t.Run("a deleted move is named by verify and status, never a replay error", func(t *testing.T) {
		db := protectedMatch(t)
		raw := rawOpen(t, db)
		if _, err := raw.Exec(`DELETE FROM events WHERE seq = (SELECT min(seq) FROM events WHERE kind = 'move')`); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		if _, errs, code := arb(t, db, "verify"); code == 0 || !strings.Contains(errs, "is missing") || strings.Contains(errs, "not legal") {
			t.Errorf("verify: exit %d, %s", code, errs)
		}
		for _, when := range []string{"", at(9500 * time.Millisecond)} {
			args := []string{"status"}
			if when != "" {
				args = []string{"--at", when, "status"}
			}
			if _, errs, code := arb(t, db, args...); code != 0 || !strings.Contains(errs, "is missing") {
				t.Errorf("status %v: exit %d, %s", args, code, errs)
			}
		}
	})
	t.Run("verify --key pins the arbiter's key", func(t *testing.T) {
		db := protectedMatch(t)
		other := protectedMatch(t)
		_, errs, _ := arb(t, db, "verify")
		i := strings.Index(errs, "the arbiter's key is ")
		if i < 0 {
			t.Fatalf("verify names no key: %s", errs)
		}
		fp := strings.TrimSpace(strings.SplitN(errs[i+len("the arbiter's key is "):], "\n", 2)[0])
		mustArb(t, db, "verify", "--key", fp)
		if _, errs, code := arb(t, other, "verify", "--key", fp); code == 0 || !strings.Contains(errs, "re-keyed") {
			t.Errorf("verify --key on a record of another key: exit %d, %s", code, errs)
		}
	})
	t.Run("an edited move makes status warn and every writing command refuse", func(t *testing.T) {
		db := protectedMatch(t)
		raw := rawOpen(t, db)
		if _, err := raw.Exec(`UPDATE events SET payload = replace(payload, '"e5"', '"e6"') WHERE kind = 'move' AND payload LIKE '%"e5"%'`); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		_, errs, code := arb(t, db, "status")
		if code != 0 || !strings.Contains(errs, "does not verify") || !strings.Contains(errs, "(move)") {
			t.Errorf("status: exit %d, %s", code, errs)
		}
		before, _ := os.ReadFile(db)
		if _, errs, code := arb(t, db, "--at", at(3*time.Hour), "--pin", arbPass, "move", "Nf3"); code == 0 || !strings.Contains(errs, "does not verify") {
			t.Errorf("move on a tampered record: exit %d, %s", code, errs)
		}
		after, _ := os.ReadFile(db)
		if string(before) != string(after) {
			t.Error("a command appended to a tampered record")
		}
	})
}

// A passphrase given to 'match new' before the command (--pin) or in
// ARBITER_PIN protects the new match, as one given after it does: it is
// never dropped to make an unprotected match.
func TestAPassphraseGivenToMatchNewAnyWayProtectsTheMatch(t *testing.T) {
	const pin = "arbiter passphrase"
	newMatch := []string{"match", "new", "--title", "T", "--player", "A", "--player", "B"}
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"--pin after the command protects it", append(append([]string{}, newMatch...), "--pin", pin), nil},
		{"--pin before the command protects it", append([]string{"--pin", pin}, newMatch...), nil},
		{"ARBITER_PIN protects it", newMatch, map[string]string{"ARBITER_PIN": pin}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			var out, errb bytes.Buffer
			env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return tc.env[k] }, Now: func() time.Time { return start }}
			if code := Run(context.Background(), append([]string{"--db", db, "--at", at(0)}, tc.args...), env); code != 0 {
				t.Fatalf("match new: exit %d: %s", code, errb.String())
			}
			if strings.Contains(errb.String(), "nprotected") {
				t.Errorf("match new warned of an unprotected match: %q", errb.String())
			}
			if !strings.Contains(out.String(), "the arbiter's key:") {
				t.Errorf("match new printed no arbiter's key to write down:\n%s", out.String())
			}
			if _, errs, code := arb(t, db, "--at", at(time.Second), "game", "start"); code == 0 || !strings.Contains(errs, "PIN") {
				t.Errorf("game start without the PIN: exit %d, %q; want it refused on a protected match", code, errs)
			}
			mustArb(t, db, "--at", at(2*time.Second), "--pin", pin, "game", "start")
		})
	}
}

// A refusal on a record that does not verify names the problem and says
// what to do, as the console's banner does; export does not send the user
// back to verify, which would only repeat the problem.
func TestARefusalOnABrokenRecordSaysWhatToDo(t *testing.T) {
	db := protectedMatch(t)
	raw := rawOpen(t, db)
	if _, err := raw.Exec(`UPDATE events SET payload = replace(payload, '"e5"', '"e6"') WHERE kind = 'move' AND payload LIKE '%"e5"%'`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	const action = "keep this file as it is, tell the appeals board, and continue from a backup"
	for _, c := range []struct {
		rule string
		args []string
	}{
		{"verify names the edited event and says what to do", []string{"verify"}},
		{"export pgn names the edited event and says what to do, not to run verify", []string{"export", "pgn"}},
		{"export pdf names the edited event and says what to do, not to run verify", []string{"export", "pdf", "-o", filepath.Join(t.TempDir(), "r.pdf")}},
		{"export pdf with the arbiter's pin names the edited event and says what to do", []string{"--pin", arbPass, "export", "pdf", "-o", filepath.Join(t.TempDir(), "r.pdf")}},
		{"a move refused names the edited event and says what to do, not to run verify", []string{"--pin", arbPass, "move", "Nf3"}},
		{"an incident refused names the edited event and says what to do, not to run verify", []string{"--pin", arbPass, "incident", "note", "--text", "quiet"}},
		{"a player's move refused names the edited event and says what to do, not to run verify", []string{"--as", "white", "move", "Nf3"}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			_, errs, code := arb(t, db, c.args...)
			if code == 0 || !strings.Contains(errs, "does not verify (event ") || !strings.Contains(errs, "(move) was edited") || !strings.Contains(errs, action) {
				t.Errorf("exit %d, %s", code, errs)
			}
			if strings.Contains(errs, "arbiter verify") {
				t.Errorf("the refusal sends the user to verify: %s", errs)
			}
		})
	}
	t.Run("status warns naming the edited event and says what to do", func(t *testing.T) {
		_, errs, code := arb(t, db, "status")
		if code != 0 || !strings.HasPrefix(errs, "arbiter: warning: the record does not verify (event ") || !strings.Contains(errs, action) {
			t.Errorf("exit %d, %s", code, errs)
		}
	})
}

// TestVerifySaysTheEventsAfterTheLastSignedHeadInWords: verify says a head
// signed at the last event as such, and one event after it in the
// singular; before, "…; 0 events after it are signed by their roles but
// not yet by a head".
func TestVerifySaysTheEventsAfterTheLastSignedHeadInWords(t *testing.T) {
	for _, tc := range []struct {
		name           string
		head, unsigned int64
		want           string
	}{
		{"a head signed at the last event is said as the last event", 9, 0, "the arbiter signed the head at event 9, the last event"},
		{"one event after it is said in the singular", 9, 1, "the arbiter signed the head at event 9; 1 event after it is signed by its role but not yet by a head"},
		{"more events after it are counted", 9, 2, "the arbiter signed the head at event 9; 2 events after it are signed by their roles but not yet by a head"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := signedHeadLine(tc.head, tc.unsigned); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestARefusedExportWritesNothingAndSignsNoHead: an export given with the
// arbiter's --pin and refused for its own options (a language, a paper, a
// game, the record as the file to write) writes nothing to the record and
// does not say it signed: before, the head was signed first and the export
// refused after ("the arbiter signed the head at event 12: …" then "The
// language "fr" is not available").
func TestARefusedExportWritesNothingAndSignsNoHead(t *testing.T) {
	db := protectedMatch(t)
	kasparov := "Garry Kasparov's passphrase"
	mustArb(t, db, "--at", at(2*time.Hour), "--pin", arbPass, "credential", "add", "--role", "player", "--player", "Garry Kasparov", "--secret", kasparov)
	// game 2: Kasparov has White; his note leaves the head unsigned
	mustArb(t, db, "--at", at(2*time.Hour+time.Second), "--as", "white", "--secret", kasparov, "incident", "note", "--text", "mine")
	heads := func() int {
		var n int
		sq := rawOpen(t, db)
		defer putBack(t, sq) // a count edits nothing
		if err := sq.QueryRow(`SELECT count(*) FROM signatures WHERE kind = 'head'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		name    string
		args    []string
		refusal string
	}{
		{"a PDF in a language not available", []string{"export", "pdf", "-o", out + ".pdf", "--lang", "fr"}, `The language "fr" is not available`},
		{"a PDF on a paper not known", []string{"export", "pdf", "-o", out + ".pdf", "--paper", "a5"}, `The paper size "a5" is not known`},
		{"a PDF of a game not there", []string{"export", "pdf", "-o", out + ".pdf", "--game", "9"}, "There is no game 9"},
		{"a PGN of a game not started", []string{"export", "pgn", "--game", "3"}, "Game 3 has not started"},
		{"a PGN over the record itself", []string{"export", "pgn", "-o", db}, "is the match's database"},
		{"a PDF over the record itself", []string{"export", "pdf", "-o", db}, "is the match's database"},
		// refused after the seal before branch happeal: the head was signed
		{"a PDF into a folder", []string{"export", "pdf", "-o", t.TempDir()}, "is a folder, not a regular file"},
		{"a PGN into a folder", []string{"export", "pgn", "-o", t.TempDir()}, "is a folder, not a regular file"},
		{"a PDF in a folder that does not exist", []string{"export", "pdf", "-o", filepath.Join(out, "none", "r.pdf")}, "does not exist"},
	} {
		t.Run(tc.name+" is refused and signs no head", func(t *testing.T) {
			before := heads()
			_, errs, code := arb(t, db, append([]string{"--at", at(2*time.Hour + 2*time.Second), "--pin", arbPass}, tc.args...)...)
			if code != 1 || !strings.Contains(errs, tc.refusal) {
				t.Fatalf("exit %d, %q; want the refusal %q", code, errs, tc.refusal)
			}
			if strings.Contains(errs, "signed the head") {
				t.Errorf("a refused export says it signed: %q", errs)
			}
			if after := heads(); after != before {
				t.Errorf("a refused export wrote %d head signature(s) into the record", after-before)
			}
		})
	}
	t.Run("the same export with right options signs the head", func(t *testing.T) {
		before := heads()
		mustArb(t, db, "--at", at(2*time.Hour+3*time.Second), "--pin", arbPass, "export", "pdf", "-o", out+".pdf")
		if heads() != before+1 {
			t.Errorf("the export with --pin signed %d heads, want 1", heads()-before)
		}
	})
}
