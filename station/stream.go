package station

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// consume applies the stream to the replica, from event 1 (events already in
// the record are compared, which also rebuilds the index of command ids).
func (s *Station) consume() {
	defer s.wg.Done()
	from := uint64(1)
	for s.ctx.Err() == nil {
		ctx, cancel := context.WithCancel(s.ctx)
		stuck := make(chan struct{})
		go s.watchConsumer(ctx, cancel, stuck)
		err := s.consumeFrom(ctx, from)
		cancel()
		<-stuck
		var alarm *AlarmError
		if errors.As(err, &alarm) {
			return
		}
		seq, _ := s.rep.Head()
		from = seq + 1
	}
}

// consumeHeads applies the heads stream to the replica (docs/stations.md,
// "Signed heads"): each head signature the arbiter made after a command
// given at a station, once the record holds its event. A signature the
// record does not take is logged and skipped; applying stops with the
// alarm.
func (s *Station) consumeHeads() {
	defer s.wg.Done()
	from := uint64(1)
	for s.ctx.Err() == nil {
		err := s.link.ConsumeHeads(s.ctx, from, func(m StreamMsg) error {
			var h HeadNote
			if err := json.Unmarshal(m.Data, &h); err != nil {
				s.cfg.Logf("%s: head signature %d of the heads stream is unreadable: skipped", s.cfg.Name, m.Seq)
				from = m.Seq + 1
				return nil
			}
			for {
				if err := s.awaitEvent(h.Seq); err != nil {
					return err
				}
				err := s.rep.ApplyHead(s.ctx, h)
				var refused *HeadError
				if errors.As(err, &refused) {
					s.cfg.Logf("%s: %v", s.cfg.Name, err)
				} else if err != nil {
					if sleepCtx(s.ctx, 100*time.Millisecond) != nil {
						return s.ctx.Err()
					}
					continue // the disk: tried again
				}
				from = m.Seq + 1
				return nil
			}
		})
		var alarm *AlarmError
		if errors.As(err, &alarm) {
			return
		}
	}
}

// watchConsumer restarts the consumer when the stream's leader reports
// events the replica has not received for 3 s (a consumer left behind by a
// change of leader).
func (s *Station) watchConsumer(ctx context.Context, restart context.CancelFunc, done chan struct{}) {
	defer close(done)
	behind := 0
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.watchFile(ctx)
		qctx, cancel := context.WithTimeout(ctx, 900*time.Millisecond)
		last, err := s.link.LastSeq(qctx)
		cancel()
		if seq, _ := s.rep.Head(); err != nil || last > seq {
			behind++
		} else {
			behind = 0
		}
		if behind >= 3 {
			s.cfg.Logf("%s: the stream is at event %d and this record behind it for 3 s: the consumer restarts", s.cfg.Name, last)
			if s.eng == nil {
				s.link.nc.ForceReconnect() // a client may sit on a server that stands apart
			}
			restart()
			return
		}
	}
}

// watchFile looks, every second and right after the station's own
// checkpoint (checkpointLoop), whether the record's file was edited
// behind the station anywhere, not only at its last event (CheckFileHead
// looks there before each append): the core's Watch costs one pragma and
// one stat while nothing but this station wrote to the file, and checks
// the record whole when someone else did (sqlite3, a hex editor). An edit
// found raises the file alarm: applying stops, nothing more is appended
// onto the edited file.
func (s *Station) watchFile(ctx context.Context) {
	if s.app == nil || s.rep.Alarm() != nil {
		return
	}
	if err := s.app.Watch(ctx); err != nil {
		return // the disk: looked at again at the next tick
	}
	if p := s.app.Why(); p != nil {
		// checkpointLoop looks too: the alarm is raised, and logged, once
		a := fileAlarm(uint64(s.app.State().Seq+1), p)
		if err := s.rep.raiseAlarm(a); err == error(a) {
			s.cfg.Logf("ALARM: %v", err)
		}
	}
}

func (s *Station) consumeFrom(ctx context.Context, from uint64) error {
	return s.link.Consume(ctx, from, func(m StreamMsg) error {
		s.working()
		for {
			err := s.rep.Apply(ctx, m)
			if err == nil {
				if s.app != nil {
					// the events as the replica applied them, not read
					// back, and the match as its guard replayed them
					evs, st := s.rep.Applied()
					s.app.TakeReplayed(s.ctx, evs, st)
				}
				if s.eng != nil && !s.authority() && !s.streamSettled() {
					// the authority of two holders answers once the other
					// has applied (waitOtherHolder); with three it waits
					// for no holder, and the beats every 200 ms say the rest
					s.beat()
				}
				return nil
			}
			var alarm *AlarmError
			if errors.As(err, &alarm) {
				s.cfg.Logf("ALARM: %v", err)
				return err
			}
			if sleepCtx(ctx, 100*time.Millisecond) != nil {
				return ctx.Err()
			}
		}
	})
}

// commandsOf splits a record into its commands as they were written: the
// events a command's (or request's) signature covers, from its first event
// on, go together, every other event alone. A stream seeded from a record
// carries each command as one batch, so that a station joining applies it
// in one transaction and checks its signature over all of its events (a
// rule 10 correction, a move that mates, a credential's registration).
func commandsOf(evs []store.Event, sigs []store.Signature) [][]store.Event {
	count := map[int64]int64{}
	for _, sg := range sigs {
		if sg.Kind == store.SigCommand || sg.Kind == store.SigRequest {
			count[sg.Seq] = max(count[sg.Seq], sg.Count)
		}
	}
	var out [][]store.Event
	for i := 0; i < len(evs); {
		n := max(int(count[evs[i].Seq]), 1)
		n = min(n, len(evs)-i)
		out = append(out, evs[i:i+n])
		i += n
	}
	return out
}

// bootstrap makes the first record holder's record the stream (an empty
// stream takes the record's events one by one, with the sequence check) and
// its station the authority.
func (s *Station) bootstrap(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var last uint64
	for {
		var err error
		if last, err = s.link.LastSeq(ctx); err == nil {
			break
		}
		if sleepCtx(ctx, 200*time.Millisecond) != nil {
			return refuse(CodeStreamSilent, err)
		}
	}
	seq, _ := s.rep.Head()
	if seq > last && last > 0 {
		return s.rep.raise(last+1, "this record holds events %d to %d that the stream does not", last+1, seq)
	}
	if last == 0 && seq == 0 && s.cfg.First {
		return s.Claim(ctx, "")
	}
	if last > 0 || seq == 0 {
		return nil
	}
	// An empty stream and a record: the first station, or a holder whose
	// lone engine became a cluster (a new stream). Every holder with a
	// record may seed: the ids are the events' own, so copies coincide.
	evs, sigs, err := s.cfg.DB.Record(ctx)
	if err != nil {
		return err
	}
	for _, cmd := range commandsOf(evs, sigs) {
		first, end := cmd[0], cmd[len(cmd)-1]
		id := fmt.Sprintf("seed/%d/%s", first.Seq, first.Hash[:16])
		// A cluster that is still forming answers "no responders" or not
		// at all until the stream has a leader: each command is tried
		// again until it is in (another holder seeding the same events
		// makes it a duplicate or moves the stream past it) or ctx ends.
		for {
			tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, err := s.link.Append(tctx, id, encodeEvents(id, cmd, sigs), uint64(first.Seq-1))
			cancel()
			var dup *DuplicateError
			if err == nil || errors.As(err, &dup) {
				break
			}
			if errors.Is(err, ErrStale) {
				if last, lerr := s.link.LastSeq(ctx); lerr == nil && last >= uint64(end.Seq) {
					break
				}
			}
			if sleepCtx(ctx, 200*time.Millisecond) != nil {
				return fmt.Errorf("station: put event %d into the stream: %w", first.Seq, err)
			}
		}
	}
	if err := s.rep.WaitSeq(ctx, seq); err != nil {
		return err
	}
	if auth, _ := s.rep.Authority(); auth == "" && s.cfg.First {
		return s.Claim(ctx, "")
	}
	if s.cfg.Epoch {
		auth, _ := s.rep.Authority()
		s.mu.Lock()
		s.epoch = s.rep.Epoch() + 1
		s.mu.Unlock()
		if err := s.Claim(ctx, auth); err != nil {
			return err
		}
		if s.rep.Epoch() != s.epoch {
			return errors.New("station: the new epoch's claim is not in the record")
		}
		s.cfg.Logf("%s starts epoch %d as the match's only record holder", s.cfg.Name, s.epoch)
	}
	return nil
}

// Holders are the record holders named by the member events, with their
// route addresses, in the order they joined.
func (r *Replica) Holders() []MemberInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	var hs []MemberInfo
	for _, name := range r.memberOrder {
		if m := r.members[name]; Holder(m.Role) {
			hs = append(hs, m)
		}
	}
	return hs
}

// scaleStream gives the stream as many replicas as the record names
// record holders, at most 3 (the authority does it, every few seconds):
// a holder that joined with an invitation made before another holder
// joined starts its engine counting too few, and an R2 stream takes no
// writes once either of its two servers dies — a failover would never
// finish (docs/stations.md, "Failover that always finishes").
func (s *Station) scaleStream() {
	if s.eng == nil || s.eng.cfg.Cluster == nil {
		return
	}
	s.mu.Lock()
	due := time.Since(s.scaled) >= 2*time.Second
	if due {
		s.scaled = time.Now()
	}
	s.mu.Unlock()
	want := min(len(s.rep.Holders()), 3)
	if !due || want < 2 {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 2*time.Second)
	defer cancel()
	for _, cfg := range []jetstream.StreamConfig{StreamConfig(want), HeadsStreamConfig(want)} {
		st, err := s.eng.js.Stream(ctx, cfg.Name)
		if err != nil || st.CachedInfo().Config.Replicas >= want {
			continue
		}
		if _, err := s.eng.js.UpdateStream(ctx, cfg); err != nil {
			s.cfg.Logf("%s: the stream %s keeps %d replicas for %d record holders: %v", s.cfg.Name, cfg.Name, st.CachedInfo().Config.Replicas, want, err)
			continue
		}
		s.cfg.Logf("%s: the stream %s now has %d replicas, one on each record holder", s.cfg.Name, cfg.Name, want)
	}
}
