package station

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/assets"
	"arbiter/internal/kdf"
	"arbiter/match"
	"arbiter/store"
)

// testKey is the arbiter's key of newProtectedRecord's match.
var testKey = ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))

// newProtectedRecord makes a record of a match protected by the arbiter's
// key testKey: every event is signed (docs/store.md).
func newProtectedRecord(t testing.TB, path string) {
	t.Helper()
	kdf.Current = kdf.Fast
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	app, err := match.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = app.Do(ctx, match.Cmd{At: time.Now().UTC(), Actor: match.Actor{Role: match.RoleArbiter}}, match.MatchNew{
		Title: "ACM Chess Challenge", Arbiter: "Mike Valvo", Players: [2]string{"Garry Kasparov", "Deep Blue"},
		Computer: "Deep Blue", Operators: []string{"Feng-hsiung Hsu"}, White: "Garry Kasparov", Control: "acm1996", ArbiterKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
}

// pinReqOn is a request the arbiter signed where it was given (as service
// does: no credential in it, only his signature), stamped on the match
// timeline as station s knows it, as a face at s stamps a command. Never
// on this process's clock (time.Now): a station's clock is its time
// source, the wall clock read once at its start and advanced by the
// monotonic clock read just after (internal/timesource), which a busy
// machine can delay by milliseconds, and after a failover or a new epoch
// a station continues the timeline within the bound it states. A command
// stamped with this process's clock was refused as in the future by 8 ms
// (a new epoch, load 28) and by 3 ms (a lone authority, the 1 ms of a
// round trip in one process, load 11; branch hflake2).
func pinReqOn(s *Station, role string, cmd match.Command) Request {
	r := req(role, cmd)
	r.From, r.At = "test", s.Now()
	r.Sign("arbiter", 0, "", testKey)
	return r
}

func TestAForgedEventInTheStreamStopsApplyingAndRaisesTheAlarm(t *testing.T) {
	foreign := func() ed25519.PrivateKey {
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	for _, tc := range []struct {
		name string
		sigs func(e store.Event) []store.Signature
	}{
		{"a move without any signature", func(store.Event) []store.Signature { return nil }},
		{"a move signed with a key that is not the arbiter's credential", func(e store.Event) []store.Signature {
			k, st := foreign(), foreign()
			kp, sp := hex.EncodeToString(k.Public().(ed25519.PublicKey)), hex.EncodeToString(st.Public().(ed25519.PublicKey))
			return []store.Signature{
				{Seq: e.Seq, Kind: store.SigCommand, Count: 1, Cmd: "forged", Signer: "arbiter", Station: sp, Key: kp,
					Sig: hex.EncodeToString(ed25519.Sign(k, match.CommandMessage("forged", "arbiter", sp, []store.Event{e})))},
				{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: sp, Sig: hex.EncodeToString(ed25519.Sign(st, match.StationMessage(e.Hash)))},
			}
		}},
	} {
		t.Run(tc.name+" fits the chain but not the signatures: the alarm, nothing applied", func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.db")
			newProtectedRecord(t, path)
			db := openDB(t, path)
			// The alarm is logged by the stream's consumer after the
			// replica raised it (which is what wakes WaitSeq below): the
			// log is awaited, not read at once.
			alarmLogged := make(chan struct{}, 1)
			s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true,
				Logf: func(f string, a ...any) {
					if strings.HasPrefix(f, "ALARM") {
						select {
						case alarmLogged <- struct{}{}:
						default:
						}
					}
				},
				Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js")}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Stop()
			submit(t, s, pinReqOn(s, "arbiter", match.GameStart{Game: 1}))
			r := submit(t, s, pinReqOn(s, "white", match.Move{Input: "e4"}))
			if r.Error != "" {
				t.Fatalf("move: %s", r.Error)
			}
			head := verifyHead(t, db) // the station's own signed events verify
			// The forger has the stream: the next event, its hash its own and
			// its prev the head, as a copy of the last move one second later.
			evs, err := db.EventsAfter(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			last := evs[len(evs)-1]
			forged := last
			forged.Seq, forged.Prev, forged.At = last.Seq+1, last.Hash, last.At.Add(time.Second)
			forged.Hash = store.EventHash(forged)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if _, err := s.Link().Append(ctx, "forged", encodeEvents("forged", []store.Event{forged}, tc.sigs(forged)), uint64(last.Seq)); err != nil {
				t.Fatalf("inject: %v", err)
			}
			if err := s.Replica().WaitSeq(ctx, uint64(forged.Seq)); err == nil {
				t.Fatal("the forged event was applied")
			}
			st := s.Status()
			t.Log(st.Alarm)
			if !strings.Contains(st.Alarm, "signature") || st.CanAppend {
				t.Fatalf("status %+v: want the alarm naming the signature and no appending", st)
			}
			// The status carries the alarm as a phrase, for the console
			// to say in its language: the record's problem inside it.
			if st.AlarmWhy == nil || st.AlarmWhy.Error() != st.Alarm {
				t.Errorf("the status's alarm phrase %v is not its alarm %q", st.AlarmWhy, st.Alarm)
			} else if german, want := assets.Dictionary("de").Say(st.AlarmWhy), fmt.Sprintf("Ereignis %d aus dem Datenstrom passt nicht zu dieser Aufzeichnung (seine Signatur ist ungültig: Ereignis %d (move) ", forged.Seq, forged.Seq); !strings.HasPrefix(german, want) || strings.Contains(german, "event") {
				t.Errorf("the alarm in German is %q, want it to begin %q", german, want)
			}
			for _, x := range st.Stations {
				if x.Self && (x.AlarmWhy != st.AlarmWhy || x.Alarm != st.Alarm) {
					t.Errorf("the station itself is listed with the alarm %q (%v)", x.Alarm, x.AlarmWhy)
				}
			}
			if seq, _, _ := db.Head(context.Background()); seq != last.Seq || verifyHead(t, db) != head {
				t.Fatalf("the record moved: head %d", seq)
			}
			select {
			case <-alarmLogged:
			case <-ctx.Done():
				t.Fatal("the alarm was not logged")
			}
			// The authority with the alarm runs no more commands.
			ctx2, cancel2 := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel2()
			if r, err := s.Submit(ctx2, pinReqOn(s, "operator", match.Move{Input: "c5"})); err == nil && r.Error == "" {
				t.Fatalf("a command was answered after the alarm: %+v", r)
			}
		})
	}
}
