package station

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"
)

// TimeSample is one answer of the authority to a time request: the offset
// of its timeline to the asker's time source (NTP-style: its instant minus
// the middle of the round trip), the round trip, the authority's head, the
// claim that made it the authority, and when it was taken (the asker's
// time source at the middle of the round trip).
type TimeSample struct {
	Offset, RTT time.Duration
	Seq         int64
	MatchSeq    int64 // the authority's last event that is not a system event
	Claim       int64 // the seq of the claim naming the station that answered (0: a peer's answer)
	At          time.Time
}

const (
	// keptSamples: how many time samples a station or a link keeps, newest
	// last: 16 s of them at four a second, so that a few seconds of a
	// loaded machine or network (every round trip long) do not leave only
	// poor samples to estimate from.
	keptSamples = 64
	// maxDrift: how fast two machines' clocks may run apart, as a fraction
	// (100 ppm: a quartz clock keeps within 50 ppm of true time). A
	// sample's error bound grows by it with the sample's age.
	maxDrift = 100e-6
)

// Error is the bound on x's error at instant now on the asker's time
// source: half its round trip (the answer was stamped somewhere within it)
// plus how far the two clocks may have drifted apart since.
func (x TimeSample) Error(now time.Time) time.Duration {
	age := now.Sub(x.At)
	if age < 0 {
		age = 0
	}
	return x.RTT/2 + time.Duration(float64(age)*maxDrift)
}

// Samples are the last keptSamples time samples, newest last: the one with
// the smallest error bound gives the offset (docs/stations.md, "Exact
// clocks").
type Samples []TimeSample

// Add keeps s among the last keptSamples. The samples estimate one
// authority's timeline: an answer of a later claim (a new authority, which
// continued the timeline only within the bound of its own estimate) drops
// the samples of the earlier one, and an answer of an earlier claim (a
// deposed authority that does not know it yet) is not kept, so that the
// error bound stated is the bound on the current authority's timeline.
func (ss *Samples) Add(s TimeSample) {
	if n := len(*ss); n > 0 {
		switch last := (*ss)[n-1].Claim; {
		case s.Claim < last:
			return
		case s.Claim > last:
			*ss = (*ss)[:0]
		}
	}
	*ss = append(*ss, s)
	if len(*ss) > keptSamples {
		*ss = append((*ss)[:0], (*ss)[len(*ss)-keptSamples:]...)
	}
}

// Best is the sample with the smallest error bound now (TimeSample.Error),
// and that bound; ok is false when there is none. Which sample it is does
// not depend on the instant the bounds are compared at, so they are
// compared at the newest sample's.
func (ss Samples) Best() (best TimeSample, uncertainty time.Duration, ok bool) {
	if len(ss) == 0 {
		return best, 0, false
	}
	now := ss[len(ss)-1].At
	for _, x := range ss {
		if e := x.Error(now); !ok || e < uncertainty {
			best, uncertainty, ok = x, e, true
		}
	}
	return best, uncertainty, ok
}

// AskTime asks subject for the match timeline once, on the time source now.
func AskTime(nc *nats.Conn, subject string, now func() time.Time, timeout time.Duration) (TimeSample, bool) {
	t0 := now()
	m, err := nc.Request(subject, nil, timeout)
	t3 := now()
	if err != nil {
		return TimeSample{}, false
	}
	var b beat
	if json.Unmarshal(m.Data, &b) != nil {
		return TimeSample{}, false
	}
	rtt := t3.Sub(t0)
	mid := t0.Add(rtt / 2)
	return TimeSample{Offset: time.Unix(0, b.NowNS).Sub(mid), RTT: rtt, Seq: b.Seq, MatchSeq: b.MatchSeq, Claim: b.Claim, At: mid}, true
}

// Now is the match timeline at this station: the local time source plus the
// estimated offset to the authority's (for the authority, the offset it
// had when it took over, so the timeline does not jump).
func (s *Station) Now() time.Time {
	return s.timelineAt(s.cfg.Now())
}

// timelineAt is the match timeline at the instant local of the station's
// time source.
func (s *Station) timelineAt(local time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return local.Add(s.timelineLocked())
}

// timelineLocked is the offset Now adds to the local time source.
func (s *Station) timelineLocked() time.Duration {
	if s.isAuth {
		return s.frozen
	}
	return s.offsetLocked()
}

// freezeLocked keeps the estimated offset to the match timeline (and its
// error bound) as the one the station's timeline continues with.
func (s *Station) freezeLocked() {
	if best, u, ok := s.samples.Best(); ok {
		s.frozen, s.frozenErr = best.Offset, u
	}
}

func (s *Station) offsetLocked() time.Duration {
	if best, _, ok := s.samples.Best(); ok {
		return best.Offset
	}
	return s.frozen
}

// Offset is the estimated offset to the authority's timeline and its
// uncertainty (the best sample's error bound, Samples.Best).
func (s *Station) Offset() (offset, uncertainty time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isAuth {
		return s.frozen, 0
	}
	best, u, ok := s.samples.Best()
	if !ok {
		return s.frozen, -time.Millisecond // unknown: no answer from the authority yet
	}
	return best.Offset, u
}

// uncertaintyLocked is the error bound of this station's timeline now: 0
// on the authority, the best sample's bound elsewhere; known is false when
// it has no sample. s.mu is held.
func (s *Station) uncertaintyLocked() (u time.Duration, known bool) {
	switch {
	case !s.timeKnown:
		return 0, false
	case s.isAuth:
		return 0, true
	}
	_, u, known = s.samples.Best()
	return u, known
}

// takeoverError is the error bound of the offset the station continues the
// timeline with as the authority (or, before any time sample, with the
// timeline learnt from peers): the bound of the estimate when it was taken,
// 0 when it continued none. isAuth: the station is the authority.
func (s *Station) takeoverError() (bound time.Duration, isAuth bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frozenErr, s.isAuth
}

// timeLoop estimates the offset to the authority several times a second.
func (s *Station) timeLoop() {
	s.every(250*time.Millisecond, func() {
		if s.authority() {
			return
		}
		if !s.timeSample(SubjectTime) && s.eng != nil && !s.knowsTime() {
			// No authority answers and this holder has no timeline yet
			// (it has just started): take it from another record holder
			// that has one, so that a claim of its own continues it.
			s.timeSample(SubjectTimePeer)
		}
	})
}

// timeSample asks subject for the match timeline once and keeps the answer
// as a sample (offset NTP-style, the round trip its uncertainty).
func (s *Station) timeSample(subject string) bool {
	x, ok := AskTime(s.link.nc, subject, s.cfg.Now, 500*time.Millisecond)
	if !ok {
		return false
	}
	s.mu.Lock()
	s.samples.Add(x)
	s.timeKnown = true
	s.mu.Unlock()
	return true
}

// knowsTime reports whether this station knows the match timeline.
func (s *Station) knowsTime() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.timeKnown
}

// learnTimeline: a record holder the record names as the authority, which
// has not claimed in this run (it restarted), does not know its offset to
// the match timeline; it asks the other holders for up to 2 s and
// continues their timeline. If none answers (the whole match restarts) it
// continues the timeline it saved (Config.TimelineFile), or, with none, its
// own clock becomes the timeline.
func (s *Station) learnTimeline(ctx context.Context) {
	deadline := time.Now().Add(2 * time.Second)
	for n := 0; n < 4 && time.Now().Before(deadline) && ctx.Err() == nil; {
		if s.timeSample(SubjectTimePeer) {
			n++
			continue
		}
		sleepCtx(ctx, 100*time.Millisecond)
	}
	s.mu.Lock()
	learnt := len(s.samples) > 0
	if learnt {
		s.freezeLocked()
	}
	s.samples = nil // samples from peers, not from an authority
	s.timeKnown = true
	s.mu.Unlock()
	if !learnt {
		how := "this station's clock is the timeline now"
		if saved := s.savedTimeline(); saved != "" {
			how = "this station " + saved
		}
		s.cfg.Logf("%s: no other record holder knows the match timeline: %s", s.cfg.Name, how)
	}
}

// rttLocked is the round trip this holder measured to station name: the
// shortest of its last eight measurements (0: none). s.mu is held.
func (s *Station) rttLocked(name string) time.Duration {
	var best time.Duration
	for i, d := range s.rtts[name] {
		if i == 0 || d < best {
			best = d
		}
	}
	return best
}

// RoundTrip is the round trip this record holder measured to station name
// (0: none measured).
func (s *Station) RoundTrip(name string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rttLocked(name)
}

// pingLoop measures, four times a second, the round trip from this record
// holder to every station heard beating in the last 2 s, itself included
// (a command given on its own machine): the bound on a request's stamp
// (docs/stations.md, "Exact clocks").
func (s *Station) pingLoop() {
	s.every(250*time.Millisecond, func() {
		s.mu.Lock()
		var names []string
		for name, b := range s.beats {
			if time.Since(b.at) < 2*time.Second {
				names = append(names, name)
			}
		}
		s.mu.Unlock()
		for _, name := range names {
			go s.ping(name)
		}
	})
}

// ping measures one round trip to station name.
func (s *Station) ping(name string) {
	t0 := time.Now()
	if _, err := s.link.nc.Request(pingSubject(name), nil, 500*time.Millisecond); err != nil {
		return
	}
	d := time.Since(t0)
	s.mu.Lock()
	rs := append(s.rtts[name], d)
	if len(rs) > 8 {
		rs = rs[len(rs)-8:]
	}
	s.rtts[name] = rs
	s.mu.Unlock()
}

// Estimate is the station's estimate of the match timeline now (the
// offset to its time source, Config.Now) and its uncertainty; ok is false
// while it does not know the timeline (no authority answered, and it is
// not the authority).
func (s *Station) Estimate() (offset, uncertainty time.Duration, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.estimateLocked()
}

// estimateLocked is Estimate with s.mu held: the authority's own timeline
// (no uncertainty), else the best sample's offset and bound, else the
// timeline continued without a sample yet (bound 0) once it is known.
func (s *Station) estimateLocked() (offset, uncertainty time.Duration, ok bool) {
	if s.isAuth {
		return s.frozen, 0, true
	}
	if best, u, found := s.samples.Best(); found {
		return best.Offset, u, true
	}
	if !s.timeKnown {
		return 0, 0, false
	}
	return s.frozen, 0, true
}

// Timeline is the match timeline now at this station and the uncertainty
// of the estimate it was read on, both read at once (Now and Estimate
// read apart may meet different estimates: a sample that came, or aged
// out, between them), so that a command stamped with it states the bound
// of the estimate its stamp was read on (docs/stations.md, "Exact
// clocks"); ok is false while the station does not know the timeline, as
// for Estimate.
func (s *Station) Timeline() (now time.Time, uncertainty time.Duration, ok bool) {
	local := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	off, u, ok := s.estimateLocked()
	if !ok {
		return time.Time{}, 0, false
	}
	return local.Add(off), u, true
}

// onTimeRequest answers a time request while this station is the
// authority and knows the match timeline. It is stamped on receipt: the
// checks take time (locks) that would otherwise count on the answer's way
// only, which the asker's estimate takes as half the round trip.
func (s *Station) onTimeRequest(m *nats.Msg) {
	got := s.cfg.Now()
	if !s.authority() || !s.knowsTime() {
		return
	}
	seq, _ := s.rep.Head()
	_, claim := s.rep.Authority()
	b, _ := json.Marshal(beat{Name: s.cfg.Name, NowNS: s.timelineAt(got).UnixNano(), Seq: int64(seq), Claim: int64(claim), MatchSeq: s.app.State().MatchSeq})
	m.Respond(b)
}

// onPeerTimeRequest gives the match timeline to a record holder that does
// not know it, when this one does (stamped on receipt, as a time request).
func (s *Station) onPeerTimeRequest(m *nats.Msg) {
	got := s.cfg.Now()
	if !s.knowsTime() {
		return
	}
	b, _ := json.Marshal(beat{Name: s.cfg.Name, NowNS: s.timelineAt(got).UnixNano()})
	m.Respond(b)
}
