package station

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/store"
)

type beatSeen struct {
	at       time.Time // local, monotonic
	seq      int64
	matchSeq int64
	auth     bool     // it says it acts as the authority (beat.Beat)
	info     beatInfo // seen.go
}

// authority reports whether the latest claim in the record names this
// station, with the key it signs with (a claim of this name that certified
// another key — the station invited again under its name, a new
// certificate — makes it claim anew first: its events would be refused
// everywhere, record-check-system-not-authority).
func (s *Station) authority() bool {
	name, _ := s.rep.Authority()
	ok := name == s.cfg.Name && s.eng != nil && s.rep.Alarm() == nil && s.signsAsClaimed()
	s.mu.Lock()
	if ok && !s.isAuth {
		// Taking over: continue the timeline the stations had.
		s.freezeLocked()
	}
	s.isAuth = ok
	s.mu.Unlock()
	return ok
}

// signsAsClaimed reports whether this station signs with the key the
// latest claim certified, or either certifies none (a record made before
// stations certified their keys, a station without credentials).
func (s *Station) signsAsClaimed() bool {
	k := s.rep.ClaimKey()
	return k == "" || s.cert.Key == "" || k == s.cert.Key
}

// beat publishes one heartbeat now.
func (s *Station) beat() {
	auth := s.authority()
	seq, _ := s.rep.Head()
	b, _ := json.Marshal(beat{Name: s.cfg.Name, NowNS: s.Now().UnixNano(), Seq: int64(seq), Beat: auth, MatchSeq: s.app.State().MatchSeq, beatInfo: s.info()})
	s.link.nc.Publish(SubjectBeat, b)
}

// beatLoop publishes this station's heartbeats (the authority's say so).
func (s *Station) beatLoop() { s.every(s.cfg.BeatEvery, s.beat) }

// monitor claims authority when the authority named by the record has been
// silent for cfg.Silence.
func (s *Station) monitor() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.Silence / 10)
	defer t.Stop()
	since := time.Now()
	var claimSeen uint64
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if s.rep.Alarm() != nil {
			continue
		}
		if s.authority() {
			s.scaleStream()
			continue
		}
		auth, claimAt := s.rep.Authority()
		if auth == s.cfg.Name && s.eng != nil && !s.signsAsClaimed() {
			// named by a claim that certified another key of this name:
			// claim anew, with this station's certificate
			if err := s.Claim(s.ctx, auth); err != nil && s.ctx.Err() == nil {
				s.cfg.Logf("%s: claim with its new certificate failed: %v", s.cfg.Name, err)
			}
			continue
		}
		if claimAt != claimSeen {
			claimSeen, since = claimAt, time.Now() // a new authority gets its own 2 s
		}
		s.mu.Lock()
		seen, ok := s.beats[auth]
		s.mu.Unlock()
		last := since
		if ok && seen.at.After(last) && seen.info.Alarm == "" {
			// An authority whose beats carry its alarm (its file edited
			// behind it) runs no command: it is silent as an authority,
			// and another current holder claims (docs/stations.md,
			// "An alarm at a record holder").
			last = seen.at
		}
		if auth == "" && !s.cfg.First || auth != "" && time.Since(last) < s.cfg.Silence {
			continue
		}
		if auth != "" && !s.knowsTime() {
			if time.Since(last) < 3*s.cfg.Silence {
				continue // another holder that knows the timeline claims first
			}
			how := "makes this station's clock the timeline"
			if saved := s.savedTimeline(); saved != "" {
				how = saved
			}
			s.cfg.Logf("%s: no record holder that knows the match timeline answers: a claim here %s", s.cfg.Name, how)
		}
		if err := s.Claim(s.ctx, auth); err != nil && s.ctx.Err() == nil {
			s.cfg.Logf("%s: claim failed: %v", s.cfg.Name, err)
		}
	}
}

// Claim appends a claim naming this station, provided the latest claim
// still names silent (the sequence check makes only one claimant win, and
// only on the majority side). The arbiter hands authority back the same way.
func (s *Station) Claim(ctx context.Context, silent string) error {
	if s.eng == nil {
		return errors.New("station: a client station cannot hold authority")
	}
	if r, refused := s.refusedByAlarm(); refused {
		return r.Phrase // never the authority while its alarm stands
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	last, err := s.link.LastSeq(ctx)
	if err != nil {
		return &EngineError{err}
	}
	if err := s.rep.WaitSeq(ctx, last); err != nil {
		return err
	}
	if auth, _ := s.rep.Authority(); auth != silent {
		return nil // someone else claimed meanwhile
	}
	s.mu.Lock()
	s.freezeLocked()
	s.timeKnown = true
	s.claims++
	id := fmt.Sprintf("claim/%s/%d/%d", s.cfg.Name, last, s.claims)
	s.mu.Unlock()
	// The claim is a system event: it bounds no command (match.SystemEvent),
	// so it carries the instant it is made, received here and then.
	at := s.Now()
	s.mu.Lock()
	epoch := s.epoch
	s.mu.Unlock()
	payload, _ := json.Marshal(claimPayload{Station: s.cfg.Name, Epoch: epoch, StationCertificate: s.cert})
	cctx := context.WithValue(context.WithValue(ctx, keyCommand, id), keyClaim, true)
	_, err = s.cfg.DB.Update(cctx, func(tx *store.Tx) error {
		e, err := tx.Append(store.Event{Match: 1, At: at, Received: at, Role: "system", Actor: "Arbiter", Kind: KindClaim, Payload: payload})
		if err != nil {
			return err
		}
		return s.app.SignSystemEvent(tx, e)
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	acked := s.acked[id]
	s.mu.Unlock()
	s.rep.Adopt(ctx, id, acked, nil)
	s.cfg.Logf("%s claims authority after event %d", s.cfg.Name, last)
	return s.rep.WaitSeq(ctx, last+1)
}

// majority reports whether the match's stream has a majority (Link.Majority),
// answering at once, without asking the stream, for a record holder whose
// engine is connected to no other (Engine.Alone): the survivor of two learns
// so as the other stops, where a question to a stream whose leader stopped
// waits out its time-out unanswered. A question under way ends as soon as
// the engine is alone (looked at every 50 ms): the arbiter's claim comes
// a moment after the other dies, before its route has dropped (it waited
// out the question's 2 s, 2 kills in 6).
func (s *Station) majority(ctx context.Context) (bool, error) {
	if s.eng == nil {
		return s.link.Majority(ctx)
	}
	if s.eng.Alone() {
		return false, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if s.eng.Alone() {
				cancel()
				return
			}
		}
	}()
	ok, err := s.link.Majority(ctx)
	if s.eng.Alone() {
		return false, nil
	}
	return ok, err
}

// waitReplicasCurrent waits, up to 20 s, until every replica of the stream
// is current, unless one is offline (then waiting would not help): a holder
// that joins a running cluster scales the stream up (EnsureStream), and
// until its replica has caught up, losing another holder could leave the
// stream without a leader for good (seen in make station-test, about one
// run in two: the first station stopped right after the third holder
// joined, and the other two never elected one).
func (s *Station) waitReplicasCurrent(ctx context.Context, n int) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	for {
		// As many replicas as the record names holders (at most 3), this
		// holder's among them: a holder invited before another joined
		// counts too few, and the authority scales the stream up
		// (scaleStream) once it sees this one's member event.
		want := max(n, min(len(s.rep.Holders()), 3))
		if info, err := s.link.streamInfo(ctx); err == nil && info.Cluster != nil && info.Config.Replicas >= want && info.Cluster.Leader != "" && len(info.Cluster.Replicas) == info.Config.Replicas-1 {
			current, offline, mine := true, false, info.Cluster.Leader == s.cfg.Name
			for _, r := range info.Cluster.Replicas {
				current = current && r.Current
				offline = offline || r.Offline || r.Active > 3*time.Second
				mine = mine || r.Name == s.cfg.Name
			}
			if (current || offline) && mine {
				return
			}
		}
		if sleepCtx(ctx, 200*time.Millisecond) != nil {
			s.cfg.Logf("%s: the stream's %d replicas are not all current after 20 s; going on", s.cfg.Name, n)
			return
		}
	}
}

// claimRequest takes authority at the arbiter's request (handing it back to
// his station after a failover), with the sequence check like any claim.
func (s *Station) claimRequest(m *nats.Msg) {
	var req struct {
		PIN   string `json:"pin"`
		Epoch bool   `json:"epoch,omitempty"`
	}
	json.Unmarshal(m.Data, &req)
	answer := func(err error) {
		r := Reply{By: s.cfg.Name}
		if err != nil {
			r.Error = err.Error()
			errors.As(err, &r.Phrase) // a refusal of the station's own (the alarm's)
		}
		r.Seq, _ = s.rep.Head()
		b, _ := json.Marshal(r)
		m.Respond(b)
		// Once the engine has it (a round trip to it), the answer reaches
		// the arbiter's command even when the engine stops next: the
		// server sends what it holds for a connection before closing it.
		s.link.nc.FlushTimeout(time.Second)
	}
	if s.cfg.CheckClaim == nil {
		answer(errors.New("this station takes authority only on its own"))
		return
	}
	if err := s.cfg.CheckClaim(req.PIN); err != nil {
		answer(err)
		return
	}
	if r, refused := s.refusedByAlarm(); refused {
		answer(r.Phrase) // never the authority, nor a new epoch, while its alarm stands
		return
	}
	if req.Epoch {
		// Only a station cut off from the majority starts an epoch: one
		// whose engine lost its route to every other knows at once; a
		// leader that has just lost its peer notices within seconds; a
		// stream that answers no question for 6 s has no leader.
		// Another record holder heard beating after the request came
		// is alive (a killed one beats no more, and one stopped a moment
		// ago was last heard before): refused at once, not after the 6 s.
		asked := time.Now()
		deadline := asked.Add(6 * time.Second)
		for {
			ok, err := s.majority(s.ctx)
			if err == nil && !ok || err != nil && time.Now().After(deadline) {
				break
			}
			if s.holderBeatSince(asked) || time.Now().After(deadline) || sleepCtx(s.ctx, 250*time.Millisecond) != nil {
				answer(errors.New("the match's stream still has a majority, so no new epoch is needed: give 'station claim' without --epoch"))
				return
			}
		}
		// Answered before the face is told: it stops the station, and
		// with it the connection the answer leaves by (told first, the
		// answer was lost whenever this goroutine waited for a core
		// meanwhile, and the arbiter's command said after 15 s that no
		// answer came: seen under load).
		answer(nil)
		select {
		case s.epochWanted <- struct{}{}:
		default:
		}
		return
	}
	// Catch up first: a station that has just restarted may still read an
	// old claim naming itself.
	cctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	last, err := s.link.LastSeq(cctx)
	if err == nil {
		err = s.rep.WaitSeq(cctx, last)
	}
	cancel()
	if err != nil {
		answer(fmt.Errorf("this station has not caught up with the match's stream (%v): give 'station claim' again", err))
		return
	}
	if s.authority() {
		answer(nil)
		return
	}
	auth, _ := s.rep.Authority()
	if err := s.Claim(s.ctx, auth); err != nil {
		answer(err)
		return
	}
	if !s.authority() {
		answer(errors.New("another station claimed authority at the same moment: look at 'station status' and try again"))
		return
	}
	answer(nil)
}

// holderBeatSince reports whether another record holder (the record
// names it one, or its beats say its role is one) was heard beating after
// t (local, monotonic).
func (s *Station) holderBeatSince(t time.Time) bool {
	holders := map[string]bool{}
	for _, h := range s.rep.Holders() {
		holders[h.Name] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, b := range s.beats {
		if name != s.cfg.Name && (holders[name] || Holder(b.info.Role)) && b.at.After(t) {
			return true
		}
	}
	return false
}

// onBeat notes a station's heartbeat.
func (s *Station) onBeat(m *nats.Msg) {
	var b beat
	if json.Unmarshal(m.Data, &b) != nil {
		return
	}
	s.mu.Lock()
	s.beats[b.Name] = beatSeen{at: time.Now(), seq: b.Seq, matchSeq: b.MatchSeq, auth: b.Beat, info: b.beatInfo}
	close(s.beatChanged)
	s.beatChanged = make(chan struct{})
	s.mu.Unlock()
}
