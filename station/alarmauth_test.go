package station

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"arbiter/internal/outside"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// editRecord writes over the payload of event old (its e4 made e3) as a
// hex editor does (outside.HexEdit, a process of its own), wherever the
// record's file and its write-ahead log hold it now (the station
// checkpoints between commands), and has the station's watch look, as it
// does every second; it returns what the alarm says.
func editRecord(t *testing.T, s *Station, path string, old store.Event) string {
	t.Helper()
	from := string(old.Payload)
	to := strings.Replace(from, `"san":"e4"`, `"san":"e3"`, 1)
	if to == from {
		t.Fatalf("the old event %s is not e4", from)
	}
	edited := 0
	for _, f := range []string{path, path + "-wal"} {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(from)) {
			outside.HexEdit(t, "TestHelperFlipBytes", f, from, to, true)
			edited++
		}
	}
	if edited == 0 {
		t.Fatalf("neither %s nor its -wal holds %s", path, from)
	}
	s.watchFile(context.Background())
	return fmt.Sprintf("event %d (%s) was edited", old.Seq, old.Kind)
}

// moveE4 is the record's event 1. e4.
func moveE4(t *testing.T, db *store.DB) store.Event {
	t.Helper()
	evs, err := db.EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Kind == match.KindMove && strings.Contains(string(e.Payload), "e4") {
			return e
		}
	}
	t.Fatal("the record holds no 1. e4")
	return store.Event{}
}

// An authority whose file was edited behind it (its file alarm raised)
// stops acting as the authority (principle 1): its beats say the alarm, so
// the other record holders count it silent and a current one claims within
// the usual failover time; a command given at another station is committed
// by the new authority, the alarmed record does not take it, its alarm
// stays raised, it never claims the authority back (asked by the arbiter
// too), and every station's status names the new authority. On the code
// before, the alarmed authority kept beating, nobody claimed, and the
// command given elsewhere went unanswered until its context ended.
func TestAnAuthorityWhoseFileWasEditedStopsBeingTheAuthorityAndAnotherHolderTakesOver(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster of three and waits for a failover")
	}
	dir := t.TempDir()
	hs, routes := newHolders(t, dir, "arbiter", "appeals", "display")
	newProtectedRecord(t, hs[0].path)
	startHolders(t, hs, routes)
	defer func() {
		for _, h := range hs {
			if h.s != nil {
				h.s.Stop()
			}
		}
	}()
	submit(t, hs[0].s, pinReqOn(hs[0].s, "arbiter", match.GameStart{Game: 1}))
	r := submit(t, hs[0].s, pinReqOn(hs[0].s, "white", match.Move{Input: "e4"}))
	for _, h := range hs {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := h.s.Replica().WaitSeq(ctx, r.Seq); err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		cancel()
	}
	if auth, _ := hs[1].s.Replica().Authority(); auth != "arbiter" {
		t.Fatalf("the authority is %q, want arbiter", auth)
	}
	waitFor(t, 10*time.Second, "the other holders do not know the match timeline", func() bool {
		_, u1 := hs[1].s.Offset()
		_, u2 := hs[2].s.Offset()
		return u1 >= 0 && u2 >= 0
	})

	says := editRecord(t, hs[0].s, hs[0].path, moveE4(t, hs[0].s.App().DB()))
	alarmed := time.Now()
	var alarm *AlarmError
	if err := hs[0].s.Replica().Alarm(); !errors.As(err, &alarm) || !alarm.File || !strings.Contains(alarm.Reason, says) {
		t.Fatalf("the authority's alarm: %v, want the file alarm saying %q", err, says)
	}
	held, _ := hs[0].s.Replica().Head()

	// A command given at another record holder is committed by a new
	// authority within the failover bound (2 s of silence, then the
	// claim; 10 s allows a loaded machine).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := hs[1].s.Submit(ctx, pinReqOn(hs[1].s, "black", match.Move{Input: "c5"}))
	took := time.Since(alarmed)
	if err != nil || rep.Error != "" {
		t.Fatalf("the command at appeals after the authority's alarm: %+v, %v (after %v)", rep, err, took)
	}
	t.Logf("the command at appeals committed %v after the authority's alarm", took.Round(time.Millisecond))
	if took > 10*time.Second {
		t.Errorf("the command at appeals committed %v after the authority's alarm: beyond the failover bound of 10 s", took.Round(time.Millisecond))
	}
	auth, _ := hs[1].s.Replica().Authority()
	if auth != "appeals" && auth != "display" {
		t.Fatalf("after the alarm the authority is %q, want appeals or display", auth)
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := hs[2].s.Replica().WaitSeq(wctx, rep.Seq); err != nil {
		t.Fatalf("display did not apply the command: %v", err)
	}

	t.Run("the alarmed station never claims the authority back while its alarm stands", func(t *testing.T) {
		err := hs[0].s.Claim(context.Background(), auth)
		var p *phrase.Error
		if !errors.As(err, &p) || p.Code != string(CodeAlarmRefused) || !strings.Contains(err.Error(), says) {
			t.Errorf("a claim at the alarmed station: %v, want it refused naming the alarm (%s)", err, CodeAlarmRefused)
		}
		// its monitor has run 15 times since the alarm (Silence/10):
		// another command is still the new authority's
		submit(t, hs[2].s, pinReqOn(hs[2].s, "white", match.Move{Input: "Nf3"}))
		if now, _ := hs[1].s.Replica().Authority(); now != auth {
			t.Errorf("the record's authority went from %s to %s", auth, now)
		}
	})
	t.Run("the alarmed record takes nothing more and its alarm stays raised", func(t *testing.T) {
		if now, _ := hs[0].s.Replica().Head(); now != held {
			t.Errorf("the alarmed record went from event %d to %d", held, now)
		}
		if err := hs[0].s.Replica().Alarm(); !errors.As(err, &alarm) || !strings.Contains(alarm.Reason, says) {
			t.Errorf("the alarm after the failover: %v", err)
		}
	})
	t.Run("every station's status names the new authority, the alarmed one's too", func(t *testing.T) {
		// the alarmed station learns it from the new authority's beats
		// (every 200 ms), its record taking no claim
		waitFor(t, 2*time.Second, "the alarmed station's status does not name the new authority", func() bool { return hs[0].s.Status().Authority == auth })
		for _, h := range hs {
			st := h.s.Status()
			if st.Authority != auth {
				t.Errorf("%s's status names %q as the authority, want %q", h.name, st.Authority, auth)
			}
			for _, x := range st.Stations {
				if x.Authority != (x.Name == auth) {
					t.Errorf("%s's status says of %s authority=%v", h.name, x.Name, x.Authority)
				}
			}
		}
		if st := hs[0].s.Status(); st.Alarm == "" || st.CanAppend {
			t.Errorf("the alarmed station's status: alarm %q, can append %v", st.Alarm, st.CanAppend)
		}
	})
}

// With two record holders a command is answered only once both hold it
// (so that a new epoch on either starts with every acknowledged command),
// which an alarmed one never will: whichever holder's file was edited,
// the other goes on (the authority, or a claim after its silence), answers
// a command without waiting for the alarmed record, which does not take
// it, and the alarmed station never takes the authority. On the code
// before, a command given at the other holder went unanswered until its
// context ended (the alarmed authority beat on; or, the authority waiting
// for the alarmed holder to report it applied, for ever).
func TestWithTwoRecordHoldersOneAlarmedTheOtherGoesOnWithoutWaitingForIt(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster of two")
	}
	for _, row := range []struct {
		name    string
		alarmed int
	}{
		{"the authority's file edited", 0},
		{"the other holder's file edited", 1},
	} {
		t.Run(row.name+": a command at the other holder is committed within the failover time, and the alarmed one takes nothing", func(t *testing.T) {
			_, hs := startTwoHolders(t, newProtectedRecord, nil)
			submit(t, hs[0].s, pinReqOn(hs[0].s, "arbiter", match.GameStart{Game: 1}))
			r := submit(t, hs[0].s, pinReqOn(hs[0].s, "white", match.Move{Input: "e4"}))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := hs[1].s.Replica().WaitSeq(ctx, r.Seq); err != nil {
				t.Fatal(err)
			}
			bad, good := hs[row.alarmed], hs[1-row.alarmed]
			editRecord(t, bad.s, bad.path, moveE4(t, bad.s.App().DB()))
			if bad.s.Replica().Alarm() == nil {
				t.Fatal("no alarm raised")
			}
			alarmed := time.Now()
			held, _ := bad.s.Replica().Head()
			sctx, scancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer scancel()
			rep, err := good.s.Submit(sctx, pinReqOn(good.s, "black", match.Move{Input: "c5"}))
			took := time.Since(alarmed)
			if err != nil || rep.Error != "" {
				t.Fatalf("the command at %s: %+v, %v after %v", good.name, rep, err, took)
			}
			t.Logf("committed %v after the alarm", took.Round(time.Millisecond))
			if took > 10*time.Second {
				t.Errorf("committed %v after the alarm: beyond the failover bound of 10 s", took.Round(time.Millisecond))
			}
			if auth, _ := good.s.Replica().Authority(); auth != good.name {
				t.Errorf("the authority is %q, want %s", auth, good.name)
			}
			if now, _ := bad.s.Replica().Head(); now != held {
				t.Errorf("the alarmed record went from event %d to %d", held, now)
			}
			if err := bad.s.Claim(context.Background(), good.name); err == nil {
				t.Errorf("the alarmed station's claim was taken")
			}
		})
	}
}
