package station

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arbiter/match"
	"arbiter/store"
)

func credentials(t *testing.T, caCert, caKey []byte, name, role string) Credentials {
	t.Helper()
	c, err := Issue(caCert, caKey, name, role)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func tlsOf(t *testing.T, c Credentials) *tls.Config {
	t.Helper()
	cfg, err := c.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// tlsHolder starts a lone first record holder with mutual TLS from a new
// match CA, on a new record in dir; it stops when the test ends.
func tlsHolder(t *testing.T, dir string) (s *Station, db *store.DB, caCert, caKey []byte) {
	t.Helper()
	path := filepath.Join(dir, "a.db")
	newRecord(t, path)
	caCert, caKey, err := NewCA("ACM Chess Challenge")
	if err != nil {
		t.Fatal(err)
	}
	db = openDB(t, path)
	s, err = Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true,
		Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js"), TLS: tlsOf(t, credentials(t, caCert, caKey, "arbiter", "organiser"))}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s, db, caCert, caKey
}

func TestEachConnectionHasThePermissionsOfItsRoleAndAnotherCAIsRefused(t *testing.T) {
	dir := t.TempDir()
	s, db, caCert, caKey := tlsHolder(t, dir)
	url := s.Engine().ClientURL()
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	submit(t, s, req("white", match.Move{Input: "e4"}))

	laptopTLS := tlsOf(t, credentials(t, caCert, caKey, "laptop", "operator"))
	laptop, err := Start(context.Background(), Config{Name: "laptop", Role: "operator", DB: openDB(t, filepath.Join(dir, "l.db")),
		Dial: []string{url}, TLS: laptopTLS})
	if err != nil {
		t.Fatal(err)
	}
	defer laptop.Stop()
	r := submit(t, laptop, req("operator", match.Move{Input: "e5"})) // the operator's own command goes through
	// answered once the stream holds it; the authority's record holds it
	// after its own commit (docs/stations.md)
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := s.Replica().WaitSeq(wctx, r.Seq); err != nil {
		t.Fatal(err)
	}
	seq, _ := s.Replica().Head()
	if r.Seq != seq {
		t.Fatalf("answered %d, record at %d", r.Seq, seq)
	}
	// The laptop may answer the record holder's round-trip measurement (the
	// bound on its stamps) and nothing else.
	waitFor(t, 20*time.Second, "the record holder measured no round trip to the laptop", func() bool { return s.RoundTrip("laptop") > 0 })

	nc, err := nats.Connect(url, nats.Secure(laptopTLS))
	if err != nil {
		t.Fatalf("the operator's certificate: %v", err)
	}
	defer nc.Close()
	t.Run("the operator's laptop cannot send the arbiter's commands", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
		defer cancel()
		_, err := Submit(ctx, nc, req("arbiter", match.Move{Input: "Nf3"}), nil, 200*time.Millisecond)
		if err == nil {
			t.Fatal("an arbiter's command from the operator's connection was answered")
		}
	})
	t.Run("the operator's laptop cannot publish into the stream, delete or purge it", func(t *testing.T) {
		js, _ := jetstream.New(nc)
		ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
		defer cancel()
		if _, err := js.Publish(ctx, SubjectEvents, []byte(`{}`)); err == nil {
			t.Error("a forged event was acknowledged")
		}
		if err := js.DeleteStream(ctx, StreamName); err == nil {
			t.Error("the stream was deleted")
		}
		if st, err := s.Link().js.Stream(context.Background(), StreamName); err != nil {
			t.Fatal(err)
		} else if err := st.Purge(context.Background()); err == nil {
			t.Error("even the holder could purge: the stream must deny purges")
		}
	})
	// The refusals are recorded (station.refused), nothing else is.
	refusals := func(kind string) int {
		evs, err := db.EventsAfter(context.Background(), int64(seq))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range evs {
			if e.Kind != KindRefused {
				t.Fatalf("a refused attempt appended %s", e.Kind)
			}
			if strings.Contains(string(e.Payload), `"kind":"`+kind+`"`) {
				n++
			}
		}
		return n
	}
	waitFor(t, 10*time.Second, "the permission violations were not recorded", func() bool { return refusals("permission") > 0 })
	t.Run("a machine with another CA's certificate cannot connect", func(t *testing.T) {
		otherCert, otherKey, err := NewCA("another match")
		if err != nil {
			t.Fatal(err)
		}
		foreign := tlsOf(t, credentials(t, otherCert, otherKey, "intruder", "organiser"))
		if nc, err := nats.Connect(url, nats.Secure(foreign), nats.Timeout(time.Second)); err == nil {
			nc.Close()
			t.Fatal("connected with another CA's certificate")
		}
		waitFor(t, 10*time.Second, "the refused TLS handshake was not recorded", func() bool { return refusals("tls") > 0 })
	})
	// Eight violations within a second or two: one event, the rest counted
	// in the next.
	if n := refusals("permission"); n != 1 {
		t.Errorf("%d permission refusals recorded, want one per peer and kind a minute", n)
	}
}

// A holder of a station certificate, or anyone with another CA's, cannot
// swamp the official record: refused TLS handshakes and publishes are
// recorded at most once per RefusalWindow (a minute) per peer and kind,
// the ones left out counted in the next; a second holder's report of the
// same peer and kind inside the window is counted, not recorded.
func TestRefusedAttemptsAreRecordedAtMostOnceAMinutePerPeerAndKindWithACount(t *testing.T) {
	s, db, caCert, caKey := tlsHolder(t, t.TempDir())
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	from, _ := s.Replica().Head()
	url := s.Engine().ClientURL()
	laptopTLS := tlsOf(t, credentials(t, caCert, caKey, "laptop", "operator"))
	otherCert, otherKey, err := NewCA("another match")
	if err != nil {
		t.Fatal(err)
	}
	foreign := tlsOf(t, credentials(t, otherCert, otherKey, "intruder", "organiser"))
	type refusal struct{ Kind, Peer, More string }
	recorded := func() (out []refusal) {
		evs, err := db.EventsAfter(context.Background(), int64(from))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			var r refusal
			if e.Kind != KindRefused || json.Unmarshal(e.Payload, &r) != nil {
				t.Fatalf("a refused attempt appended %s %s", e.Kind, e.Payload)
			}
			out = append(out, r)
		}
		return out
	}
	count := func(kind string) (n int, more []string) {
		for _, r := range recorded() {
			if r.Kind == kind {
				n++
				more = append(more, r.More)
				if r.Peer != "127.0.0.1" {
					t.Errorf("a %s refusal names the peer %q, want 127.0.0.1", kind, r.Peer)
				}
			}
		}
		return n, more
	}
	flood := func(n int) {
		nc, err := nats.Connect(url, nats.Secure(laptopTLS))
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		for i := 0; i < n; i++ {
			if nc, err := nats.Connect(url, nats.Secure(foreign), nats.Timeout(time.Second)); err == nil {
				nc.Close()
				t.Fatal("connected with another CA's certificate")
			}
			nc.Publish(SubjectEvents, []byte(`{}`)) // outside the operator's permissions
		}
		nc.Flush()
	}
	const attempts = 20
	flood(attempts)
	waitFor(t, 10*time.Second, "the refusals were not recorded", func() bool {
		tls, _ := count("tls")
		perm, _ := count("permission")
		return tls > 0 && perm > 0
	})
	t.Run("a flood of refused handshakes and publishes is one event per peer and kind", func(t *testing.T) {
		// The holder has seen every refused handshake (its server may log
		// the last ones a moment after the client gave up) and counted all
		// but the first, so nothing more is on its way.
		waitFor(t, 10*time.Second, "the holder did not see every refused handshake", func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.refusals.more["127.0.0.1 tls"] == attempts-1
		})
		for _, kind := range []string{"tls", "permission"} {
			if n, _ := count(kind); n != 1 {
				t.Errorf("%d %s refusals recorded for %d attempts, want one", n, kind, attempts)
			}
		}
	})
	t.Run("another holder's report of the same peer and kind within the minute is counted, not recorded", func(t *testing.T) {
		before := len(recorded())
		submit(t, s, Request{ID: "refused/display/1", From: "display", Role: "arbiter",
			Refused: &RefusalNote{Kind: "tls", Detail: "127.0.0.1:5555 - cid:9 - TLS handshake error", More: 4, Peer: "127.0.0.1"}})
		if after := len(recorded()); after != before {
			t.Fatalf("the second holder's report was recorded: %d refusals, before %d", after, before)
		}
	})
	t.Run("after the window the next one is recorded with the count of those left out", func(t *testing.T) {
		s.mu.Lock()
		s.refusals.window = time.Nanosecond // as if the minute had passed, for this holder and the authority
		s.mu.Unlock()
		flood(1)
		waitFor(t, 10*time.Second, "no second tls refusal was recorded", func() bool { n, _ := count("tls"); return n >= 2 })
		// attempts-1 left out by this holder, 4+1 by the other's report
		if n, more := count("tls"); n != 2 || more[1] != fmt.Sprint(attempts-1+5) {
			t.Errorf("%d tls refusals recorded, the second counting %v left out; want 2, the second counting %d", n, more, attempts-1+5)
		}
	})
}
