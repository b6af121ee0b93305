package station

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"arbiter/match"
	"arbiter/store"
)

// refusalCount rate-limits the station.refused events: at most one per
// peer and kind every RefusalWindow, counting those left out (keys
// "PEER kind"); at the authority, recorded counts those another holder's
// report left out of the record (refusalKept).
type refusalCount struct {
	last     map[string]time.Time
	more     map[string]int
	recorded map[string]int
	n        int
	window   time.Duration // RefusalWindow (tests shorten it)
}

// RefusalWindow: a station has a refused connection or message of one
// peer and kind recorded at most once in it, with the count of those left
// out (docs/stations.md, "Security on the LAN").
const RefusalWindow = time.Minute

// refusalWindowLocked is the window in force (s.mu held).
func (s *Station) refusalWindowLocked() time.Duration {
	if s.refusals.window == 0 {
		return RefusalWindow
	}
	return s.refusals.window
}

// refused records a refusal of this station's server as an event (through
// the authority), at most one per peer (the address it came from) and kind
// every RefusalWindow; the ones in between are counted in the next.
func (s *Station) refused(kind, detail string) {
	peer := refusedPeer(detail)
	key := peer + " " + kind
	s.mu.Lock()
	if s.refusals.last == nil {
		s.refusals.last, s.refusals.more = map[string]time.Time{}, map[string]int{}
	}
	if last, ok := s.refusals.last[key]; ok && time.Since(last) < s.refusalWindowLocked() {
		s.refusals.more[key]++
		s.mu.Unlock()
		return
	}
	more := s.refusals.more[key]
	s.refusals.last[key], s.refusals.more[key] = time.Now(), 0
	s.refusals.n++
	id := fmt.Sprintf("refused/%s/%d/%d", s.cfg.Name, time.Now().UnixNano(), s.refusals.n)
	s.mu.Unlock()
	if len(detail) > 300 {
		detail = detail[:300]
	}
	go func() {
		select {
		case <-s.ready:
		case <-s.ctx.Done():
			return
		}
		ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
		defer cancel()
		s.Submit(ctx, Request{ID: id, Role: "arbiter", Refused: &RefusalNote{Kind: kind, Detail: detail, More: more, Peer: peer}})
	}()
}

// refusedPeer is the address (host) a refusal of the server came from: its
// log lines begin "HOST:PORT - cid:N - …" (rid for routes); "" when the
// line names none.
func refusedPeer(detail string) string {
	addr, _, ok := strings.Cut(detail, " - ")
	if !ok {
		return ""
	}
	host, _, err := net.SplitHostPort(strings.TrimSpace(addr))
	if err != nil {
		return ""
	}
	return host
}

// appendRefused records a refusal (station.refused) at the instant the
// reporting holder claims and the instant it was received (a system event:
// it bounds no command, match.SystemEvent), unless the record holds one of
// the same peer and kind received less than RefusalWindow before it
// (reported by another holder): then it is only counted, in the next one
// recorded.
func (s *Station) appendRefused(ctx context.Context, req Request) error {
	at, received := SystemInstant(req)
	note := *req.Refused
	kind, n, peer := note.Kind, note.More, note.Peer
	key := peer + " " + kind
	s.mu.Lock()
	window := s.refusalWindowLocked()
	s.mu.Unlock()
	if recent, err := s.refusedSince(ctx, received.Add(-window), peer, kind); err != nil {
		return err
	} else if recent {
		s.mu.Lock()
		if s.refusals.recorded == nil {
			s.refusals.recorded = map[string]int{}
		}
		s.refusals.recorded[key] += n + 1
		s.mu.Unlock()
		return nil
	}
	s.mu.Lock()
	n += s.refusals.recorded[key]
	s.mu.Unlock()
	payload, _ := json.Marshal(map[string]string{"station": req.From, "kind": kind, "peer": peer, "detail": note.Detail, "more": strconv.Itoa(n)})
	err := s.appendSystem(ctx, at, received, KindRefused, payload)
	if err == nil {
		s.mu.Lock()
		delete(s.refusals.recorded, key)
		s.mu.Unlock()
	}
	return err
}

// SystemInstant is the instant a station's own event (station.refused,
// station.member) is recorded at and the instant it was received: the
// instant the sending station stamped, but never later than its receipt
// (a later stamp — within the uncertainty the authority allows a stamp,
// match.Cmd's bounds, or beyond it, as a station that does not know the
// match timeline yet stamps on its own clock — is lowered to the receipt:
// no event's instant lies after its receipt), nor earlier than 1900.
func SystemInstant(req Request) (at, received time.Time) {
	at = req.At.UTC()
	if req.Stamp == nil || req.Stamp.Received.IsZero() {
		return at, at
	}
	received = req.Stamp.Received.UTC()
	if at.After(received) || at.Before(match.Earliest) {
		at = received
	}
	return at, received
}

// refusedSince reports whether the record holds a station.refused of this
// peer and kind received at or after since (its instant for one without a
// receipt). The record's instants need not grow with seq (a system event
// bounds nothing), so every refusal is looked at.
func (s *Station) refusedSince(ctx context.Context, since time.Time, peer, kind string) (bool, error) {
	evs, err := s.cfg.DB.EventsAfter(ctx, 0)
	if err != nil {
		return false, err
	}
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		when := e.Received
		if when.IsZero() {
			when = e.At
		}
		var p struct{ Kind, Peer string }
		if e.Kind == KindRefused && !when.Before(since) && json.Unmarshal(e.Payload, &p) == nil && p.Kind == kind && p.Peer == peer {
			return true, nil
		}
	}
	return false, nil
}

// appendMember records a record holder joining (station.member), sent by
// that holder through the authority.
func (s *Station) appendMember(ctx context.Context, req Request) error {
	at, received := SystemInstant(req)
	m := *req.Member
	payload, _ := json.Marshal(MemberInfo{Name: m.Name, Role: m.Role, Listen: m.Listen})
	return s.appendSystem(ctx, at, received, KindMember, payload)
}

// appendSystem appends one of the stations' own events, signed by this
// station on a protected match (match.App.SignSystemEvent), and brings the
// core's state up to it.
func (s *Station) appendSystem(ctx context.Context, at, received time.Time, kind string, payload []byte) error {
	_, err := s.cfg.DB.Update(ctx, func(tx *store.Tx) error {
		e, err := tx.Append(store.Event{Match: 1, At: at, Received: received, Role: "system", Actor: "Arbiter", Kind: kind, Payload: payload})
		if err != nil {
			return err
		}
		return s.app.SignSystemEvent(tx, e)
	})
	if err == nil {
		err = s.app.Refresh(ctx)
	}
	return err
}
