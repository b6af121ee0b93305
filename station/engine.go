package station

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the stream and subjects every station uses.
const (
	StreamName      = "EVENTS"
	SubjectEvents   = "arb.ev"        // one message per event, the stream's only subject
	SubjectCommands = "arb.cmd"       // requests to the authority, arb.cmd.ROLE (all holders receive them)
	SubjectTime     = "arb.time"      // NTP-style time requests answered by the authority
	SubjectTimePeer = "arb.time.peer" // the same, answered by record holders that know the timeline (one that has none asks)
	SubjectBeat     = "arb.hb"        // the authority's heartbeats
	SubjectClaim    = "arb.claim"     // arb.claim.NAME: the arbiter asks station NAME to take authority
	SubjectReceipt  = "arb.rcpt"      // a record holder's first receipt of a request (receiptNote)
	SubjectPing     = "arb.ping"      // arb.ping.NAME: a record holder measures its round trip to station NAME

	// HeadsStreamName is the stream of the arbiter's head signatures made
	// after his commands at stations (docs/stations.md, "Signed heads"):
	// one message per signature (headNote), appended by the authority
	// once it checked it, applied by every station to its record.
	HeadsStreamName = "HEADS"
	SubjectHeads    = "arb.head" // the heads stream's only subject

	// DuplicateWindow is how long the stream remembers a command id. It
	// outlasts any retry: a laptop that sleeps for hours and retries keeps
	// the same id, and the authority also answers ids from the log itself.
	DuplicateWindow = 24 * time.Hour
	// PingInterval between servers (the default of 2 minutes makes a frozen
	// machine look alive for 88 s; measured in /work/shared/notes).
	PingInterval = time.Second
	// LastSeqTry bounds one question for the stream's last sequence.
	LastSeqTry = 2 * time.Second
)

// JetStream error codes the engine resolves (nats-server v2.15).
const (
	errWrongLastSeq      = 10071 // Nats-Expected-Last-Sequence refused
	errWrongLastSeqConst = 10164 // the same for batches
	errBatchDuplicate    = 10201 // a committed batch retried
)

// EngineConfig configures one embedded nats-server.
type EngineConfig struct {
	Name string // the station's name; also the server name
	Dir  string // JetStream store directory
	// ClientHost/ClientPort: where the client port listens. Record holders
	// bind it to 127.0.0.1 unless clients (laptop, mirror) must reach it.
	ClientHost string
	ClientPort int // 0: a free port
	// Cluster: nil for a lone record holder (standalone JetStream, stream
	// R1); else the route listener and the peers' route URLs.
	Cluster *ClusterConfig
	// TLS for routes and the client port (mutual TLS from the match's CA);
	// nil in tests without TLS.
	TLS *tls.Config
	// Users maps certificate subjects to permissions (see security.go).
	Users []*server.User
	// OnRefused is told of every connection or message the server refused
	// (a publish outside the connection's permissions, a failed TLS
	// handshake, an authorisation error): kind and the server's words.
	OnRefused func(kind, detail string)
}

// refusalLogger passes the server's refusals to OnRefused and drops the rest.
type refusalLogger struct{ fn func(kind, detail string) }

func (l refusalLogger) Errorf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	switch {
	case strings.Contains(msg, "Violation"):
		l.fn("permission", msg)
	case strings.Contains(msg, "handshake error"):
		l.fn("tls", msg)
	case strings.Contains(msg, "Authorization Error"), strings.Contains(msg, "authorization"):
		l.fn("authorization", msg)
	}
}
func (refusalLogger) Noticef(string, ...any) {}
func (refusalLogger) Warnf(string, ...any)   {}
func (refusalLogger) Fatalf(string, ...any)  {}
func (refusalLogger) Debugf(string, ...any)  {}
func (refusalLogger) Tracef(string, ...any)  {}

// ClusterConfig is the route part of a clustered record holder.
type ClusterConfig struct {
	Name     string   // the match's cluster name
	Listen   string   // HOST:PORT for routes (the station's --listen)
	Routes   []string // HOST:PORT of every record holder (may include its own)
	Replicas int      // stream replicas: the number of record holders, at most 3
}

// Engine is one embedded nats-server with JetStream and an in-process
// connection to it.
type Engine struct {
	Link
	cfg EngineConfig
	srv *server.Server
}

// Link is a connection to the match's stream: in process for a record
// holder, over mutual TLS to a record holder's client port for a client.
type Link struct {
	nc *nats.Conn
	js jetstream.JetStream
	// replicas is the most replicas the match's stream was seen with
	// (lastSeqPeers). No station scales a stream down (EnsureStream only
	// creates it or raises its replicas, scaleStream only raises them; a
	// lone holder becoming a cluster, or a new epoch, starts a new engine
	// and link), so the stream has at least as many.
	replicas atomic.Int32
}

// Dial connects a client station to the record holders' client ports.
func Dial(urls []string, name string, tlsc *tls.Config) (*Link, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond), nats.RetryOnFailedConnect(true),
		nats.PingInterval(PingInterval), nats.MaxPingsOutstanding(3), nats.NoCallbacksAfterClientClose()}
	if tlsc != nil {
		opts = append(opts, nats.Secure(tlsc))
	}
	nc, err := nats.Connect(strings.Join(urls, ","), opts...)
	if err != nil {
		return nil, refuse(CodeCannotReach, strings.Join(urls, ", "), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &Link{nc: nc, js: js}, nil
}

// Close closes the connection.
func (l *Link) Close() { l.nc.Close() }

// StartEngine starts the server and waits until it accepts connections.
func StartEngine(cfg EngineConfig) (*Engine, error) {
	host := cfg.ClientHost
	if host == "" {
		host = "127.0.0.1"
	}
	port := cfg.ClientPort
	if port == 0 {
		port = server.RANDOM_PORT
	}
	opts := &server.Options{
		ServerName:         cfg.Name,
		Host:               host,
		Port:               port,
		JetStream:          true,
		StoreDir:           cfg.Dir,
		SyncAlways:         true, // acknowledge only what is on disk
		PingInterval:       PingInterval,
		MaxPingsOut:        3,
		NoSigs:             true,
		NoLog:              os.Getenv("ARBITER_STATION_LOG") == "",
		Debug:              os.Getenv("ARBITER_STATION_LOG") == "debug",
		JetStreamMaxMemory: 64 << 20,
		JetStreamMaxStore:  1 << 30,
	}
	if cfg.TLS != nil {
		opts.TLS = true
		opts.TLSConfig = cfg.TLS
		opts.TLSVerify = true
		opts.TLSMap = true
		opts.TLSTimeout = 2
		opts.Users = cfg.Users
		if opts.Users == nil {
			opts.Users = RoleUsers()
		}
	}
	if c := cfg.Cluster; c != nil {
		h, p, err := splitHostPort(c.Listen)
		if err != nil {
			return nil, err
		}
		opts.Cluster = server.ClusterOpts{
			Name: c.Name, Host: h, Port: p,
			PingInterval: PingInterval, MaxPingsOut: 3,
			ConnectRetries: -1, // keep reaching for peers that are down
		}
		if cfg.TLS != nil {
			opts.Cluster.TLSConfig = cfg.TLS
			opts.Cluster.TLSTimeout = 2
		}
		scheme := "nats-route"
		for _, r := range c.Routes {
			if r == c.Listen {
				continue
			}
			opts.Routes = append(opts.Routes, &url.URL{Scheme: scheme, Host: r})
		}
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, refuse(CodeEngineStart, err)
	}
	if !opts.NoLog {
		srv.ConfigureLogger()
	} else if cfg.OnRefused != nil {
		srv.SetLogger(refusalLogger{cfg.OnRefused}, false, false)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, refuse(CodeEngineSlow)
	}
	copts := []nats.Option{nats.InProcessServer(srv), nats.Name(cfg.Name + "-local"),
		nats.MaxReconnects(-1), nats.NoCallbacksAfterClientClose()}
	if cfg.TLS != nil {
		copts = append(copts, nats.Secure(cfg.TLS)) // the station's own certificate: its role's user
	}
	nc, err := nats.Connect("", copts...)
	if err != nil {
		srv.Shutdown()
		return nil, refuse(CodeEngineConnect, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		srv.Shutdown()
		return nil, err
	}
	return &Engine{Link: Link{nc: nc, js: js}, cfg: cfg, srv: srv}, nil
}

func splitHostPort(hp string) (string, int, error) {
	h, ps, err := net.SplitHostPort(hp)
	if err != nil {
		return "", 0, refuse(CodeNotHostPort, hp, err)
	}
	p, err := strconv.Atoi(ps)
	if err != nil || p <= 0 || p > 65535 {
		return "", 0, refuse(CodeBadPort, hp)
	}
	return h, p, nil
}

// ClientURL is the nats:// URL of the client port.
func (e *Engine) ClientURL() string { return e.srv.ClientURL() }

// Conn is the in-process connection.
func (l *Link) Conn() *nats.Conn { return l.nc }

// Stop closes the connection and shuts the server down.
func (e *Engine) Stop() {
	e.nc.Close()
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}

// Alone reports whether this engine is clustered, its stream has two
// replicas or more (as configured, or as seen: no stream is scaled down),
// and the server is connected to no other server by a route: the stream
// then has no majority, which this server knows at once, whatever a
// question to the stream would say after its time-out (none answers one
// while the stream has no leader). The server drops a route as soon as the
// other server stops or dies (its connection closes), and after three
// unanswered pings (PingInterval) when it freezes.
func (e *Engine) Alone() bool {
	c := e.cfg.Cluster
	return c != nil && max(c.Replicas, int(e.replicas.Load())) >= 2 && e.srv.NumRoutes() == 0
}

// StreamConfig is the configuration of the match's stream.
func StreamConfig(replicas int) jetstream.StreamConfig {
	if replicas < 1 {
		replicas = 1
	}
	return jetstream.StreamConfig{
		Name:               StreamName,
		Subjects:           []string{SubjectEvents},
		Storage:            jetstream.FileStorage,
		Retention:          jetstream.LimitsPolicy,
		Discard:            jetstream.DiscardNew,
		MaxMsgs:            -1,
		MaxBytes:           -1,
		MaxAge:             0,
		Replicas:           replicas,
		DenyDelete:         true,
		DenyPurge:          true,
		Duplicates:         DuplicateWindow,
		AllowAtomicPublish: true,
	}
}

// HeadsStreamConfig is the configuration of the stream of head
// signatures: like the match's stream, without batches.
func HeadsStreamConfig(replicas int) jetstream.StreamConfig {
	c := StreamConfig(replicas)
	c.Name, c.Subjects, c.AllowAtomicPublish = HeadsStreamName, []string{SubjectHeads}, false
	return c
}

// EnsureStream creates the streams if they do not exist (the match's and
// the heads'), retrying until the cluster can place them or ctx ends.
func (e *Engine) EnsureStream(ctx context.Context) error {
	replicas := 1
	if e.cfg.Cluster != nil && e.cfg.Cluster.Replicas > 0 {
		replicas = e.cfg.Cluster.Replicas
	}
	for _, cfg := range []jetstream.StreamConfig{StreamConfig(replicas), HeadsStreamConfig(replicas)} {
		for {
			// One try at a time: a request sent before the cluster has a meta
			// leader is never answered. A stream that exists keeps its
			// replicas if it has as many already: a holder that joins with an
			// invitation made before other holders joined counts fewer, and
			// must not scale the stream down (the authority scales it to the
			// holders the record names, Station.scaleStream).
			tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			var err error
			if st, serr := e.js.Stream(tctx, cfg.Name); serr == nil && st.CachedInfo().Config.Replicas >= replicas {
				err = nil
			} else if serr == nil || errors.Is(serr, jetstream.ErrStreamNotFound) {
				_, err = e.js.CreateOrUpdateStream(tctx, cfg)
			} else {
				err = serr
			}
			cancel()
			if err == nil {
				break
			}
			if os.Getenv("ARBITER_STATION_LOG") != "" {
				fmt.Fprintf(os.Stderr, "station %s: create stream %s: %v\n", e.cfg.Name, cfg.Name, err)
			}
			select {
			case <-ctx.Done():
				return refuse(CodeStreamNotCreated, err)
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	return nil
}

// LastSeq is the stream's last sequence, asked of the stream's leader.
// One try waits at most LastSeqTry: a request the cluster takes while it
// has no leader for the stream (forming, or electing) is never answered,
// so a caller with a long deadline must ask again, not wait it out.
func (e *Link) LastSeq(ctx context.Context) (uint64, error) {
	last, _, err := e.lastSeqPeers(ctx)
	return last, err
}

// lastSeqPeers is LastSeq with the names of the servers (named after their
// stations) that hold the stream's replicas, the leader first; none for a
// lone engine's stream.
func (e *Link) lastSeqPeers(ctx context.Context) (uint64, []string, error) {
	info, err := e.streamInfo(ctx)
	if err != nil {
		return 0, nil, err
	}
	for r := int32(info.Config.Replicas); ; {
		seen := e.replicas.Load()
		if r <= seen || e.replicas.CompareAndSwap(seen, r) {
			break
		}
	}
	var peers []string
	if c := info.Cluster; c != nil && info.Config.Replicas > 1 {
		peers = append(peers, c.Leader)
		for _, p := range c.Replicas {
			peers = append(peers, p.Name)
		}
	}
	return info.State.LastSeq, peers, nil
}

// streamInfo asks the stream's leader for its state, one try of at most
// LastSeqTry: one request (the stream's handle is made from the answer to
// it, so asking the handle again would be a second round trip).
func (e *Link) streamInfo(ctx context.Context) (*jetstream.StreamInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, LastSeqTry)
	defer cancel()
	s, err := e.js.Stream(ctx, StreamName)
	if err != nil {
		return nil, err
	}
	return s.CachedInfo(), nil
}

// Majority reports whether the stream has a leader with a majority of its
// replicas current (seen within 3 s): a lone engine's stream always has. A
// leader that lost its peers keeps answering reads for a while, so a
// stream that answers is not yet a stream that can append.
func (e *Link) Majority(ctx context.Context) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, LastSeqTry)
	defer cancel()
	s, err := e.js.Stream(ctx, StreamName)
	if err != nil {
		return false, err
	}
	info := s.CachedInfo() // the answer to the one request Stream made
	c := info.Cluster
	if c == nil || len(c.Replicas) == 0 {
		return c == nil || c.Leader != "", nil
	}
	if c.Leader == "" {
		return false, nil
	}
	up := 1
	for _, p := range c.Replicas {
		if p.Current && !p.Offline && p.Active < 3*time.Second {
			up++
		}
	}
	return 2*up > 1+len(c.Replicas), nil
}

// ErrStale: the stream holds events this station has not applied yet (a
// refused Nats-Expected-Last-Sequence); catch up and try again.
var ErrStale = errors.New("station: the record moved on; catch up and try again")

// DuplicateError: the command id is already in the stream.
type DuplicateError struct{ Seq uint64 }

func (d *DuplicateError) Error() string {
	return fmt.Sprintf("station: the command is already in the record (event %d)", d.Seq)
}

type pubAck struct {
	Stream    string `json:"stream"`
	Seq       uint64 `json:"seq"`
	Duplicate bool   `json:"duplicate,omitempty"`
	BatchID   string `json:"batch,omitempty"`
	BatchSize int    `json:"count,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		ErrCode int    `json:"err_code"`
		Desc    string `json:"description"`
	} `json:"error,omitempty"`
}

// Append publishes the events of one command, expecting the stream to end
// at seq expectLast; the first event becomes expectLast+1. A command of
// several events is one atomic batch. id is the command id (Nats-Msg-Id):
// a retry of a committed command returns *DuplicateError with its sequence
// (or Seq 0 when the server did not say it: read the id from the log). It
// returns the last sequence of the command.
func (e *Link) Append(ctx context.Context, id string, msgs [][]byte, expectLast uint64) (uint64, error) {
	if len(msgs) == 0 {
		return expectLast, nil
	}
	var reply *nats.Msg
	var err error
	if len(msgs) == 1 {
		m := nats.NewMsg(SubjectEvents)
		m.Data = msgs[0]
		m.Header.Set("Nats-Msg-Id", id)
		m.Header.Set("Nats-Expected-Last-Sequence", strconv.FormatUint(expectLast, 10))
		reply, err = e.nc.RequestMsgWithContext(ctx, m)
	} else {
		batch := nats.NewInbox()
		batch = batch[strings.LastIndex(batch, ".")+1:]
		for i, data := range msgs {
			m := nats.NewMsg(SubjectEvents)
			m.Data = data
			m.Header.Set("Nats-Batch-Id", batch)
			m.Header.Set("Nats-Batch-Sequence", strconv.Itoa(i+1))
			if i == 0 {
				m.Header.Set("Nats-Msg-Id", id)
				m.Header.Set("Nats-Expected-Last-Sequence", strconv.FormatUint(expectLast, 10))
			}
			if i < len(msgs)-1 {
				if err = e.nc.PublishMsg(m); err != nil {
					return 0, err
				}
				continue
			}
			m.Header.Set("Nats-Batch-Commit", "1")
			reply, err = e.nc.RequestMsgWithContext(ctx, m)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("station: append: %w", err)
	}
	var ack pubAck
	if err := json.Unmarshal(reply.Data, &ack); err != nil {
		return 0, fmt.Errorf("station: append: unreadable acknowledgement %q", reply.Data)
	}
	if ack.Error != nil {
		switch ack.Error.ErrCode {
		case errWrongLastSeq, errWrongLastSeqConst:
			return 0, ErrStale
		case errBatchDuplicate:
			return 0, &DuplicateError{Seq: ack.Seq}
		}
		return 0, fmt.Errorf("station: append refused by the engine: %s (%d)", ack.Error.Desc, ack.Error.ErrCode)
	}
	if ack.Duplicate {
		return 0, &DuplicateError{Seq: ack.Seq}
	}
	return ack.Seq, nil
}

// PublishHead appends one message to the heads stream (id: its
// Nats-Msg-Id, so that a retry is not stored twice) and waits for the
// stream's acknowledgement.
func (e *Link) PublishHead(ctx context.Context, id string, data []byte) error {
	m := nats.NewMsg(SubjectHeads)
	m.Data = data
	m.Header.Set("Nats-Msg-Id", id)
	reply, err := e.nc.RequestMsgWithContext(ctx, m)
	if err != nil {
		return fmt.Errorf("station: append a head signature: %w", err)
	}
	var ack pubAck
	if err := json.Unmarshal(reply.Data, &ack); err != nil {
		return fmt.Errorf("station: append a head signature: unreadable acknowledgement %q", reply.Data)
	}
	if ack.Error != nil {
		return fmt.Errorf("station: append a head signature: refused by the engine: %s (%d)", ack.Error.Desc, ack.Error.ErrCode)
	}
	return nil
}

// StreamMsg is one stored message.
type StreamMsg struct {
	Seq  uint64
	ID   string // Nats-Msg-Id (the first event of a command carries it)
	Data []byte
}

// Consume delivers the stream's messages from sequence from on, in order,
// to fn until ctx ends. It uses an ordered consumer, which the stream's
// leader serves, and restarts it after a failure.
func (e *Link) Consume(ctx context.Context, from uint64, fn func(StreamMsg) error) error {
	return e.consume(ctx, StreamName, from, fn)
}

// ConsumeHeads delivers the heads stream's messages as Consume does.
func (e *Link) ConsumeHeads(ctx context.Context, from uint64, fn func(StreamMsg) error) error {
	return e.consume(ctx, HeadsStreamName, from, fn)
}

func (e *Link) consume(ctx context.Context, stream string, from uint64, fn func(StreamMsg) error) error {
	next := from
	for ctx.Err() == nil {
		// One try to re-create itself (MaxResetAttempts): its own tries go
		// on, a second apart and more, until the consumer is stopped, and
		// its Stop waits for the try under way (up to 10 s while the stream
		// has no leader); this loop tries again, 200 ms apart, and ends as
		// soon as ctx does.
		c, err := e.js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{
			DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: next,
			MaxResetAttempts: 1,
		})
		if err != nil {
			if sleepCtx(ctx, 200*time.Millisecond) != nil {
				return ctx.Err()
			}
			continue
		}
		// Short pulls: a consumer whose server went away notices within
		// about two heartbeats (1 s each) and is recreated.
		it, err := c.Messages(jetstream.PullExpiry(2 * time.Second))
		if err != nil {
			if sleepCtx(ctx, 200*time.Millisecond) != nil {
				return ctx.Err()
			}
			continue
		}
		stop := context.AfterFunc(ctx, it.Stop)
		for {
			m, err := it.Next()
			if err != nil {
				break
			}
			md, err := m.Metadata()
			if err != nil {
				continue
			}
			if md.Sequence.Stream < next {
				continue
			}
			sm := StreamMsg{Seq: md.Sequence.Stream, ID: m.Headers().Get("Nats-Msg-Id"), Data: m.Data()}
			if err := fn(sm); err != nil {
				it.Stop()
				stop()
				return err
			}
			next = sm.Seq + 1
		}
		it.Stop()
		stop()
	}
	return ctx.Err()
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
