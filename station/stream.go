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

// watchFile looks, every second, whether the record's file was edited
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
		err := s.rep.raiseAlarm(fileAlarm(uint64(s.app.State().Seq+1), p))
		s.cfg.Logf("ALARM: %v", err)
	}
}

func (s *Station) consumeFrom(ctx context.Context, from uint64) error {
	return s.link.Consume(ctx, from, func(m StreamMsg) error {
		s.working()
		for {
			err := s.rep.Apply(ctx, m)
			if err == nil {
				if s.app != nil {
					// the events as the replica applied them, not read back
					s.app.Take(s.ctx, s.rep.Events())
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
// finish (docs/stations.md, "Failover that always finishes"). Looking at
// the streams, it also has the worker ask for their lead when this
// station's engine should lead them and does not (shouldLead).
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
	if !due {
		return
	}
	want := min(len(s.rep.Holders()), 3)
	ctx, cancel := context.WithTimeout(s.ctx, 2*time.Second)
	defer cancel()
	lead, leadable := false, true
	for _, cfg := range []jetstream.StreamConfig{StreamConfig(want), HeadsStreamConfig(want)} {
		st, err := s.eng.js.Stream(ctx, cfg.Name)
		if err != nil {
			continue
		}
		if cfg.Name == StreamName && !s.holdsStream(st.CachedInfo()) {
			leadable = false
		}
		lead = lead || s.shouldLead(st.CachedInfo())
		if want < 2 || st.CachedInfo().Config.Replicas >= want {
			continue
		}
		if _, err := s.eng.js.UpdateStream(ctx, cfg); err != nil {
			s.cfg.Logf("%s: the stream %s keeps %d replicas for %d record holders: %v", s.cfg.Name, cfg.Name, st.CachedInfo().Config.Replicas, want, err)
			continue
		}
		s.cfg.Logf("%s: the stream %s now has %d replicas, one on each record holder", s.cfg.Name, cfg.Name, want)
	}
	if lead && leadable {
		select {
		case s.leadWanted <- struct{}{}: // the worker asks, between two commands
		default:
		}
	}
}

// The authority of three record holders has its own engine lead the match's
// streams (docs/stations.md, "The authority leads the stream"): a command is
// published through the authority's server, and when another server leads
// the stream, the publish and its acknowledgement each cross a route, and
// the leader — which delivers a committed message to its consumers first —
// is not where the command started. The leadership is asked for with
// JetStream's own leader step-down naming this engine as the preferred
// successor (Raft elects it only if its log is current); nothing of the
// record or of the stream's guarantees changes.

// leadBackoff is how long the authority waits before asking again when its
// engine did not become the leader it asked to be (at most leadBackoffMax).
const (
	leadBackoff    = 10 * time.Second
	leadBackoffMax = 5 * time.Minute
)

// shouldLead reports whether the authority should ask to lead the stream of
// info: three replicas or more, led by another server, this engine's
// replica among them, current and online, and no earlier ask that failed
// within its back-off.
func (s *Station) shouldLead(info *jetstream.StreamInfo) bool {
	c := info.Cluster
	if s.eng == nil || info.Config.Replicas < 3 || c == nil || c.Leader == "" || c.Leader == s.eng.cfg.Name {
		return false
	}
	current := false
	for _, p := range c.Replicas {
		if p.Name == s.eng.cfg.Name {
			current = p.Current && !p.Offline
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return current && !time.Now().Before(s.leadNext)
}

// holdsStream reports whether this station's record holds every event of
// the match's stream as info reports it: a station that was the authority
// and comes back believes it still is until its record holds the claim that
// replaced it, and asks for no lead meanwhile.
func (s *Station) holdsStream(info *jetstream.StreamInfo) bool {
	seq, _ := s.rep.Head()
	return seq >= info.State.LastSeq
}

// leadStreams asks the leader of each of the match's streams that
// shouldLead names to hand its leadership to this station's engine, and
// waits (at most 2 s a stream) until it has. The worker runs it between two
// commands: a command waits in the queue meanwhile, rather than being
// published while the stream has no leader.
func (s *Station) leadStreams() {
	if !s.authority() {
		return
	}
	me := s.eng.cfg.Name
	req, _ := json.Marshal(map[string]any{"placement": map[string]string{"preferred": me}})
	for _, name := range []string{StreamName, HeadsStreamName} {
		ctx, cancel := context.WithTimeout(s.ctx, 2*time.Second)
		st, err := s.eng.js.Stream(ctx, name)
		if name == StreamName && (err != nil || !s.holdsStream(st.CachedInfo()) || !s.authority()) {
			cancel()
			return // not (or no longer) the authority the stream names
		}
		if err != nil || !s.shouldLead(st.CachedInfo()) {
			cancel()
			continue
		}
		from, asked := st.CachedInfo().Cluster.Leader, time.Now()
		if _, err := s.eng.nc.RequestWithContext(ctx, "$JS.API.STREAM.LEADER.STEPDOWN."+name, req); err != nil {
			s.cfg.Logf("%s: asked %s to hand the lead of the stream %s: %v", s.cfg.Name, from, name, err)
		}
		led := s.waitLeader(ctx, name, from, me)
		cancel()
		s.mu.Lock()
		if led {
			s.leadWait = 0
		} else {
			s.leadWait = min(max(2*s.leadWait, leadBackoff), leadBackoffMax)
			s.leadNext = time.Now().Add(s.leadWait)
		}
		s.mu.Unlock()
		if led {
			s.cfg.Logf("%s: the stream %s is led by this station's engine (it was %s; %v)", s.cfg.Name, name, from, time.Since(asked).Round(time.Millisecond))
		} else {
			s.cfg.Logf("%s: the stream %s is not led by this station's engine %v after asking %s; asked again in %v at the earliest", s.cfg.Name, name, time.Since(asked).Round(time.Millisecond), from, s.leadWait)
		}
	}
}

// waitLeader waits until the stream name, led by from when asked, reports
// leader as its leader (true), or another server than from (false: the
// step-down went elsewhere, JetStream's choice when it finds the preferred
// server not current), or ctx ends; each question waits at most 100 ms (a
// stream electing its leader answers none).
func (s *Station) waitLeader(ctx context.Context, name, from, leader string) bool {
	for ctx.Err() == nil {
		qctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		st, err := s.eng.js.Stream(qctx, name)
		cancel()
		if err == nil && st.CachedInfo().Cluster != nil {
			switch now := st.CachedInfo().Cluster.Leader; now {
			case leader:
				return true
			case from, "":
			default:
				return false
			}
		}
		if sleepCtx(ctx, 10*time.Millisecond) != nil {
			break
		}
	}
	return false
}
