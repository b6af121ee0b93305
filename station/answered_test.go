package station

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"arbiter/store"
)

// A command given at a station can be applied from the authority's answer,
// which carries the messages the stream acknowledged (Reply.Events): the
// stream stays the truth, so its own messages, when they come, must be the
// same bytes; an answer that does not follow the record is left to the
// stream.
func TestACommandFromTheAuthoritysAnswerIsHeldBeforeTheStreamDeliversItAndMustBeItsBytes(t *testing.T) {
	ctx := context.Background()
	fresh := func(t *testing.T) (*Replica, *store.DB, store.Event) {
		path := filepath.Join(t.TempDir(), "r.db")
		newRecord(t, path)
		db := openDB(t, path)
		rep, err := NewReplica(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		evs, _ := db.EventsAfter(ctx, 0)
		return rep, db, evs[0]
	}
	claim := func(prev store.Event, seq int64, name string) store.Event {
		e := store.Event{Seq: seq, Match: 1, At: prev.At.Add(time.Second), Role: "system", Actor: "Arbiter",
			Kind: KindClaim, Payload: []byte(`{"station":"` + name + `"}`), Prev: prev.Hash}
		e.Hash = store.EventHash(e)
		return e
	}
	t.Run("the record holds the command from the answer before the stream delivers it, and the stream's same bytes are skipped", func(t *testing.T) {
		rep, db, first := fresh(t)
		next := claim(first, 2, "x")
		msgs := encodeEvents("c", []store.Event{next}, nil)
		if !rep.ApplyAnswered(ctx, "c", Reply{Seq: 2, First: 2, Events: msgs}) {
			t.Fatal("the answer was not applied")
		}
		if s, h := rep.Head(); s != 2 || h != next.Hash || verifyHead(t, db) != next.Hash {
			t.Fatalf("head %d %s", s, h)
		}
		if from := rep.StreamFrom(); from != 2 {
			t.Fatalf("the stream is to deliver from %d, want 2 (its message not compared yet)", from)
		}
		if err := rep.Apply(ctx, StreamMsg{Seq: 2, Data: msgs[0]}); err != nil {
			t.Fatalf("the stream's same message: %v", err)
		}
		if s, _, _ := db.Head(ctx); s != 2 || rep.StreamFrom() != 3 {
			t.Fatalf("record head %d, stream from %d", s, rep.StreamFrom())
		}
	})
	t.Run("an answer whose message is not the stream's raises the alarm when the stream delivers its own", func(t *testing.T) {
		rep, _, first := fresh(t)
		forged := claim(first, 2, "y") // fits the chain, not what the stream holds
		if !rep.ApplyAnswered(ctx, "c", Reply{Seq: 2, First: 2, Events: encodeEvents("c", []store.Event{forged}, nil)}) {
			t.Fatal("the answer was not applied")
		}
		err := rep.Apply(ctx, StreamMsg{Seq: 2, Data: encodeEvents("c", []store.Event{claim(first, 2, "x")}, nil)[0]})
		var alarm *AlarmError
		if !errors.As(err, &alarm) || alarm.Why == nil || rep.Alarm() == nil {
			t.Fatalf("got %v, want the alarm", err)
		}
	})
	t.Run("the same event with other bytes (its signatures) raises the alarm too", func(t *testing.T) {
		rep, _, first := fresh(t)
		next := claim(first, 2, "x")
		sig := []store.Signature{{Seq: 2, Kind: store.SigStation, Count: 1, Station: "arbiter", Key: "00", Sig: "00"}}
		if !rep.ApplyAnswered(ctx, "c", Reply{Seq: 2, First: 2, Events: encodeEvents("c", []store.Event{next}, nil)}) {
			t.Fatal("the answer was not applied")
		}
		err := rep.Apply(ctx, StreamMsg{Seq: 2, Data: encodeEvents("c", []store.Event{next}, sig)[0]})
		var alarm *AlarmError
		if !errors.As(err, &alarm) {
			t.Fatalf("got %v, want the alarm", err)
		}
	})
	rep, db, first := fresh(t)
	second := claim(first, 2, "x")
	third := claim(second, 3, "x")
	for _, tc := range []struct {
		name string
		id   string
		r    Reply
	}{
		{"an answer after a gap (the record ends at 1)", "c", Reply{Seq: 3, First: 3, Events: encodeEvents("c", []store.Event{third}, nil)}},
		{"an answer whose message names another sequence", "c", Reply{Seq: 3, First: 3, Events: encodeEvents("c", []store.Event{second}, nil)}},
		{"an answer for another command", "d", Reply{Seq: 2, First: 2, Events: encodeEvents("c", []store.Event{second}, nil)}},
		{"an answer whose sequences do not count its messages", "c", Reply{Seq: 3, First: 2, Events: encodeEvents("c", []store.Event{second}, nil)}},
		{"a refusal", "c", Reply{Seq: 2, First: 2, Error: "no", Events: encodeEvents("c", []store.Event{second}, nil)}},
		{"an edited message", "c", Reply{Seq: 2, First: 2, Events: [][]byte{[]byte(string(encodeEvents("c", []store.Event{second}, nil)[0][:40]))}}},
	} {
		t.Run(tc.name+" is left to the stream, the record unchanged", func(t *testing.T) {
			if rep.ApplyAnswered(ctx, tc.id, tc.r) {
				t.Fatal("applied")
			}
			if s, _, _ := db.Head(ctx); s != 1 || rep.Alarm() != nil {
				t.Fatalf("record head %d, alarm %v", s, rep.Alarm())
			}
		})
	}
	t.Run("an answer the stream delivered first is not applied again", func(t *testing.T) {
		msgs := encodeEvents("c", []store.Event{second}, nil)
		if err := rep.Apply(ctx, StreamMsg{Seq: 2, Data: msgs[0]}); err != nil {
			t.Fatal(err)
		}
		if rep.ApplyAnswered(ctx, "c", Reply{Seq: 2, First: 2, Events: msgs}) {
			t.Fatal("applied twice")
		}
		if s, _, _ := db.Head(ctx); s != 2 || rep.StreamFrom() != 3 {
			t.Fatalf("record head %d, stream from %d", s, rep.StreamFrom())
		}
	})
}
