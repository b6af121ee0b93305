package station

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/internal/outside"
	"arbiter/match"
	"arbiter/store"
)

// TestHelperFlipBytes is not a test: the watch test runs the test binary
// again with only this function selected, as a hex editor in a process of
// its own (outside.HexEdit).
func TestHelperFlipBytes(t *testing.T) {
	outside.HexEditHelper(t, "helper process for TestAStationWhoseFileWasEditedRaisesTheFileAlarmAndRefusesEveryCommandAtOnce")
}

// TestAStationWhoseFileWasEditedRaisesTheFileAlarmAndRefusesEveryCommandAtOnce
// (principle 1, any edit of the file is detected): the station's head check
// looks at the file's last event before each append; every other edit is
// found by its watch of the file (every second; called here): an old
// event edited with sqlite3, a signature row of an event before the last
// head the arbiter signed altered, bytes written into the write-ahead log
// behind SQLite, the file replaced with mv. Each raises the file alarm
// naming what was found, nothing more is appended, and a command given at
// the station is refused at once with the alarm and what to do
// (CodeAlarmRefused), not left to time out. Its own commands raise nothing.
func TestAStationWhoseFileWasEditedRaisesTheFileAlarmAndRefusesEveryCommandAtOnce(t *testing.T) {
	ctx := context.Background()
	type edit func(t *testing.T, path string, old store.Event) string // what the alarm says
	for _, tc := range []struct {
		name string
		edit edit
	}{
		{"an old event edited with sqlite3", func(t *testing.T, path string, old store.Event) string {
			outside.SQL(t, path, "DROP TRIGGER IF EXISTS events_no_update", fmt.Sprintf("UPDATE events SET actor = 'someone else' WHERE seq = %d", old.Seq))
			return fmt.Sprintf("event %d (%s) was edited", old.Seq, old.Kind)
		}},
		{"an old event's station signature altered with sqlite3, before the last head the arbiter signed", func(t *testing.T, path string, old store.Event) string {
			outside.SQL(t, path, fmt.Sprintf(`UPDATE signatures SET sig = substr(sig, 1, 127) || CASE substr(sig, 128, 1) WHEN '0' THEN '1' ELSE '0' END
				WHERE seq = %d AND kind = 'station'`, old.Seq))
			return fmt.Sprintf("event %d (%s) does not match the hash its station signed", old.Seq, old.Kind)
		}},
		{"bytes of an old event written into the write-ahead log behind SQLite (a hex editor on the -wal file)", func(t *testing.T, path string, old store.Event) string {
			from := string(old.Payload)
			to := strings.Replace(from, "e4", "e3", 1)
			if to == from {
				t.Fatalf("the old event %s holds no e4", from)
			}
			outside.HexEdit(t, "TestHelperFlipBytes", path+"-wal", from, to, true)
			return fmt.Sprintf("event %d (%s) was edited", old.Seq, old.Kind)
		}},
		{"the record's file replaced with mv (a copy renamed over it)", func(t *testing.T, path string, _ store.Event) string {
			outside.SQL(t, path, "VACUUM INTO '"+path+".copy'")
			if err := os.Rename(path+".copy", path); err != nil {
				t.Fatal(err)
			}
			return "is no longer the file that was opened"
		}},
	} {
		t.Run(tc.name+" raises the file alarm and every command given at the station is refused at once", func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.db")
			newProtectedRecord(t, path)
			db := openDB(t, path)
			s, err := Start(ctx, Config{Name: "arbiter", Role: "organiser", DB: db, First: true,
				Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js")}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Stop()
			submit(t, s, pinReqOn(s, "arbiter", match.GameStart{Game: 1}))
			for _, m := range []string{"e4", "c5", "Nf3"} {
				role := map[bool]string{true: "white", false: "black"}[m != "c5"]
				if r := submit(t, s, pinReqOn(s, role, match.Move{Input: m})); r.Error != "" {
					t.Fatalf("move %s: %s", m, r.Error)
				}
			}
			evs, err := db.EventsAfter(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			last := evs[len(evs)-1]
			if err := s.rep.ApplyHead(ctx, HeadNote{Seq: last.Seq, Hash: last.Hash, Key: hex.EncodeToString(testKey.Public().(ed25519.PublicKey)),
				Sig: hex.EncodeToString(ed25519.Sign(testKey, match.HeadMessage(last.Seq, last.Hash)))}); err != nil {
				t.Fatal(err)
			}
			s.watchFile(ctx)
			if err := s.rep.Alarm(); err != nil {
				t.Fatalf("the station's own commands and head raised %v", err)
			}
			var old store.Event // 1. e4, under the head
			for _, e := range evs {
				if e.Kind == match.KindMove && strings.Contains(string(e.Payload), "e4") {
					old = e
				}
			}
			says := tc.edit(t, path, old)
			s.watchFile(ctx)
			var alarm *AlarmError
			if err := s.rep.Alarm(); !errors.As(err, &alarm) || !alarm.File || !strings.Contains(alarm.Reason, says) {
				t.Fatalf("the alarm: %v, want the file alarm saying %q", err, says)
			}
			head, _ := s.rep.Head()
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			rep, err := s.Submit(cctx, pinReqOn(s, "black", match.Move{Input: "Nc6"}))
			if err != nil || rep.Phrase == nil || rep.Phrase.Code != string(CodeAlarmRefused) || cctx.Err() != nil {
				t.Fatalf("the command: %+v, %v; want it refused at once (%s)", rep, err, CodeAlarmRefused)
			}
			if !strings.Contains(rep.Error, "takes no command") || !strings.Contains(rep.Error, says) || !strings.Contains(rep.Error, "keep the file for the appeals board") {
				t.Errorf("the refusal says %q: want the alarm (%q) and what to do", rep.Error, says)
			}
			if now, _ := s.rep.Head(); now != head {
				t.Errorf("the record went from event %d to %d after the alarm", head, now)
			}
		})
	}
}
