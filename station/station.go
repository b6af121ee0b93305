package station

import (
	"context"
	"crypto/tls"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/internal/phrase"
	"arbiter/internal/timesource"
	"arbiter/match"
	"arbiter/store"
)

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
	// Creds, when set, are the station's credentials (the match's CA, its
	// certificate and key): the station signs the record with the key its
	// certificate certifies, and its claims carry that certificate
	// (match.CertifyStationKey; docs/stations.md, "Whose key a system
	// event carries"). Without them its key is certified by nothing (tests
	// of the stations' mechanics).
	Creds *Credentials
	// Now is the local time source (default timesource.New().Now).
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
	cmds   chan queued
	busy   chan struct{} // told when a command comes to this station (working)
	// underway: the commands this station is running or waiting for
	// (underWay): checkpointLoop does not take the record for idle meanwhile
	underway atomic.Int32
	// quietTimer, when set (tests), makes checkpointLoop's waits
	quietTimer func() (<-chan time.Time, func())
	ready      chan struct{} // closed when Start has returned the station
	// epochWanted: the arbiter asked for a new epoch (station claim --epoch)
	epochWanted chan struct{}
	// cert certifies the key this station signs the record with; its
	// claims carry it (Config.Creds; empty without)
	cert match.StationCertificate

	mu    sync.Mutex
	beats map[string]beatSeen
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

// Start starts the station and returns once its engine runs and its
// replica applies the stream.
func Start(ctx context.Context, cfg Config) (*Station, error) {
	s := newStation(cfg)
	cfg = s.cfg
	var err error
	// the App first: the replica's guard takes the match it rebuilt
	// rather than replay the record a second time
	if s.app, err = match.New(ctx, cfg.DB); err != nil {
		return nil, err
	}
	if s.rep, err = NewReplica(ctx, cfg.DB, s.app.State()); err != nil {
		return nil, err
	}
	if c := cfg.Creds; c != nil {
		key, cert, err := match.CertifyStationKey(c.CA, c.Cert, c.Key, cfg.Name)
		if err != nil {
			return nil, refuse(CodeCertificateDamaged, err)
		}
		s.app.UseStationKey(key)
		s.cert = cert
	}
	// Before anything is appended, the record must end with what this
	// station wrote (an edited or damaged file raises the alarm).
	cfg.DB.SetHeadCheck(s.rep.CheckFileHead)
	started := false
	defer func() {
		if !started {
			cfg.DB.SetHeadCheck(nil)
			cfg.DB.IdleCheckpoints(context.Background(), false)
		}
	}()
	// The station's record keeps writing from here on: its log is laid out
	// now rather than inside a command, and checkpointed between commands
	// (checkpoint.go).
	if err := cfg.DB.LayOutLog(ctx); err != nil {
		return nil, err
	}
	if err := cfg.DB.IdleCheckpoints(ctx, true); err != nil {
		return nil, err
	}
	if err := s.connect(ctx); err != nil {
		return nil, err
	}
	if err := s.subscribe(); err != nil {
		s.Stop()
		return nil, err
	}
	s.wg.Add(3)
	go s.consume()
	go s.consumeHeads()
	go s.checkpointLoop(s.rep.changes())
	if s.eng != nil {
		if err := s.startHolder(ctx); err != nil {
			s.Stop()
			return nil, err
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

// newStation is the station of cfg, its defaults filled in, not yet
// connected, with the timeline it continues (Config.Offset, or the one
// saved in Config.TimelineFile).
func newStation(cfg Config) *Station {
	if cfg.Now == nil {
		cfg.Now = timesource.New().Now
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
	if cfg.Engine == nil {
		cfg.TimelineFile = "" // a client keeps no timeline of its own
	}
	s := &Station{cfg: cfg, beats: map[string]beatSeen{}, beatChanged: make(chan struct{}), receipts: map[string]receipt{}, rtts: map[string][]time.Duration{},
		acked: map[string]uint64{}, cmds: make(chan queued, 256), busy: make(chan struct{}, 1), ready: make(chan struct{}),
		epochWanted: make(chan struct{}, 1)}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if cfg.Offset != nil {
		s.frozen, s.timeKnown = *cfg.Offset, true
	} else if cfg.TimelineFile != "" {
		s.loadTimeline()
	}
	return s
}

// connect starts a record holder's engine, with the match's stream, and
// has the record commit nothing the stream did not take first; a client
// dials the record holders.
func (s *Station) connect(ctx context.Context) error {
	if s.cfg.Engine == nil {
		var err error
		s.link, err = Dial(s.cfg.Dial, s.cfg.Name, s.cfg.TLS)
		return err
	}
	ec := *s.cfg.Engine
	ec.OnRefused = s.refused
	var err error
	if s.eng, err = StartEngine(ec); err != nil {
		return err
	}
	s.link = &s.eng.Link
	sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	err = s.eng.EnsureStream(sctx)
	cancel()
	if err != nil {
		s.eng.Stop()
		return err
	}
	s.cfg.DB.SetBeforeCommit(s.beforeCommit)
	// The stream this engine stores (sync always) holds every event the
	// record commits for the stream before the commit: those commits
	// leave out their own fsync (store.HeldElsewhere); a power cut that
	// takes them is made good from the stream (docs/stations.md, "The
	// record holders' commits without a second fsync").
	s.cfg.DB.SetEventsHeldElsewhere(true)
	return nil
}

// startHolder seeds or joins the stream, learns the match timeline when it
// must, and starts what only a record holder runs: the worker, the
// monitor, the round-trip measurements and the saved timeline.
func (s *Station) startHolder(ctx context.Context) error {
	if err := s.bootstrap(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	claimed := s.claims > 0
	s.mu.Unlock()
	if auth, _ := s.rep.Authority(); auth == s.cfg.Name && !claimed && s.eng.cfg.Cluster != nil && s.cfg.Offset == nil {
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
	return nil
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
		s.cfg.DB.SetEventsHeldElsewhere(false)
	}
	// The connection closes before the station's goroutines are waited
	// for: a question to the stream that nobody answers (nats.go's ordered
	// consumer re-creating itself on a stream without a leader waits 10 s,
	// whatever its caller's context says) ends at once instead of holding
	// the survivor's new epoch back by 11 s (docs/stations.md, "Measured").
	if s.link != nil {
		s.link.nc.Close()
	}
	s.wg.Wait()
	s.cfg.DB.SetHeadCheck(nil)
	s.cfg.DB.IdleCheckpoints(context.Background(), false) // SQLite's own again
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

func (s *Station) subscribe() error {
	type handler struct {
		subject string
		fn      nats.MsgHandler
	}
	hs := []handler{
		{SubjectBeat, s.onBeat},
		// Every station answers the record holders' round-trip measurements.
		{pingSubject(s.cfg.Name), func(m *nats.Msg) { m.Respond(nil) }},
	}
	if s.eng != nil {
		hs = append(hs,
			handler{SubjectCommands + ".>", s.onRequest},
			handler{SubjectReceipt, s.onReceipt},
			handler{SubjectClaim + "." + s.cfg.Name, func(m *nats.Msg) { go s.claimRequest(m) }},
			handler{SubjectTime, s.onTimeRequest},
			// A record holder that knows the match timeline gives it to one
			// that does not (just started, while no authority answers).
			handler{SubjectTimePeer, s.onPeerTimeRequest},
		)
	}
	for _, h := range hs {
		sub, err := s.link.nc.Subscribe(h.subject, h.fn)
		if err != nil {
			return err
		}
		s.subs = append(s.subs, sub)
	}
	return nil
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
	// AlarmWhy is the alarm as a phrase (AlarmError.Why), for the
	// console to say it in its language; Alarm is its English.
	AlarmWhy  *phrase.Error `json:"alarm_why,omitempty"`
	CanAppend bool          `json:"can_append"`
	Epoch     int           `json:"epoch"` // of the latest new epoch (station claim --epoch); 0: none
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

// heardAuthority is the station whose beats, heard within
// Config.Silence, say it acts as the authority ("" when none does).
func (s *Station) heardAuthority() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, b := range s.beats {
		if b.auth && time.Since(b.at) < s.cfg.Silence {
			return name
		}
	}
	return ""
}

// Status describes the station now.
func (s *Station) Status() Status {
	seq, head := s.rep.Head()
	auth, _ := s.rep.Authority()
	if s.rep.Alarm() != nil {
		// the record applies nothing more: its last claim may name a
		// station that is no longer the authority (this one, when its
		// alarm deposed it); the authority is the one whose beats say so
		auth = s.heardAuthority()
	}
	off, unc := s.Offset()
	st := Status{Station: s.cfg.Name, Role: s.cfg.Role, Authority: auth, Seq: seq, Head: head,
		OffsetMS: float64(off) / 1e6, UncertaintyMS: float64(unc) / 1e6, Epoch: s.rep.Epoch()}
	if _, u, ok := s.Estimate(); ok {
		// the timeline read between two readings of the wall clock: a
		// pause between them (a loaded machine) is half in the pair's
		// uncertainty, never unstated
		w1 := time.Now()
		tl := s.Now()
		gap := time.Since(w1)
		st.TimelineNS, st.WallNS, st.UncertaintyNS = tl.UnixNano(), w1.Add(gap/2).UnixNano(), int64(u+gap/2)
	}
	if a := s.rep.Alarm(); a != nil {
		st.Alarm, st.AlarmWhy = a.Error(), alarmWhy(a)
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
		ok, err := s.majority(ctx)
		cancel()
		st.CanAppend = err == nil && ok && st.Alarm == ""
	}
	return st
}
