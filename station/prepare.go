package station

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/match"
	"arbiter/store"
)

// The sender prepares its transaction (docs/stations.md, "The sender
// prepares its transaction"): the authority, as it publishes a command's
// events, sends the station whose Submit waits for them the same bytes, on
// the inbox its request names (Request.Prep). That station's replica
// appends them in a transaction through every check of the stream's path
// and holds it open, uncommitted, until the stream delivers its messages
// for those sequences; it commits only when they are byte for byte the
// bytes it prepared, and rolls back on any difference, a gap, a stream
// message that came first, the wait's end (prepWait) or the station's
// stop: the stream's messages are then applied as ever (Replica.Apply).
// An open transaction is seen by no reader, so the record never holds what
// the stream did not commit.

// prepWait bounds how long a prepared transaction waits for the stream's
// messages (the record's connection waits meanwhile): one try of Submit.
var prepWait = time.Second

var errNotTheStreams = errors.New("station: the prepared events are not the stream's")

// prepared is a transaction a replica holds open for the stream's messages
// of one command (Replica.Prepare).
type prepared struct {
	first uint64
	raw   [][]byte
	msgs  chan handoff  // the stream's messages for it, from Apply
	held  chan struct{} // closed once its events are appended and it waits for the stream's
	done  chan struct{} // closed once committed or rolled back
}

// handoff is one stream message Apply gives the prepared transaction, and
// where it is told whether the transaction took it (held, or committed
// with it: true) or not (false: Apply applies it as ever).
type handoff struct {
	m     StreamMsg
	taken chan bool
}

// encodePrepared frames a command's stream messages as one message: each
// its length (uvarint) and its bytes.
func encodePrepared(msgs [][]byte) []byte {
	var b []byte
	for _, m := range msgs {
		b = binary.AppendUvarint(b, uint64(len(m)))
		b = append(b, m...)
	}
	return b
}

// decodePrepared reads encodePrepared's frames (nil: not such frames).
func decodePrepared(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil
		}
		out = append(out, b[k:k+int(n)])
		b = b[k+int(n):]
	}
	return out
}

// sendPrepared sends the sender of the command being run (ctx's keyPrep,
// its prepared inbox) the command's stream messages, as they are published.
func (s *Station) sendPrepared(ctx context.Context, msgs [][]byte) {
	if to, _ := ctx.Value(keyPrep).(string); to != "" {
		s.link.nc.Publish(to, encodePrepared(msgs))
	}
}

// onPrepared takes a command's events from the authority for the replica to
// prepare (prepareLoop); one that comes while another is prepared is left
// to the stream.
func (s *Station) onPrepared(m *nats.Msg) {
	if raw := decodePrepared(m.Data); len(raw) > 0 {
		select {
		case s.preps <- raw:
		default:
		}
	}
}

// prepareLoop prepares what onPrepared took, one at a time, until the
// station stops (one of the station's goroutines: its stop waits for a
// prepared transaction's rollback).
func (s *Station) prepareLoop() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case raw := <-s.preps:
			s.rep.Prepare(s.ctx, raw)
		}
	}
}

// Prepare appends a command's events, raw as the stream will deliver them,
// in a transaction held open until the stream's messages for them come
// (Apply hands them over): committed when they are the same bytes, rolled
// back otherwise, when ctx ends or after prepWait. It prepares nothing when
// the record does not end right before them, a stream message is being
// applied, or they do not decode and check as the stream's would; a check
// that fails raises no alarm (the stream's message decides). It reports
// whether it committed.
func (r *Replica) Prepare(ctx context.Context, raw [][]byte) bool {
	batch := make([]pendingEvent, len(raw))
	for i, data := range raw {
		w, ev, err := decodeEvent(data)
		if err != nil || store.EventHash(ev) != ev.Hash || w.Part != i+1 || w.Parts != len(raw) ||
			(i > 0 && (w.Cmd != batch[0].w.Cmd || ev.Seq != batch[i-1].ev.Seq+1)) {
			return false
		}
		batch[i] = pendingEvent{w, ev}
	}
	if len(batch) == 0 {
		return false
	}
	p := &prepared{first: uint64(batch[0].ev.Seq), raw: raw, msgs: make(chan handoff), held: make(chan struct{}), done: make(chan struct{})}
	r.mu.Lock()
	seq, head := r.seq, r.head
	ok := r.alarm == nil && r.prep == nil && !r.applying && len(r.pending) == 0 && p.first == seq+1 &&
		(batch[0].ev.Prev == head || seq == 0 && batch[0].ev.Prev == store.GenesisPrev)
	prior, walk, guard := r.events, r.walk, r.guard
	if ok {
		r.prep = p
	}
	r.mu.Unlock()
	if !ok {
		return false
	}
	var held []StreamMsg // the stream's messages taken, each the bytes prepared
	var last *handoff    // the one whose answer waits for the commit
	var walked *match.IncomingWalk
	var step *match.ReplayStep
	_, err := r.db.Update(context.WithValue(context.WithoutCancel(ctx), keyReplica, true), func(tx *store.Tx) error {
		var mismatch, err error
		walked, step, mismatch, err = appendBatch(tx, prior, batch, walk, guard)
		if mismatch != nil {
			return mismatch
		}
		if err != nil {
			return err
		}
		wait := time.NewTimer(prepWait)
		defer wait.Stop()
		close(p.held)
		for len(held) < len(raw) {
			select {
			case h := <-p.msgs:
				k := len(held)
				if h.m.Seq != p.first+uint64(k) || !bytes.Equal(h.m.Data, raw[k]) {
					last = &h
					return errNotTheStreams
				}
				held = append(held, h.m)
				if len(held) < len(raw) {
					h.taken <- true // held: the next part follows
				} else {
					last = &h
				}
			case <-wait.C:
				return context.DeadlineExceeded
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	committed := err == nil
	if committed {
		r.commit(batch, walked, walk.Walked(), step)
		r.preparedCommits.Add(1)
	} else if last != nil && len(held) == len(raw) {
		held = held[:len(held)-1] // the last part is given again (Apply)
	}
	if !committed {
		// The parts the stream delivered and this transaction held go the
		// stream's way, before the message Apply gives again.
		for _, m := range held {
			if _, gerr := r.gather(m); gerr != nil {
				break
			}
		}
	}
	r.mu.Lock()
	r.prep = nil
	r.mu.Unlock()
	close(p.done)
	if last != nil {
		last.taken <- committed
	}
	return committed
}

// toPrepared gives the stream's message m to the transaction prepared for
// it, if one is: taken reports that it held it or committed with it, so
// that Apply has nothing more to do. Otherwise Apply is marked applying
// (no transaction is prepared while it runs) until done is called.
func (r *Replica) toPrepared(m StreamMsg) (taken bool, done func()) {
	r.mu.Lock()
	p := r.prep
	if p == nil {
		r.applying = true
		r.mu.Unlock()
		return false, r.applied
	}
	r.mu.Unlock()
	h := handoff{m: m, taken: make(chan bool, 1)}
	select {
	case p.msgs <- h:
		if <-h.taken {
			return true, nil
		}
	case <-p.done:
	}
	<-p.done
	return r.toPrepared(m) // rolled back: applied as ever
}

func (r *Replica) applied() {
	r.mu.Lock()
	r.applying = false
	r.mu.Unlock()
}

// PrepPrefix begins every inbox a request names for its prepared events
// (Request.Prep): the authority publishes to no other subject for it.
const PrepPrefix = "_INBOX.prep."

// prepInbox reports whether a request's Prep is an inbox the authority
// sends prepared events to: PrepPrefix and one token, no wildcard.
func prepInbox(to string) bool {
	tok, ok := strings.CutPrefix(to, PrepPrefix)
	return ok && tok != "" && !strings.ContainsAny(tok, ".*> \t\r\n")
}
