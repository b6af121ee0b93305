//go:build !nostation

package service

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/station"
	"arbiter/store"
)

// The command path of a station's record (docs/stations.md): a writing
// command given with --db of a station's record, at the command line, in a
// script, or at the console, is sent to the authority with its credential
// and the instant stamped where it was given, retried with the same command
// id until answered, and returns when it is committed and applied to this
// station's record. Both faces call Forward, so both send the same request
// and the same checks decide.

// OperatorKeyPath is the operator's credential an invitation brought to
// the operator's laptop (FILE.station/operator.key).
func OperatorKeyPath(db string) string { return filepath.Join(StationDir(db), "operator.key") }

// Link is a face's connection to the record holders of a station's record:
// for one command, a script's lines, or a console's whole session. It keeps
// its offset to the authority's timeline estimated in the background from
// the authority's time answers, as a station does, and the credentials'
// keys it unlocked, so that nothing slow stands between a command's stamp
// and its request (docs/stations.md, "Exact clocks across machines").
type Link struct {
	db  string
	sf  *StationFile
	nc  *nats.Conn
	now func() time.Time
	// rdb and app are this station's replica, read to sign commands.
	rdb *DB
	app *match.App

	mu sync.Mutex
	// samples are the authority's last time answers; authSeq is its head as
	// they showed it (none while no answer came: Samples keeps at least
	// the last answer).
	samples station.Samples
	authSeq int64
	// first is closed once the first time requests are answered or gave up.
	first      chan struct{}
	stop, done chan struct{}
	// keys are the keys this link unlocked with a passphrase, for the
	// link's life, in memory only: by credential, its public key and the
	// passphrase's hash.
	keys map[string]ed25519.PrivateKey
}

// UnlockCredential opens a credential's key with a passphrase (argon2id,
// slow by design) or checks a key file's key against it. A test replaces it
// to count the unlocks; nothing else does.
var UnlockCredential = (*match.Credential).Unlock

// Dial connects to the record holders of the station's record db (its own
// client port first) with the station's certificate, reconnecting when the
// connection drops, and starts estimating the offset to the authority on
// now, the face's time source.
func Dial(ctx context.Context, db string, now func() time.Time) (*Link, error) {
	if now == nil {
		now = time.Now
	}
	sf, ok, err := ReadStation(db)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, phrase.Coded(string(CodeNotAStationRecord), db)
	}
	creds, err := ReadStationCreds(db)
	if err != nil {
		return nil, err
	}
	tlsc, err := creds.TLSConfig()
	if err != nil {
		return nil, err
	}
	urls := StationContacts(ctx, db, sf)
	nc, err := dialFirst(urls, nats.Name(sf.Name+"-cli"), nats.Timeout(2*time.Second), nats.Secure(tlsc),
		nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond), nats.PingInterval(time.Second), nats.MaxPingsOutstanding(2))
	if err != nil {
		return nil, &NotRunningError{Station: sf.Name, DB: db}
	}
	l := &Link{db: db, sf: sf, nc: nc, now: now, first: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{}),
		keys: map[string]ed25519.PrivateKey{}}
	go l.estimate()
	return l, nil
}

// dialFirst connects to every record holder at once and keeps the first
// connection that is up (each knows the others, to reconnect to): a holder
// whose machine froze accepts the TCP connection and never answers the TLS
// handshake, and a command must not wait for it (docs/stations.md,
// "Failover that always finishes").
func dialFirst(urls []string, opts ...nats.Option) (*nats.Conn, error) {
	if len(urls) <= 1 {
		return nats.Connect(strings.Join(urls, ","), opts...)
	}
	type dialled struct {
		nc  *nats.Conn
		err error
	}
	out := make(chan dialled, len(urls))
	for i := range urls {
		order := append(append([]string{urls[i]}, urls[:i]...), urls[i+1:]...)
		go func() {
			nc, err := nats.Connect(strings.Join(order, ","), append(opts, nats.DontRandomize())...)
			out <- dialled{nc, err}
		}()
	}
	var err error
	for n := 1; n <= len(urls); n++ {
		d := <-out
		if d.err != nil {
			err = d.err
			continue
		}
		go func(left int) { // close the others as they come
			for ; left > 0; left-- {
				if d := <-out; d.nc != nil {
					d.nc.Close()
				}
			}
		}(len(urls) - n)
		return d.nc, nil
	}
	return nil, err
}

// estimate asks the authority for its timeline: four times at once (a
// command of the command line waits for them), then four times a second
// while the link is open.
func (l *Link) estimate() {
	defer close(l.done)
	for i := 0; i < 4; i++ {
		select {
		case <-l.stop:
			close(l.first)
			return
		default:
		}
		l.sample(time.Second)
	}
	close(l.first)
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.sample(500 * time.Millisecond)
		}
	}
}

func (l *Link) sample(timeout time.Duration) {
	x, ok := station.AskTime(l.nc, station.SubjectTime, l.now, timeout)
	if !ok {
		return
	}
	l.mu.Lock()
	l.samples.Add(x)
	l.authSeq = max(l.authSeq, x.MatchSeq)
	l.mu.Unlock()
}

// Close closes the connection and forgets the unlocked keys.
func (l *Link) Close() {
	close(l.stop)
	l.nc.Close()
	<-l.done
	l.keys = nil
	if l.rdb != nil {
		l.rdb.Close()
	}
}

// Station is the station's description.
func (l *Link) Station() *StationFile { return l.sf }

// Offset is the offset of the authority's timeline to the link's time
// source, estimated from its time answers of the last 16 s (the one with the
// smallest error bound, station.Samples.Best), and that answer's round
// trip; ok is false when no authority
// answered. A link just dialled waits for its first answers.
//
// A command is stamped when it is given, never after waiting for an
// authority that may be gone: the offset is the estimate of the station
// this process runs for the record (the console's), else the link's own
// time answers, else the estimate of the station running beside it on
// this machine, from its status file; only a record whose station does not
// run waits for the authority's first answers.
func (l *Link) Offset() (offset, rtt time.Duration, ok bool) {
	if off, u, ok := l.inProcessOffset(); ok {
		return off, 2 * u, true
	}
	if off, r, ok := l.ownOffset(); ok {
		return off, r, true
	}
	if off, u, ok := l.stationOffset(); ok {
		return off, 2 * u, true
	}
	<-l.first
	return l.ownOffset()
}

// inProcessOffset is the estimate of the station this process runs for
// the record: its timeline read beside the link's clock, exact whatever
// time source each runs on.
func (l *Link) inProcessOffset() (offset, uncertainty time.Duration, ok bool) {
	v, found := inProcess.Load(l.db)
	if !found {
		return 0, 0, false
	}
	// read between two readings of the link's clock: a pause between
	// them is half in the uncertainty, never unstated; the timeline and
	// its uncertainty at once (station.Timeline)
	n1 := l.now()
	tl, u, ok := v.(*station.Station).Timeline()
	if !ok {
		return 0, 0, false
	}
	gap := max(l.now().Sub(n1), 0)
	return tl.Sub(n1.Add(gap / 2)), u + gap/2, true
}

// ownOffset is the offset from the link's own time answers.
func (l *Link) ownOffset() (offset, rtt time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	best, _, ok := l.samples.Best()
	return best.Offset, best.RTT, ok
}

// timeline is the match timeline now and the uncertainty of the estimate
// it was read on, when this process runs the record's station and that
// station knows the timeline (read from it, whatever time source the link
// runs on).
func (l *Link) timeline() (now time.Time, uncertainty time.Duration, ok bool) {
	if v, found := inProcess.Load(l.db); found {
		return v.(*station.Station).Timeline()
	}
	return time.Time{}, 0, false
}

// stampOf is the instant a command given at pressed (on the link's clock)
// is stamped with and the uncertainty its request states (Request.RTT, a
// round trip: twice the bound): pressed plus the offset off the link took
// for it, with that estimate's round trip r; or, for a command stamped
// now (stamped) while this process runs the record's station and it knows
// the timeline (here), that station's timeline itself with twice the
// bound of the estimate it was read on. Never the one with the other's
// bound: off may be the link's own answers, taken while the station just
// joined had none, and the station's first answer may lie further off
// than they; the authority bounds the stamp by the bound stated
// (match.StampTolerance), and refused an honest command as in the future.
func stampOf(pressed time.Time, off, r time.Duration, stamped bool, here func() (time.Time, time.Duration, bool)) (at time.Time, rtt time.Duration) {
	if stamped {
		if tl, u, ok := here(); ok {
			return tl.UTC(), 2 * u
		}
	}
	return pressed.Add(off).UTC(), r
}

// stationOffset is the estimate of the station running beside this
// process on this machine, from its status file, as an offset to the
// link's time source, and its uncertainty.
func (l *Link) stationOffset() (offset, uncertainty time.Duration, ok bool) {
	wall := time.Now()
	st, running, err := ReadStationStatus(l.db, wall)
	if err != nil || !running || st.TimelineNS == 0 {
		return 0, 0, false // no station runs beside this process, or it does not know the timeline
	}
	timeline := time.Unix(0, st.TimelineNS).Add(wall.Sub(time.Unix(0, st.WallNS)))
	return timeline.Sub(l.now()), time.Duration(st.UncertaintyNS), true
}

// Forward sends one command given at the station's record db to the
// authority and waits until this station's record holds it (docs/stations.md).
func Forward(ctx context.Context, db string, c StationCommand) (StationResult, error) {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	if err := checkRole(db, &c); err != nil {
		return StationResult{}, err
	}
	l, err := Dial(ctx, db, now)
	if err != nil {
		return StationResult{}, err
	}
	defer l.Close()
	return l.Send(ctx, c)
}

// checkRole gives a command without a role on the operator's laptop to the
// operator, and refuses a role this station's connection may not send.
func checkRole(db string, c *StationCommand) error {
	sf, ok, err := ReadStation(db)
	if err != nil {
		return err
	}
	if !ok {
		return phrase.Coded(string(CodeNotAStationRecord), db)
	}
	return checkRoleOf(sf, c)
}

func checkRoleOf(sf *StationFile, c *StationCommand) error {
	if !c.RoleGiven && sf.Role == "operator" {
		c.G.Role = match.RoleOperator // the operator's laptop speaks for the operator
	}
	if !hasRole(station.CommandRoles(sf.Role), string(c.G.Role)) {
		if sf.Role == "mirror" {
			return ErrMirror
		}
		return &RoleError{StationRole: sf.Role, Role: string(c.G.Role)}
	}
	return nil
}

// Prepare unlocks the credential a command like c would be signed with and
// keeps its key for the link's life (the console does it when it is given
// a PIN): its commands are then signed without the wait.
func (l *Link) Prepare(ctx context.Context, c StationCommand) error {
	if err := checkRoleOf(l.sf, &c); err != nil {
		return err
	}
	off, _, _ := l.Offset()
	_, err := l.prepare(ctx, c.G, c.Key, c.Cmd, l.now().Add(off))
	return err
}

// Send sends one command over the link and waits until this station's
// record holds it. The command's role is checked as Forward checks it.
// Everything that takes time — the offset's estimate, the replica's
// catch-up, the credential's unlock — is done before the command is
// stamped (a command of the command line is given once it is ready; the
// console's press was given before, and its link has all of it at hand),
// then it is stamped, signed and sent at once: a press is not raised at the
// authority for time spent here (docs/stations.md).
func (l *Link) Send(ctx context.Context, c StationCommand) (StationResult, error) {
	if err := checkRoleOf(l.sf, &c); err != nil {
		return StationResult{}, err
	}
	if err := l.alarmed(); err != nil {
		return StationResult{}, err
	}
	g := c.G
	off, r, ok := l.Offset()
	guess := g.At
	if !g.AtSet {
		guess = c.Pressed
		if guess.IsZero() {
			guess = l.now()
		}
		guess = guess.Add(off)
	}
	p, err := l.prepare(ctx, g, c.Key, c.Cmd, guess)
	if err != nil {
		return StationResult{}, err
	}
	if g.AtSet && ok {
		// An instant given: checked here, where the command is received,
		// as the authority checks it (a party's at most 5 s back; none
		// later than its receipt by more than the round trip to the
		// authority, which lowers one within it to the receipt).
		if err := match.CheckGiven(p.st, g.At, l.now().Add(off), match.StampTolerance(r, 0, 0), p.id == "arbiter" || p.tried == "arbiter"); err != nil {
			return StationResult{}, err
		}
	}
	return l.submit(ctx, c, p, off, r, ok)
}

// CheckCredential checks the credential c is given with (c.G: --pin,
// --secret, --key-file; c.Key) where it is given, as the console's PIN
// prompt for arbiter mode does on one machine (match.App.CheckCredential):
// during the credential's back-off, as this station's replica reckons it
// at the instant given plus the offset to the authority, it is refused
// without trying; a right one (or none needed: an unprotected match) is
// told at once and nothing is sent — the key it unlocked is kept for the
// link's life, as Prepare keeps it; a wrong one (or none given on a
// protected match) is sent to the authority as 'credential check' —
// never the passphrase or key, only whose credential was tried and how
// (station.Request.Tried) — which records it as auth.fail with the
// back-off as for a credential given there, and refuses it; the refusal
// is returned once this station's record holds the auth.fail, so that the
// next attempt here is reckoned with it. While no authority answers the
// report waits, retried with its id (c.Notice is told), and the attempt
// is refused only once it is recorded.
func (l *Link) CheckCredential(ctx context.Context, c StationCommand) (StationResult, error) {
	if err := checkRoleOf(l.sf, &c); err != nil {
		return StationResult{}, err
	}
	if err := l.alarmed(); err != nil {
		return StationResult{}, err
	}
	c.Cmd = match.CredentialCheck{}
	off, r, ok := l.Offset()
	at := c.G.At
	if !c.G.AtSet {
		if c.Pressed.IsZero() {
			c.Pressed = l.now()
		}
		at = c.Pressed.Add(off)
	}
	p, err := l.prepare(ctx, c.G, c.Key, c.Cmd, at)
	if err != nil {
		return StationResult{}, err // the back-off, or an older record's PIN
	}
	if p.key != nil || !p.protected() {
		return StationResult{}, nil // right (or none needed): nothing to record
	}
	res, err := l.submit(ctx, c, p, off, r, ok)
	var refused *Refused
	if errors.As(err, &refused) && res.Seq > 0 {
		// the auth.fail is committed: wait until this record holds it (so
		// that the next try reckons with it); the command stays refused
		// either way
		_, _ = l.waitApplied(ctx, res.Seq, res.Seq)
	}
	return res, err
}

// alarmed is the refusal of a command given here while this station's
// alarm is raised (station.AlarmRefusal: its record file edited behind it,
// or an event from the stream that does not fit), nil while none is: its
// record applies nothing more, so a command sent would be committed at the
// authority and waited for here in vain (NotAppliedError, after
// AppliedWithin). The alarm is the station's in this process, or its
// status file's (rewritten every 250 ms; a command given in between is
// refused by the station itself, Station.onRequest).
func (l *Link) alarmed() error {
	var why error
	if v, found := inProcess.Load(l.db); found {
		a := v.(*station.Station).Replica().Alarm()
		if a == nil {
			return nil
		}
		why = a
		var alarm *station.AlarmError
		if errors.As(a, &alarm) && alarm.Why != nil {
			why = alarm.Why
		}
	} else {
		st, running, err := ReadStationStatus(l.db, time.Now())
		if err != nil || !running || st.Alarm == "" {
			return nil // no station runs: the command says so itself
		}
		why = errors.New(st.Alarm)
		if st.AlarmWhy != nil {
			why = st.AlarmWhy
		}
	}
	p := station.AlarmRefusal(l.sf.Name, why)
	return &Refused{Text: p.Error(), Refusal: p}
}

// submit stamps, signs and sends a prepared command and waits until this
// station's record holds it (off, r, ok: the offset to the authority, its
// round trip, whether one answered).
func (l *Link) submit(ctx context.Context, c StationCommand, p prepared, off, r time.Duration, ok bool) (StationResult, error) {
	g := c.G
	stamped := c.Pressed.IsZero()
	if stamped {
		c.Pressed = l.now()
	}
	at, rtt := g.At, time.Duration(0)
	if !g.AtSet {
		if !ok && c.Notice != nil {
			c.Notice("no authority answers yet; the command waits for one")
		}
		// stamped now: on this process's station's timeline itself, when
		// it has one, with its bound
		at, rtt = stampOf(c.Pressed, off, r, stamped, l.timeline)
	}
	var idb [12]byte
	rand.Read(idb[:])
	req := station.Request{ID: l.sf.Name + "/" + hex.EncodeToString(idb[:]), From: l.sf.Name, Role: string(g.Role),
		At: at, AtGiven: g.AtSet, RTT: int64(rtt), Command: p.command}
	p.sign(&req)
	rep, err := station.Submit(ctx, l.nc, req, nil, 2*time.Second)
	if err != nil {
		return StationResult{}, err
	}
	res := StationResult{Seq: rep.Seq, Stamp: at, RTT: rtt, Role: g.Role}
	if rep.Error != "" {
		ref := &Refused{Text: rep.Error}
		switch {
		case rep.Refusal != nil:
			ref.Refusal = rep.Refusal
		case rep.Phrase != nil:
			ref.Refusal = rep.Phrase // the station's own refusal, by its code
		}
		return res, ref
	}
	if res.Result, err = l.waitApplied(ctx, rep.First, rep.Seq); err != nil {
		return res, err
	}
	if p.id == "arbiter" && p.key != nil {
		if err := l.signHead(ctx, c, p.key, rep.Seq); err != nil && c.Notice != nil {
			c.Notice(err.Error())
		}
	}
	return res, nil
}

// signHead has the arbiter sign the head after his command (its last
// event, seq) here, where he gave it with his credential, as one machine
// signs it in the command's transaction (docs/stations.md, "Signed
// heads"): the signature goes to the authority, which checks it and
// appends it to the heads stream, and signHead returns once this
// station's record holds it. A head not recorded leaves the command as
// committed; the error says so.
func (l *Link) signHead(ctx context.Context, c StationCommand, key ed25519.PrivateKey, seq uint64) error {
	fail := func(err error) error {
		return refuse(CodeHeadNotSigned, seq, err)
	}
	if l.rdb == nil {
		return fail(refuse(CodeReplicaNotOpen))
	}
	evs, err := l.rdb.EventsAfter(ctx, int64(seq)-1)
	if err != nil || len(evs) == 0 || evs[0].Seq != int64(seq) {
		return fail(refuse(CodeNotInReplica, seq))
	}
	e := evs[0]
	note := station.HeadNote{Seq: e.Seq, Hash: e.Hash, Key: hex.EncodeToString(key.Public().(ed25519.PublicKey)),
		Sig: hex.EncodeToString(ed25519.Sign(key, match.HeadMessage(e.Seq, e.Hash)))}
	var idb [12]byte
	rand.Read(idb[:])
	req := station.Request{ID: l.sf.Name + "/head/" + hex.EncodeToString(idb[:]), From: l.sf.Name, Role: string(c.G.Role),
		At: e.At, SignedHead: &note}
	sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	rep, err := station.Submit(sctx, l.nc, req, nil, 2*time.Second)
	if err != nil {
		return fail(err)
	}
	if rep.Error != "" {
		return fail(errors.New(rep.Error))
	}
	if err := l.waitHeadSigned(sctx, e.Seq); err != nil {
		return fail(err)
	}
	return nil
}

// waitHeadSigned waits until this station's record holds the arbiter's
// signature of the head at event seq (the station applies the heads
// stream in another process, or beside the face).
func (l *Link) waitHeadSigned(ctx context.Context, seq int64) error {
	if _, err := l.replica(ctx); err != nil {
		return err
	}
	for {
		sigs, err := l.rdb.Signatures(ctx)
		if err != nil {
			return err
		}
		for _, s := range sigs {
			if s.Kind == store.SigHead && s.Seq == seq {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("this station's record does not hold it yet: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond): // the station applies it in another process
		}
	}
}

// AppliedWithin is how long a command committed at the authority waits for
// this station's record to hold it before it says so (NotAppliedError).
var AppliedWithin = 30 * time.Second

// waitApplied waits until this station's record holds event seq (the
// station applies the stream in another process, or beside the face) and
// returns what the command whose events are first…seq did, as that record
// holds it (match.ResultOf; first 0: the last event alone); a
// NotAppliedError when it does not within AppliedWithin. When this process
// runs the station, it is told when its replica has applied the event
// (Replica.WaitSeq); a station in another process is asked by reading the
// record, first after 1 ms, then at twice the wait up to 20 ms.
func (l *Link) waitApplied(ctx context.Context, first, seq uint64) (match.Result, error) {
	if _, err := l.replica(ctx); err != nil {
		return match.Result{}, err
	}
	if first == 0 || first > seq {
		first = seq
	}
	deadline := time.Now().Add(AppliedWithin)
	if v, found := inProcess.Load(l.db); found {
		wctx, cancel := context.WithDeadline(ctx, deadline)
		v.(*station.Station).Replica().WaitSeq(wctx, seq) // else (the alarm, the deadline) the record says
		cancel()
	}
	poll := time.Millisecond
	for {
		if got, _, err := l.rdb.Head(ctx); err == nil && uint64(got) >= seq {
			evs, err := l.rdb.EventsAfter(ctx, int64(first)-1)
			if err != nil {
				return match.Result{}, err
			}
			return match.ResultOf(evs[:min(len(evs), int(seq-first+1))]), nil
		}
		if time.Now().After(deadline) {
			return match.Result{}, &NotAppliedError{Seq: seq, Within: AppliedWithin}
		}
		if ctx.Err() != nil { // the face stops (its reads fail from now on): not applied here yet
			return match.Result{}, fmt.Errorf("event %d is committed, but this station's record does not hold it yet: %w", seq, ctx.Err())
		}
		time.Sleep(poll) // waiting for another process's commit
		poll = min(2*poll, 20*time.Millisecond)
	}
}

// prepared is a command made ready to be signed: its canonical encoding
// as sent, and the credential and unlocked key that sign it (none: the
// match is unprotected, or no credential was given, which the authority
// refuses in its words), or the credential a wrong passphrase or key was
// tried on.
type prepared struct {
	st            *match.State
	command       []byte
	id            string
	key           ed25519.PrivateKey
	tried, triedG string
}

// protected reports whether the match the command was prepared on has
// an arbiter's credential (signed commands; else none is needed, or an
// older record's PIN, which prepare refuses for the arbiter).
func (p prepared) protected() bool { return p.st.Match != nil && p.st.ArbiterCredential() != nil }

// sign signs req, stamped now, as prepared.
func (p prepared) sign(req *station.Request) {
	switch {
	case p.tried != "":
		req.Tried, req.TriedGiven = p.tried, p.triedG
	case p.key != nil:
		req.Sign(p.id, p.st.Seq, p.st.Head, p.key)
	}
}

// prepare makes a command ready to be signed with the role's credential,
// here where the command is given, so that no credential crosses the
// network (docs/stations.md, "One authority"): a passphrase opens the
// sealed key of that credential in this station's replica (once per link:
// the key is kept), a key file is read (given with --key-file, or on the
// operator's laptop the operator's key its invitation brought). A wrong
// one is not sent either: the request reports whose credential was tried,
// and the authority records the attempt (auth.fail) and refuses the
// command, as when it is given there. A 'credential add' sends the
// record's form of the new credential, made here. at is the command's
// instant as far as it is known (its back-off is checked on it).
func (l *Link) prepare(ctx context.Context, g Global, key ed25519.PrivateKey, cmd match.Command, at time.Time) (prepared, error) {
	app, err := l.replica(ctx)
	if err != nil {
		return prepared{}, err
	}
	// The replica first catches up with the authority's last match event
	// (not its system events: a claim, a station's refusal), as the link's
	// own time answers or this machine's station last heard it — a
	// credential handed out a moment ago must be in it —, and without
	// asking an authority that may be gone: signed on an older head, the
	// authority still checks it. While neither has heard it (a station just
	// joined knows the authority only once its replica holds the claim, and
	// the link's first answer may still be on its way), the link's first
	// answer is waited for, or its first tries given up. The replica is
	// waited for while it moves (a station just joined serves seconds before
	// its replica holds the record, and a command prepared on part of it —
	// without the arbiter's credential, say — would be refused for what it
	// does not yet hold), and for no more than catchUpStall once it stands
	// still.
	read := func() (int64, error) {
		err := app.Refresh(ctx)
		return app.State().Seq, err
	}
	if err := catchUp(ctx, app.State().Seq, l.authMatchSeq, read, time.Now, time.Sleep); err != nil {
		return prepared{}, err
	}
	return l.prepareOn(app.State(), g, key, cmd, at)
}

// How a link waits for its replica before it prepares a command (catchUp):
// it reads the record (and, while it is not known, the authority's last
// match event) again every catchUpPoll (the station applies the stream in
// another process), gives up once the replica has not moved for
// catchUpStall, and waits catchUpMost in all.
const (
	catchUpPoll  = 20 * time.Millisecond
	catchUpStall = 5 * time.Second
	catchUpMost  = 60 * time.Second
)

// catchUp waits until the replica's last event, seq as it stands and then
// as read returns it, reaches the authority's last match event, as target
// tells it once it is known (asked again until then): while the replica
// moves, up to catchUpMost in all, and no longer than catchUpStall without
// moving once the target is known (a stream without a leader); then the
// command is prepared on what it holds. now and sleep are the wall clock's
// (tests: a fake one).
func catchUp(ctx context.Context, seq int64, target func() (int64, bool), read func() (int64, error), now func() time.Time, sleep func(time.Duration)) error {
	start := now()
	moved := start
	head, known := target()
	for now().Sub(start) < catchUpMost {
		if known && (seq >= head || now().Sub(moved) >= catchUpStall) {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		sleep(catchUpPoll)
		next, err := read()
		if err != nil {
			return err
		}
		if next > seq {
			moved = now()
		}
		seq = next
		if !known {
			if head, known = target(); known {
				moved = now() // the stall counts from here
			}
		}
	}
	return nil
}

// authMatchSeq is the authority's last event that is not a system event,
// as the link's time answers show it, or this machine's station's status
// (the authority's heartbeats). It is not known while neither has heard
// it and the link's first time requests are still asked: a station just
// joined names no authority until its replica holds the claim, and its
// status says 0 until then.
func (l *Link) authMatchSeq() (seq int64, known bool) {
	l.mu.Lock()
	seq, known = l.authSeq, len(l.samples) > 0
	l.mu.Unlock()
	if v, found := inProcess.Load(l.db); found {
		seq = max(seq, v.(*station.Station).AuthorityMatchSeq())
	} else if st, running, err := ReadStationStatus(l.db, time.Now()); err == nil && running {
		seq = max(seq, st.AuthorityMatchSeq)
	}
	if !known && seq == 0 {
		select {
		case <-l.first: // unanswered: nothing to wait for
		default:
			return 0, false
		}
	}
	return seq, true
}

// prepareOn is prepare on the replica's state st.
func (l *Link) prepareOn(st *match.State, g Global, key ed25519.PrivateKey, cmd match.Command, at time.Time) (p prepared, err error) {
	cmd, newKey, err := madeHere(cmd)
	if err != nil {
		return prepared{}, err
	}
	p = prepared{st: st}
	if cmd != nil { // nil: only the credential is unlocked (Prepare)
		if p.command, err = match.EncodeCommand(cmd); err != nil {
			return prepared{}, err
		}
	}
	if !p.protected() {
		if newKey != nil {
			// credential add --role arbiter on an unprotected match: the
			// new key signs its own registration
			p.id, p.key = "arbiter", newKey
			return p, nil
		}
		if st.Match != nil && st.Protected() && g.Role == match.RoleArbiter {
			return p, refuse(CodeOlderPIN)
		}
		return p, nil // unprotected: no credential is needed
	}
	if key == nil {
		path := g.KeyFile
		if path == "" && l.sf.Role == "operator" && g.Role == match.RoleOperator && g.PIN == "" && g.Secret == "" {
			if _, err := os.Stat(OperatorKeyPath(l.db)); err == nil {
				path = OperatorKeyPath(l.db)
			}
		}
		if path != "" {
			if key, err = ReadKeyFile(path); err != nil {
				return p, err
			}
		}
	}
	pin, secret := g.PIN, g.Secret
	if g.Role == match.RoleArbiter && pin == "" {
		pin, secret = secret, ""
	}
	id, pass := "", ""
	switch {
	case pin != "" || (g.Role == match.RoleArbiter && key != nil):
		id, pass = "arbiter", pin
	case secret != "" || key != nil:
		id, pass = st.CredentialFor(g.Role), secret
	default:
		return p, nil // no credential given: the authority refuses it in its words
	}
	cred := st.Credential(id)
	if cred == nil {
		return p, nil // the authority says whose credential is missing
	}
	if until := st.BackoffAt(id, at); at.Before(until) {
		return p, st.TooManyWrong(id, until) // tried only once the wait is over
	}
	if pass != "" {
		key = nil
	}
	k, ok := l.unlock(id, cred, pass, key)
	if !ok {
		p.tried, p.triedG = id, "key"
		if pass != "" {
			p.triedG = "passphrase"
		}
		return p, nil
	}
	p.id, p.key = id, k
	return p, nil
}

// unlock opens credential id's key with the passphrase pass, or checks key
// against it; a key a passphrase opened is kept for the link's life, so
// that argon2id runs once per credential and passphrase. A wrong one is
// never kept: each attempt is tried and reported.
func (l *Link) unlock(id string, cred *match.Credential, pass string, key ed25519.PrivateKey) (ed25519.PrivateKey, bool) {
	if pass == "" {
		return UnlockCredential(cred, pass, key)
	}
	h := sha256.Sum256([]byte(pass))
	name := id + "\x00" + cred.PublicKey + "\x00" + hex.EncodeToString(h[:])
	if k, ok := l.keys[name]; ok {
		return k, true
	}
	k, ok := UnlockCredential(cred, pass, nil)
	if ok && l.keys != nil {
		l.keys[name] = k
	}
	return k, ok
}

// replica is this station's record, opened once per link and brought up
// to date with each command.
func (l *Link) replica(ctx context.Context) (*match.App, error) {
	if l.app == nil {
		app, err := OpenReadOnly(ctx, l.db)
		if err != nil {
			return nil, err
		}
		l.rdb, l.app = app.DB(), app
		return app, nil
	}
	return l.app, l.app.Refresh(ctx)
}

// madeHere makes the new credential of a 'credential add' here, where it
// is given, as the record will hold it (a key file's public key, or a
// passphrase's salt, verifier and sealed key: CredentialAdd.Made), so that
// neither the passphrase nor the key leaves this station. It returns the
// new credential's key with it when it is the arbiter's (it signs its own
// registration when it is the arbiter's first). Any other command is
// returned as it is.
func madeHere(cmd match.Command) (match.Command, ed25519.PrivateKey, error) {
	add, ok := cmd.(match.CredentialAdd)
	if !ok || add.Made != nil || (add.Secret == "") == (add.Key == nil) {
		return cmd, nil, nil // neither or both: the authority refuses it
	}
	r, name := strings.ToLower(string(add.Role)), ""
	switch match.Role(r) {
	case match.RoleArbiter, match.RoleOperator:
	default:
		r, name = "player", add.Player
	}
	cred, k, err := match.NewCredential(r, name, add.Secret, add.Key)
	if err != nil {
		return nil, nil, err
	}
	if r != "arbiter" {
		k = nil
	}
	add.Made, add.Secret, add.Key = cred, "", nil
	return add, k, nil
}

func hasRole(roles []string, r string) bool {
	for _, x := range roles {
		if x == r {
			return true
		}
	}
	return false
}
