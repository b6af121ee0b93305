package station

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arbiter/match"
	"arbiter/service"
	"arbiter/store"
)

// Executor runs one request's command on the authority's record, inside
// the command layer (package match), with ctx passed on to the store so
// that the events go into the stream before the record commits them.
type Executor func(ctx context.Context, app *match.App, req Request) (output string, err error)

// Config describes one station.
type Config struct {
	Name string
	Role string // organiser | display | operator | mirror
	DB   *store.DB
	// Engine is set for record holders (organiser, display); nil for clients.
	Engine *EngineConfig
	// Dial: for clients, the record holders' client URLs, with TLS.
	Dial []string
	TLS  *tls.Config
	Exec Executor
	// Now is the local time source (default service.NewTimeSource().Now).
	Now func() time.Time
	// Silence: how long the authority may be silent before another record
	// holder claims authority (default 2 s). BeatEvery: heartbeat period
	// (default 200 ms).
	Silence   time.Duration
	BeatEvery time.Duration
	Logf      func(format string, a ...any)
	// CheckClaim checks the credential of a request to take authority here
	// (the arbiter's PIN); nil refuses every such request.
	CheckClaim func(pin string) error
	// First: this station is the match's first record holder: it puts the
	// record it starts with into an empty stream and claims authority.
	First bool
	// Offset, when set, is this station's offset to the match timeline as
	// the station it replaces in the same process knew it (Station.Offset):
	// a new epoch, or a lone holder restarting as a cluster, continues the
	// timeline instead of making its own clock the timeline.
	Offset *time.Duration
	// TimelineFile: where a record holder keeps its offset to the match
	// timeline (against Now), rewritten when it moves by more than 1 ms and
	// every 5 s; without Offset, a holder starting takes the offset it
	// finds there as its timeline until a time sample from the authority
	// or a peer arrives, so that when every holder restarted the timeline
	// continues. "" keeps none. Clients ignore it.
	TimelineFile string
	// Epoch: this record holder, the survivor of two, starts a new epoch:
	// its engine (lone, in a new store) takes its record, and it claims
	// authority with the next epoch's number, after which it is the only
	// record holder (the other rejoins only by a new invitation). Start
	// refuses while the record's last epoch claim is not older than the
	// record holders the record names (nothing to start).
	Epoch bool
}

// Holder reports whether a role holds the record.
func Holder(role string) bool { return role == "organiser" || role == "display" }

// Station is one running station.
type Station struct {
	cfg  Config
	eng  *Engine
	link *Link
	rep  *Replica
	app  *match.App

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	subs   []*nats.Subscription
	cmds   chan *nats.Msg
	ready  chan struct{} // closed when Start has returned the station
	// epochWanted: the arbiter asked for a new epoch (station claim --epoch)
	epochWanted chan struct{}

	mu      sync.Mutex
	started time.Time
	beats   map[string]beatSeen
	// beatChanged is closed and replaced on every beat heard
	beatChanged chan struct{}
	samples     Samples // time samples from the authority, newest last
	// frozen: the offset the station's timeline keeps while it is the
	// authority (taken from the samples when it takes over) and before
	// any sample; frozenErr: the error bound of that estimate when it
	// was taken (0: none, the station's own or saved timeline)
	frozen, frozenErr time.Duration
	// timeKnown: this station knows the match timeline (a time sample, a
	// claim of its own in this run, or the other holders asked at start:
	// an authority that restarted does not know its offset)
	timeKnown bool
	// saved: the offset read from Config.TimelineFile at start (nil: none);
	// persisted, persistedAt: the last one written there, and when (local,
	// monotonic).
	saved       *savedTimeline
	persisted   time.Duration
	persistedAt time.Time
	isAuth      bool
	receipts    map[string]receipt         // command id -> its first receipt by any record holder
	rtts        map[string][]time.Duration // station -> the last round trips this holder measured to it
	acked       map[string]uint64          // command id -> last seq, acknowledged by the stream
	claims      int
	epoch       int // the epoch a claim of this station starts (Config.Epoch)
	refusals    refusalCount
	scaled      time.Time // when the authority last looked at the stream's replicas (scaleStream)
}

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

type beatSeen struct {
	at       time.Time // local, monotonic
	seq      int64
	matchSeq int64
	info     beatInfo // seen.go
}

// TimeSample is one answer of the authority to a time request: the offset
// of its timeline to the asker's time source (NTP-style: its instant minus
// the middle of the round trip), the round trip, the authority's head, and
// when it was taken (the asker's time source at the middle of the round
// trip).
type TimeSample struct {
	Offset, RTT time.Duration
	Seq         int64
	MatchSeq    int64 // the authority's last event that is not a system event
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

// Add keeps s among the last keptSamples.
func (ss *Samples) Add(s TimeSample) {
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
	return TimeSample{Offset: time.Unix(0, b.NowNS).Sub(mid), RTT: rtt, Seq: b.Seq, MatchSeq: b.MatchSeq, At: mid}, true
}

// receipt is the first receipt of a request by any record holder: the
// instant on that holder's match timeline, the holder, and the round trip
// it measured to the sender (0: none measured). here: this holder has
// received the request itself (and published its note).
type receipt struct {
	at   time.Time
	by   string
	rtt  time.Duration
	here bool
}

var (
	// ErrDirect: a write on a station's record outside the station.
	ErrDirect = errors.New("station: this record belongs to a station; give the command through the station ('arbiter --db FILE ...' forwards it)")
	// ErrNotAuthority: this station is not the authority (any more).
	ErrNotAuthority = errors.New("station: this station is not the match's authority")
)

// EngineError is a failure of the stream (timeout, no quorum): the outcome
// of the append is unknown, so the request is not answered and the sender
// retries with the same id.
type EngineError struct{ Err error }

func (e *EngineError) Error() string {
	return "station: the stream did not take the command: " + e.Err.Error()
}
func (e *EngineError) Unwrap() error { return e.Err }

// Start starts the station and returns once its engine runs and its
// replica applies the stream.
func Start(ctx context.Context, cfg Config) (*Station, error) {
	if cfg.Now == nil {
		cfg.Now = service.NewTimeSource().Now
	}
	if cfg.Silence == 0 {
		cfg.Silence = 2 * time.Second
	}
	if cfg.BeatEvery == 0 {
		cfg.BeatEvery = 200 * time.Millisecond
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	s := &Station{cfg: cfg, beats: map[string]beatSeen{}, beatChanged: make(chan struct{}), receipts: map[string]receipt{}, rtts: map[string][]time.Duration{},
		acked: map[string]uint64{}, cmds: make(chan *nats.Msg, 256), started: time.Now(), ready: make(chan struct{}),
		epochWanted: make(chan struct{}, 1)}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if cfg.Engine == nil {
		s.cfg.TimelineFile = "" // a client keeps no timeline of its own
	}
	if cfg.Offset != nil {
		s.frozen, s.timeKnown = *cfg.Offset, true
	} else if s.cfg.TimelineFile != "" {
		s.loadTimeline()
	}
	var err error
	if s.rep, err = OpenReplica(ctx, cfg.DB); err != nil {
		return nil, err
	}
	if s.app, err = match.Open(ctx, cfg.DB); err != nil {
		return nil, err
	}
	// Before anything is appended, the record must end with what this
	// station wrote (an edited or damaged file raises the alarm).
	cfg.DB.SetHeadCheck(s.rep.CheckFileHead)
	started := false
	defer func() {
		if !started {
			cfg.DB.SetHeadCheck(nil)
		}
	}()
	if cfg.Engine != nil {
		ec := *cfg.Engine
		ec.OnRefused = s.refused
		if s.eng, err = StartEngine(ec); err != nil {
			return nil, err
		}
		s.link = &s.eng.Link
		sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		err = s.eng.EnsureStream(sctx)
		cancel()
		if err != nil {
			s.eng.Stop()
			return nil, err
		}
		cfg.DB.SetBeforeCommit(s.beforeCommit)
	} else {
		if s.link, err = Dial(cfg.Dial, cfg.Name, cfg.TLS); err != nil {
			return nil, err
		}
	}
	if err := s.subscribe(); err != nil {
		s.Stop()
		return nil, err
	}
	s.wg.Add(2)
	go s.consume()
	go s.consumeHeads()
	if s.eng != nil {
		if err := s.bootstrap(ctx); err != nil {
			s.Stop()
			return nil, err
		}
		s.mu.Lock()
		claimed := s.claims > 0
		s.mu.Unlock()
		if auth, _ := s.rep.Authority(); auth == s.cfg.Name && !claimed && s.eng.cfg.Cluster != nil && cfg.Offset == nil {
			s.learnTimeline(ctx)
		} else {
			s.mu.Lock()
			s.timeKnown = s.timeKnown || auth == s.cfg.Name // a lone holder's clock is the timeline
			s.mu.Unlock()
		}
		s.wg.Add(3)
		go s.worker()
		go s.monitor()
		go s.pingLoop()
		if s.cfg.TimelineFile != "" {
			s.wg.Add(1)
			go s.every(250*time.Millisecond, s.persistTimeline)
		}
	}
	s.wg.Add(2)
	go s.beatLoop()
	go s.timeLoop()
	close(s.ready)
	if s.eng != nil {
		if c := s.eng.cfg.Cluster; c != nil && c.Replicas > 1 {
			// The station runs meanwhile (it learns the timeline, beats,
			// may claim); only Start's return, which says it serves, waits.
			s.waitReplicasCurrent(ctx, c.Replicas)
		}
	}
	started = true
	return s, nil
}

// EpochWanted is told when the arbiter asked this station for a new epoch
// (station claim --epoch, accepted only while the stream has no majority):
// the face stops the station and starts it again with Config.Epoch.
func (s *Station) EpochWanted() <-chan struct{} { return s.epochWanted }

// Stop stops the station (the engine included).
func (s *Station) Stop() {
	s.cancel()
	for _, sub := range s.subs {
		sub.Unsubscribe()
	}
	if s.eng != nil {
		s.cfg.DB.SetBeforeCommit(nil)
	}
	s.wg.Wait()
	s.cfg.DB.SetHeadCheck(nil)
	if s.eng != nil {
		s.eng.Stop()
	} else if s.link != nil {
		s.link.Close()
	}
}

// Name, Replica, App, Link give access for the faces and tests.
func (s *Station) Name() string             { return s.cfg.Name }
func (s *Station) Replica() *Replica        { return s.rep }
func (s *Station) App() *match.App          { return s.app }
func (s *Station) Link() *Link              { return s.link }
func (s *Station) Engine() *Engine          { return s.eng }
func (s *Station) Config() Config           { return s.cfg }
func (s *Station) Context() context.Context { return s.ctx }

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

// awaitEvent waits until the replica holds event seq, or returns nil at
// once when the stream itself does not hold it (a head signature of an
// event that does not exist is then refused by ApplyHead); it returns the
// alarm once raised, or the station's end.
func (s *Station) awaitEvent(seq int64) error {
	for {
		ctx, cancel := context.WithTimeout(s.ctx, 2*time.Second)
		err := s.rep.WaitSeq(ctx, uint64(max(seq, 0)))
		cancel()
		var alarm *AlarmError
		switch {
		case err == nil, errors.As(err, &alarm):
			return err
		case s.ctx.Err() != nil:
			return s.ctx.Err()
		}
		if last, lerr := s.link.LastSeq(s.ctx); lerr == nil && last < uint64(seq) {
			return nil
		}
	}
}

// handleHead appends to the heads stream the arbiter's head signature a
// station sent after his command, once checked against this record (the
// authority's); every station then puts it beside its record
// (consumeHeads). A signature that does not hold is refused; while the
// record has not reached its event, or the stream does not take it, it is
// not answered and the sender retries.
func (s *Station) handleHead(ctx context.Context, m *nats.Msg, req Request) {
	h := *req.SignedHead
	if !s.authority() {
		return
	}
	if len(req.Args) > 0 {
		s.respond(m, Reply{Error: "a head signature is sent alone, without a command: give the command again"})
		return
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err := s.rep.WaitSeq(wctx, uint64(max(h.Seq, 1)))
	cancel()
	if err != nil && s.rep.CheckHead(h) != "" {
		s.cfg.Logf("%s: head signature %s: the record did not reach event %d: %v", s.cfg.Name, req.ID, h.Seq, err)
		if last, lerr := s.link.LastSeq(ctx); lerr != nil || last >= uint64(h.Seq) {
			return // not answered: the sender retries
		}
	}
	if problem := s.rep.CheckHead(h); problem != "" {
		s.respond(m, Reply{Error: "the arbiter's head signature is refused: " + problem})
		return
	}
	b, _ := json.Marshal(h)
	if err := s.link.PublishHead(ctx, fmt.Sprintf("head-%d-%s", h.Seq, h.Key), b); err != nil {
		s.cfg.Logf("%s: head signature %s not appended: %v", s.cfg.Name, req.ID, err)
		return
	}
	s.respond(m, Reply{Seq: uint64(h.Seq)})
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

func (s *Station) consumeFrom(ctx context.Context, from uint64) error {
	return s.link.Consume(ctx, from, func(m StreamMsg) error {
		for {
			err := s.rep.Apply(ctx, m)
			if err == nil {
				if s.app != nil {
					s.app.Refresh(s.ctx)
				}
				if s.eng != nil && !s.authority() {
					s.beat() // the authority of two holders answers once the other has applied
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

func (s *Station) subscribe() error {
	nc := s.link.nc
	sub, err := nc.Subscribe(SubjectBeat, func(m *nats.Msg) {
		var b beat
		if json.Unmarshal(m.Data, &b) != nil {
			return
		}
		s.mu.Lock()
		s.beats[b.Name] = beatSeen{at: time.Now(), seq: b.Seq, matchSeq: b.MatchSeq, info: b.beatInfo}
		close(s.beatChanged)
		s.beatChanged = make(chan struct{})
		s.mu.Unlock()
	})
	if err != nil {
		return err
	}
	s.subs = append(s.subs, sub)
	// Every station answers the record holders' round-trip measurements.
	sub, err = nc.Subscribe(pingSubject(s.cfg.Name), func(m *nats.Msg) { m.Respond(nil) })
	if err != nil {
		return err
	}
	s.subs = append(s.subs, sub)
	if s.eng == nil {
		return nil
	}
	sub, err = nc.Subscribe(SubjectCommands+".>", func(m *nats.Msg) {
		var req Request
		if json.Unmarshal(m.Data, &req) != nil || req.ID == "" {
			return
		}
		if m.Subject != SubjectCommands+"."+req.Role {
			return // the role must be the subject's: the connection's permissions name the subjects
		}
		now := s.Now()
		s.mu.Lock()
		r, ok := s.receipts[req.ID]
		var note []byte
		if !ok || !r.here {
			if !ok && len(s.receipts) >= 4096 { // forget receipts older than the duplicate window's use
				for id, x := range s.receipts {
					if now.Sub(x.at) > time.Hour {
						delete(s.receipts, id)
					}
				}
			}
			rtt := s.rttLocked(req.From)
			first := receipt{at: now, by: s.cfg.Name, rtt: rtt, here: true}
			if ok && !now.Before(r.at) {
				first.at, first.by, first.rtt = r.at, r.by, r.rtt // another holder received it first
			}
			s.receipts[req.ID] = first
			note, _ = json.Marshal(receiptNote{ID: req.ID, By: s.cfg.Name, AtNS: now.UnixNano(), RTTNS: int64(rtt)})
		}
		auth := s.isAuth
		s.mu.Unlock()
		if note != nil {
			nc.Publish(SubjectReceipt, note) // the other holders learn this holder's receipt
		}
		if auth {
			select {
			case s.cmds <- m:
			default: // full: the sender retries
			}
		}
	})
	if err != nil {
		return err
	}
	s.subs = append(s.subs, sub)
	sub, err = nc.Subscribe(SubjectReceipt, func(m *nats.Msg) {
		var n receiptNote
		if json.Unmarshal(m.Data, &n) != nil || n.ID == "" || n.By == s.cfg.Name {
			return
		}
		at := time.Unix(0, n.AtNS)
		s.mu.Lock()
		if r, ok := s.receipts[n.ID]; !ok || at.Before(r.at) {
			s.receipts[n.ID] = receipt{at: at, by: n.By, rtt: time.Duration(n.RTTNS), here: r.here}
		}
		s.mu.Unlock()
	})
	if err != nil {
		return err
	}
	s.subs = append(s.subs, sub)
	sub, err = nc.Subscribe(SubjectClaim+"."+s.cfg.Name, func(m *nats.Msg) {
		go s.claimRequest(m)
	})
	if err != nil {
		return err
	}
	s.subs = append(s.subs, sub)
	sub, err = nc.Subscribe(SubjectTime, func(m *nats.Msg) {
		// Stamped on receipt: the checks below take time (locks) that would
		// otherwise count on the answer's way only, which the asker's
		// estimate takes as half the round trip.
		got := s.cfg.Now()
		if !s.authority() || !s.knowsTime() {
			return
		}
		seq, _ := s.rep.Head()
		_, claim := s.rep.Authority()
		b, _ := json.Marshal(beat{Name: s.cfg.Name, NowNS: s.timelineAt(got).UnixNano(), Seq: int64(seq), Claim: int64(claim), MatchSeq: s.app.State().MatchSeq})
		m.Respond(b)
	})
	if err != nil {
		return err
	}
	s.subs = append(s.subs, sub)
	// A record holder that knows the match timeline gives it to one that
	// does not (just started, while no authority answers).
	sub, err = nc.Subscribe(SubjectTimePeer, func(m *nats.Msg) {
		got := s.cfg.Now() // stamped on receipt, as the time requests
		if !s.knowsTime() {
			return
		}
		b, _ := json.Marshal(beat{Name: s.cfg.Name, NowNS: s.timelineAt(got).UnixNano()})
		m.Respond(b)
	})
	if err != nil {
		return err
	}
	s.subs = append(s.subs, sub)
	return nil
}

// authority reports whether the latest claim in the record names this station.
func (s *Station) authority() bool {
	name, _ := s.rep.Authority()
	ok := name == s.cfg.Name && s.eng != nil && s.rep.Alarm() == nil
	s.mu.Lock()
	if ok && !s.isAuth {
		// Taking over: continue the timeline the stations had.
		s.freezeLocked()
	}
	s.isAuth = ok
	s.mu.Unlock()
	return ok
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

// every runs fn every d until the station stops (one of the station's
// goroutines: s.wg counts it).
func (s *Station) every(d time.Duration, fn func()) {
	defer s.wg.Done()
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		fn()
	}
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

// otherHolder is, when the stream has exactly two replicas (two record
// holders), the station that holds the other one; "" otherwise.
func (s *Station) otherHolder(peers []string) string {
	if len(peers) != 2 || s.eng == nil {
		return ""
	}
	for _, p := range peers {
		if p != s.cfg.Name && p != "" {
			return p
		}
	}
	return ""
}

// waitOtherHolder: with exactly two record holders, the authority answers a
// command only once the other holder's record holds it too (its beat right
// after applying, or its periodic one), however long that takes, so that a
// new epoch on either (station claim --epoch) starts from a record with
// every acknowledged command. It reports false when ctx ended first: the
// command is then not answered (the sender retries with the same id, and
// the retry waits the same way). With one holder the record is the
// authority's own; with three the stream's majority keeps every
// acknowledged event and a new authority catches up from it.
func (s *Station) waitOtherHolder(ctx context.Context, seq uint64, other string) bool {
	if other == "" {
		return true
	}
	said := time.NewTimer(time.Second)
	defer said.Stop()
	for {
		s.mu.Lock()
		b, changed := s.beats[other], s.beatChanged
		s.mu.Unlock()
		if uint64(b.seq) >= seq {
			return true
		}
		select {
		case <-ctx.Done():
			s.cfg.Logf("%s: event %d not answered: %s has not reported it applied", s.cfg.Name, seq, other)
			return false
		case <-said.C:
			s.cfg.Logf("%s: event %d waits for %s to apply it (two record holders: answered only when both hold it)", s.cfg.Name, seq, other)
		case <-changed:
		}
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
		if claimAt != claimSeen {
			claimSeen, since = claimAt, time.Now() // a new authority gets its own 2 s
		}
		s.mu.Lock()
		seen, ok := s.beats[auth]
		s.mu.Unlock()
		last := since
		if ok && seen.at.After(last) {
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
	payload, _ := json.Marshal(claimPayload{Station: s.cfg.Name, Epoch: epoch})
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
	s.rep.Adopt(ctx, id, acked)
	s.cfg.Logf("%s claims authority after event %d", s.cfg.Name, last)
	return s.rep.WaitSeq(ctx, last+1)
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
			return fmt.Errorf("station: the match's stream does not answer: %w", err)
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
		s.Submit(ctx, Request{ID: id, Role: "arbiter", Args: []string{"station", "refused", kind, detail, fmt.Sprint(more), peer}})
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
	kind, more, peer := req.Args[2], req.Args[4], ""
	if len(req.Args) > 5 {
		peer = req.Args[5]
	}
	n, _ := strconv.Atoi(more)
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
	payload, _ := json.Marshal(map[string]string{"station": req.From, "kind": kind, "peer": peer, "detail": req.Args[3], "more": strconv.Itoa(n)})
	_, err := s.cfg.DB.Update(ctx, func(tx *store.Tx) error {
		e, err := tx.Append(store.Event{Match: 1, At: at, Received: received, Role: "system", Actor: "Arbiter", Kind: KindRefused, Payload: payload})
		if err != nil {
			return err
		}
		return s.app.SignSystemEvent(tx, e)
	})
	if err == nil {
		s.mu.Lock()
		delete(s.refusals.recorded, key)
		s.mu.Unlock()
		s.app.Refresh(ctx)
	}
	return err
}

// SystemInstant is the instant a station's own event (station.refused,
// station.member) is recorded at and the instant it was received: the
// instant the sending station stamped, but never later than its receipt
// plus the uncertainty the authority allows a stamp (match.Cmd's bounds) —
// a station that does not know the match timeline yet stamps on its own
// clock — nor earlier than 1900.
func SystemInstant(req Request) (at, received time.Time) {
	at = time.Unix(0, req.At).UTC()
	if req.Stamp == nil || req.Stamp.Received.IsZero() {
		return at, at
	}
	received = req.Stamp.Received.UTC()
	if late := match.StampTolerance(req.Stamp.RTT, req.Stamp.Uncertainty); at.After(received.Add(late)) || at.Before(match.Earliest) {
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
		}
		r.Seq, _ = s.rep.Head()
		b, _ := json.Marshal(r)
		m.Respond(b)
	}
	if s.cfg.CheckClaim == nil {
		answer(errors.New("this station takes authority only on its own"))
		return
	}
	if err := s.cfg.CheckClaim(req.PIN); err != nil {
		answer(err)
		return
	}
	if req.Epoch {
		// Only a station cut off from the majority starts an epoch; a
		// leader that has just lost its peer notices within seconds.
		deadline := time.Now().Add(6 * time.Second)
		for {
			ok, err := s.link.Majority(s.ctx)
			if err != nil || !ok {
				break
			}
			if time.Now().After(deadline) || sleepCtx(s.ctx, 250*time.Millisecond) != nil {
				answer(errors.New("the match's stream still has a majority, so no new epoch is needed: give 'station claim' without --epoch"))
				return
			}
		}
		select {
		case s.epochWanted <- struct{}{}:
		default:
		}
		answer(nil)
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

// beforeCommit puts a command's events into the stream before the record
// commits them; a refusal of the stream rolls the record back.
func (s *Station) beforeCommit(ctx context.Context, evs []store.Event, sigs []store.Signature) error {
	if ctx.Value(keyReplica) != nil {
		return nil
	}
	id, _ := ctx.Value(keyCommand).(string)
	if id == "" {
		return ErrDirect
	}
	if seq, _ := s.rep.Head(); seq != uint64(evs[0].Seq-1) {
		return ErrStale // the view of the claims would not be this command's
	}
	if ctx.Value(keyClaim) == nil && !s.authority() {
		return ErrNotAuthority
	}
	last, err := s.link.Append(ctx, id, encodeEvents(id, evs, sigs), uint64(evs[0].Seq-1))
	var dup *DuplicateError
	switch {
	case err == nil:
	case errors.Is(err, ErrStale), errors.As(err, &dup):
		return err
	default:
		return &EngineError{err}
	}
	if last != uint64(evs[len(evs)-1].Seq) {
		s.rep.raise(last, "the stream placed the command at event %d, the record at %d", last, evs[len(evs)-1].Seq)
		return s.rep.Alarm()
	}
	s.mu.Lock()
	s.acked[id] = last
	s.mu.Unlock()
	return nil
}

// worker runs the requests one at a time: catch up, answer a known id with
// its seq, validate and append.
func (s *Station) worker() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case m := <-s.cmds:
			s.handle(m)
		}
	}
}

func (s *Station) respond(m *nats.Msg, r Reply) {
	r.By = s.cfg.Name
	b, _ := json.Marshal(r)
	m.Respond(b)
}

func (s *Station) handle(m *nats.Msg) {
	var req Request
	if json.Unmarshal(m.Data, &req) != nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	if req.SignedHead != nil {
		s.handleHead(ctx, m, req)
		return
	}
	for attempt := 0; attempt < 5; attempt++ {
		last, peers, err := s.link.lastSeqPeers(ctx)
		if err != nil {
			s.cfg.Logf("%s: command %s waits for the stream: %v", s.cfg.Name, req.ID, err)
			return // no answer: the sender retries
		}
		other := s.otherHolder(peers)
		if err := s.rep.WaitSeq(ctx, last); err != nil {
			s.cfg.Logf("%s: command %s: the record did not reach event %d: %v", s.cfg.Name, req.ID, last, err)
			return
		}
		if seq, ok := s.rep.IDSeq(req.ID); ok {
			if s.waitOtherHolder(ctx, seq, other) {
				s.respond(m, s.answerFromLog(ctx, seq))
			}
			return
		}
		if !s.authority() {
			s.cfg.Logf("%s: command %s: no longer the authority", s.cfg.Name, req.ID)
			return
		}
		s.mu.Lock()
		first := s.receipts[req.ID]
		s.mu.Unlock()
		pressed := time.Unix(0, req.At)
		at := pressed
		if first.at.IsZero() {
			first = receipt{at: s.Now(), by: s.cfg.Name}
		}
		stamp := &match.Stamp{Pressed: pressed, Received: first.at, ReceivedBy: first.by, RTT: first.rtt, Uncertainty: time.Duration(req.RTT) / 2}
		if floor := first.at.Add(-first.rtt); at.Before(floor) && !(req.AtGiven && byArbiter(req)) {
			// A sender cannot backdate by more than the round trip the
			// holder that received it first measured to it: raised to
			// that bound (docs/stations.md says why it is not refused).
			// Only the arbiter's credential records an earlier instant
			// given with --at (match.LateAfter: it is recorded late).
			at, stamp.Raised = floor, true
		}
		if late := s.Now().Sub(pressed); late > time.Second && presses(req.Args) {
			// Arrived late (a failover, a sleeping laptop): its instant
			// corrects the clocks shown meanwhile.
			stamp.Correction = true
			s.cfg.Logf("%s: command %s stamped %v before it is run: recorded as a correction of the clocks", s.cfg.Name, req.ID, late.Round(time.Millisecond))
		}
		req.At, req.Stamp = at.UnixNano(), stamp
		var out string
		if (len(req.Args) == 5 || len(req.Args) == 6) && req.Args[0] == "station" && req.Args[1] == "refused" && req.Role == "arbiter" {
			err = s.appendRefused(context.WithValue(ctx, keyCommand, req.ID), req)
		} else {
			out, err = s.cfg.Exec(context.WithValue(ctx, keyCommand, req.ID), s.app, req)
		}
		var dup *DuplicateError
		var eng *EngineError
		var alarm *AlarmError
		switch {
		case errors.As(err, &alarm):
			// the record's file was changed behind the authority: it runs
			// no more commands; the sender retries and another decides
			s.cfg.Logf("ALARM: %v", err)
			return
		case err == nil:
			s.mu.Lock()
			seq, ok := s.acked[req.ID]
			s.mu.Unlock()
			if !ok {
				seq, _ = s.rep.Head()
			} else {
				s.rep.Adopt(ctx, req.ID, seq)
			}
			if s.waitOtherHolder(ctx, seq, other) {
				s.respond(m, Reply{Seq: seq, Output: out})
			}
			return
		case errors.Is(err, ErrStale), errors.As(err, &dup):
			s.cfg.Logf("%s: command %s: %v; catching up", s.cfg.Name, req.ID, err)
			continue // catch up; the id is then found in the record
		case errors.Is(err, ErrNotAuthority), errors.As(err, &eng), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			s.cfg.Logf("%s: command %s not answered: %v", s.cfg.Name, req.ID, err)
			return
		default:
			s.mu.Lock()
			_, acked := s.acked[req.ID]
			s.mu.Unlock()
			if acked {
				// The stream took the command but the record did not commit
				// (the disk): it is not withdrawn; it is answered from the log
				// once this record has applied it.
				s.cfg.Logf("%s: command %s is in the stream but the record failed: %v", s.cfg.Name, req.ID, err)
				continue
			}
			// A refusal is never appended, so no sequence check guards it:
			// a deposed authority (frozen, then thawed) may have validated
			// on a record the stream has long passed. It is answered only
			// while the stream has a majority and still ends where the
			// record validated ended; else the sender retries with the
			// same id and the current authority decides.
			if ok, merr := s.link.Majority(ctx); merr != nil || !ok {
				s.cfg.Logf("%s: command %s refused without a majority of the stream (%v): not answered", s.cfg.Name, req.ID, err)
				return
			}
			if now, _, lerr := s.link.lastSeqPeers(ctx); lerr != nil || now != last {
				s.cfg.Logf("%s: command %s refused on event %d while the stream is at %d; catching up", s.cfg.Name, req.ID, last, now)
				continue
			}
			var refusal *match.Error
			errors.As(err, &refusal)
			s.respond(m, Reply{Error: err.Error(), Refusal: refusal, Output: out})
			return
		}
	}
}

// byArbiter reports whether a request is given with the arbiter's
// credential (signed by it, or reporting a wrong one tried).
func byArbiter(req Request) bool { return req.Signer == "arbiter" || req.Tried == "arbiter" }

// presses reports whether a command's words press a clock: 'press', and
// 'move' without --pressed (the move presses its clock).
func presses(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if args[0] == "move" {
		for _, a := range args[1:] {
			if a == "--pressed" || strings.HasPrefix(a, "--pressed=") {
				return false
			}
		}
		return true
	}
	return args[0] == "press"
}

// Trace, when set, is told about every unanswered try (tests and debugging).
var Trace func(format string, a ...any)

// Submit sends a request to the authority and retries with the same id
// until it is answered or ctx ends; with rep it then waits until rep holds
// the command. Each try waits up to try for an answer.
func Submit(ctx context.Context, nc *nats.Conn, req Request, rep *Replica, try time.Duration) (Reply, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	moved := time.Now()
	for {
		m, err := nc.Request(SubjectCommands+"."+req.Role, data, try)
		if err == nil {
			var r Reply
			if err := json.Unmarshal(m.Data, &r); err != nil {
				return Reply{}, fmt.Errorf("station: unreadable answer %q", m.Data)
			}
			if r.Error == "" && rep != nil {
				if err := rep.WaitSeq(ctx, r.Seq); err != nil {
					return r, err
				}
			}
			return r, nil
		}
		if Trace != nil {
			Trace("submit %s: %v", req.ID, err)
		}
		if ctx.Err() != nil {
			return Reply{}, fmt.Errorf("station: no authority answered command %s: %w", req.ID, ctx.Err())
		}
		if errors.Is(err, nats.ErrConnectionClosed) {
			return Reply{}, fmt.Errorf("station: no authority answered command %s: the connection was closed", req.ID)
		}
		if errors.Is(err, nats.ErrNoResponders) {
			if sleepCtx(ctx, 100*time.Millisecond) != nil {
				return Reply{}, fmt.Errorf("station: no authority answered command %s: %w", req.ID, ctx.Err())
			}
		}
		// A server that restarted may stand apart from the others for a
		// while (its routes not yet formed again): after 3 s without an
		// answer, move to another record holder's server.
		if time.Since(moved) > 3*time.Second && len(nc.Servers()) > 1 {
			if Trace != nil {
				Trace("submit %s: no answer through %s; moving to another server", req.ID, nc.ConnectedUrl())
			}
			nc.ForceReconnect()
			moved = time.Now()
		}
	}
}

// Submit sends a request from this station.
func (s *Station) Submit(ctx context.Context, req Request) (Reply, error) {
	if req.From == "" {
		req.From = s.cfg.Name
	}
	if req.At == 0 {
		req.At = s.Now().UnixNano()
	}
	if _, u := s.Offset(); u > 0 {
		req.RTT = int64(2 * u)
	}
	return Submit(ctx, s.link.nc, req, s.rep, time.Second)
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

// Member is a station as status shows it.
type Member struct {
	Name string `json:"name"`
	Role string `json:"role"`
	Up   bool   `json:"up"`
	Lag  int64  `json:"lag"`
}

// Status is what 'station status --json' prints.
type Status struct {
	Station       string   `json:"station"`
	Role          string   `json:"role"`
	Authority     string   `json:"authority"`
	Members       []Member `json:"members"`
	Seq           uint64   `json:"seq"`
	Head          string   `json:"head"`
	OffsetMS      float64  `json:"offset_ms"`
	UncertaintyMS float64  `json:"uncertainty_ms"`
	Alarm         string   `json:"alarm,omitempty"`
	CanAppend     bool     `json:"can_append"`
	Epoch         int      `json:"epoch"` // of the latest new epoch (station claim --epoch); 0: none
	// TimelineNS is the match timeline as this station estimates it, read
	// at the instant WallNS of this machine's wall clock, with its
	// uncertainty (0 on the authority); absent while the station does not
	// know the timeline. A command given on this machine is stamped from
	// it (stations.Link.Offset) without asking an authority that may be gone.
	TimelineNS    int64 `json:"timeline_ns,omitempty"`
	WallNS        int64 `json:"wall_ns,omitempty"`
	UncertaintyNS int64 `json:"uncertainty_ns,omitempty"`
	// AuthorityMatchSeq is the authority's last event that is not a system
	// event, as its heartbeats last said (its own on the authority): a
	// command given on this machine is prepared once this record holds it.
	AuthorityMatchSeq int64 `json:"authority_match_seq,omitempty"`
	// Stations are every station of the match this one knows, clients
	// included (seen.go)
	Stations []Seen `json:"stations"`
}

// AuthorityMatchSeq is the authority's last event that is not a system
// event, as its heartbeats last said (this station's own on the authority).
func (s *Station) AuthorityMatchSeq() int64 {
	auth, _ := s.rep.Authority()
	if auth == s.cfg.Name {
		return s.app.State().MatchSeq
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.beats[auth].matchSeq
}

// Estimate is the station's estimate of the match timeline now (the
// offset to its time source, Config.Now) and its uncertainty; ok is false
// while it does not know the timeline (no authority answered, and it is
// not the authority).
func (s *Station) Estimate() (offset, uncertainty time.Duration, ok bool) {
	off, u := s.Offset()
	if u < 0 && !s.knowsTime() {
		return 0, 0, false
	}
	return off, max(u, 0), true
}

// Status describes the station now.
func (s *Station) Status() Status {
	seq, head := s.rep.Head()
	auth, _ := s.rep.Authority()
	off, unc := s.Offset()
	st := Status{Station: s.cfg.Name, Role: s.cfg.Role, Authority: auth, Seq: seq, Head: head,
		OffsetMS: float64(off) / 1e6, UncertaintyMS: float64(unc) / 1e6, Epoch: s.rep.Epoch()}
	if _, u, ok := s.Estimate(); ok {
		wall := time.Now()
		st.TimelineNS, st.WallNS, st.UncertaintyNS = s.Now().UnixNano(), wall.UnixNano(), int64(u)
	}
	if a := s.rep.Alarm(); a != nil {
		st.Alarm = a.Error()
	}
	s.mu.Lock()
	beats := make(map[string]beatSeen, len(s.beats))
	for k, v := range s.beats {
		beats[k] = v
	}
	s.mu.Unlock()
	st.AuthorityMatchSeq = s.AuthorityMatchSeq()
	members := s.rep.Members()
	if _, ok := members[s.cfg.Name]; !ok {
		members[s.cfg.Name] = MemberInfo{Name: s.cfg.Name, Role: s.cfg.Role}
	}
	for _, m := range members {
		mem := Member{Name: m.Name, Role: m.Role}
		if m.Name == s.cfg.Name {
			mem.Up = true
		} else if b, ok := beats[m.Name]; ok && time.Since(b.at) < s.cfg.Silence {
			mem.Up = true
			mem.Lag = int64(seq) - b.seq
		}
		st.Members = append(st.Members, mem)
	}
	sort.Slice(st.Members, func(i, j int) bool { return st.Members[i].Name < st.Members[j].Name })
	st.Stations = s.seen(seq, auth, st, members, beats)
	if s.eng != nil {
		ctx, cancel := context.WithTimeout(s.ctx, 500*time.Millisecond)
		ok, err := s.link.Majority(ctx)
		cancel()
		st.CanAppend = err == nil && ok && st.Alarm == ""
	}
	return st
}

// answerFromLog answers a command found in the log at seq: committed, or,
// when what it wrote is an auth.fail (a wrong credential or request
// signature, recorded), refused, the first time and on every retry with
// its id.
func (s *Station) answerFromLog(ctx context.Context, seq uint64) Reply {
	evs, err := s.cfg.DB.EventsAfter(ctx, int64(seq)-1)
	if err != nil || len(evs) == 0 || evs[0].Kind != match.KindAuthFail {
		return Reply{Seq: seq}
	}
	var p match.AuthFailPayload
	json.Unmarshal(evs[0].Payload, &p)
	refused := match.WrongCredential(p.Credential, s.app.State().BackoffUntil(p.Credential))
	var refusal *match.Error
	errors.As(refused, &refusal)
	return Reply{Seq: seq, Error: refused.Error(), Refusal: refusal}
}
