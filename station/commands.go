package station

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/match"
	"arbiter/store"
)

// receipt is the first receipt of a request by any record holder: the
// instant on that holder's match timeline, the holder, the round trip it
// measured to the sender (0: none measured), and the uncertainty of its
// estimate of the timeline then (0: it was the authority). here: this
// holder has received the request itself (and published its note).
type receipt struct {
	at   time.Time
	by   string
	rtt  time.Duration
	unc  time.Duration
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
	if req.Command != nil || req.Member != nil || req.Refused != nil {
		s.respond(m, refusedWith(CodeHeadAlone))
		return
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err := s.rep.WaitSeq(wctx, uint64(max(h.Seq, 1)))
	cancel()
	if err != nil && s.rep.CheckHead(h) != nil {
		s.cfg.Logf("%s: head signature %s: the record did not reach event %d: %v", s.cfg.Name, req.ID, h.Seq, err)
		if last, lerr := s.link.LastSeq(ctx); lerr != nil || last >= uint64(h.Seq) {
			return // not answered: the sender retries
		}
	}
	if problem := s.rep.CheckHead(h); problem != nil {
		s.respond(m, refusedWith(CodeHeadRefused, problem))
		return
	}
	b, _ := json.Marshal(h)
	if err := s.link.PublishHead(ctx, fmt.Sprintf("head-%d-%s", h.Seq, h.Key), b); err != nil {
		s.cfg.Logf("%s: head signature %s not appended: %v", s.cfg.Name, req.ID, err)
		return
	}
	s.respond(m, Reply{Seq: uint64(h.Seq)})
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
// every acknowledged command; an other holder whose alarm is raised (its
// beats say so) is not waited for: its record applies nothing more, and no
// epoch starts on it while its alarm stands. It reports false when ctx
// ended first: the command is then not answered (the sender retries with
// the same id, and the retry waits the same way). With one holder the record is the
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
		if b.info.Alarm != "" {
			// Its record applies nothing more (its file was edited, or
			// an event did not fit), so waiting would never end; and no
			// new epoch starts on it while its alarm stands
			// (claimRequest): the record every epoch can start from is
			// this one, which holds the command.
			s.cfg.Logf("%s: event %d answered without %s, whose alarm is raised: %s", s.cfg.Name, seq, other, b.info.Alarm)
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
	pctx := ctx
	if p, ok := ctx.Value(keyPublish).(context.Context); ok {
		pctx = p // the request's own context, which run took off the record's statements
	}
	last, err := s.link.Append(pctx, id, encodeEvents(id, evs, sigs), uint64(evs[0].Seq-1))
	var dup *DuplicateError
	switch {
	case err == nil:
	case errors.Is(err, ErrStale), errors.As(err, &dup):
		return err
	default:
		return &EngineError{err}
	}
	if last != uint64(evs[len(evs)-1].Seq) {
		s.rep.raise(last, CodeAlarmPlaced, int64(last), evs[len(evs)-1].Seq)
		return s.rep.Alarm()
	}
	s.mu.Lock()
	s.acked[id] = last
	s.mu.Unlock()
	if q, _ := ctx.Value(keyAnswer).(*pending); q != nil && evs[0].Kind != match.KindAuthFail {
		// The stream holds the command (a majority of its replicas, or a
		// lone holder's, each on disk: sync always): it is committed, and
		// answered before this record's own commit, which follows, so
		// that the sender's wait for its own replica overlaps it. A kill
		// -9 before that commit loses nothing: the record applies the
		// command from the stream when the station runs again (an
		// auth.fail is answered as a refusal, once committed: answer).
		q.respond(s, Reply{Seq: last, First: uint64(evs[0].Seq)})
	}
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
		case q := <-s.cmds:
			done := s.underWay()
			s.handle(q.m, q.req)
			done()
		}
	}
}

func (s *Station) respond(m *nats.Msg, r Reply) {
	r.By = s.cfg.Name
	b, _ := json.Marshal(r)
	m.Respond(b)
}

// queued is a request onRequest read, for the worker.
type queued struct {
	m   *nats.Msg
	req Request
}

// handle answers one request (m, as onRequest read it): catch up with the
// stream, answer a command id already in the log from it, else stamp the
// request, run it and answer — or leave it unanswered, for the sender to
// retry with the same id, when this station cannot decide it now.
func (s *Station) handle(m *nats.Msg, req Request) {
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	if req.SignedHead != nil {
		s.handleHead(ctx, m, req)
		return
	}
	q := &pending{m: m}
	for attempt := 0; attempt < 5; attempt++ {
		var last uint64
		var other string
		if attempt == 0 && s.streamSettled() {
			// Decided on this record as it stands, without asking the
			// stream's state first: the append carries the sequence the
			// record ends at, so a stream that moved past it (a command
			// this record has not applied, a retried id) refuses it, and
			// the next attempt asks and catches up; a refusal is answered
			// only once the stream is asked (answer).
			last, _ = s.rep.Head()
		} else {
			var peers []string
			var err error
			last, peers, err = s.link.lastSeqPeers(ctx)
			if err != nil {
				s.cfg.Logf("%s: command %s waits for the stream: %v", s.cfg.Name, req.ID, err)
				return // no answer: the sender retries
			}
			other = s.otherHolder(peers)
			if err := s.rep.WaitSeq(ctx, last); err != nil {
				s.cfg.Logf("%s: command %s: the record did not reach event %d: %v", s.cfg.Name, req.ID, last, err)
				return
			}
		}
		if first, seq, ok := s.rep.IDSeqs(req.ID); ok {
			if s.waitOtherHolder(ctx, seq, other) {
				q.respond(s, s.answerFromLog(ctx, first, seq))
			}
			return
		}
		if !s.authority() {
			s.cfg.Logf("%s: command %s: no longer the authority", s.cfg.Name, req.ID)
			return
		}
		cmd, err := s.decode(req)
		first := uint64(0)
		var evs []store.Event
		if err == nil {
			req = s.stamp(req, cmd)
			// its events commit only once the stream holds them
			// (beforeCommit): without a second fsync on this holder
			// (store.HeldElsewhere; docs/stations.md)
			rctx := store.HeldElsewhere(context.WithValue(ctx, keyCommand, req.ID))
			if other == "" && cmd != nil {
				// no other holder to wait for: answered as soon as the
				// stream holds it (beforeCommit)
				rctx = context.WithValue(rctx, keyAnswer, q)
			}
			first, evs, err = s.run(rctx, req, cmd)
		}
		if !s.answer(ctx, q, req, first, evs, err, last, other) {
			return
		}
	}
}

// streamSettled reports whether the authority knows, without asking the
// stream, that it answers a command without waiting for another record
// holder: a lone engine's stream has one replica, and a stream seen with
// three keeps them (Link.replicas). With two, or before the stream was
// seen, every command asks (lastSeqPeers).
func (s *Station) streamSettled() bool {
	return s.eng != nil && (s.eng.cfg.Cluster == nil || s.link.replicas.Load() >= 3)
}

// pending is a request the worker handles: it is answered at most once,
// either as soon as the stream acknowledged its events (beforeCommit) or
// when the worker decided it.
type pending struct {
	m        *nats.Msg
	answered bool
}

func (q *pending) respond(s *Station, r Reply) {
	if q.answered {
		return
	}
	q.answered = true
	s.respond(q.m, r)
}

// decode reads the request's command (nil for a station's own request);
// a request that is neither is refused.
func (s *Station) decode(req Request) (match.Command, error) {
	switch {
	case req.Member != nil || req.Refused != nil:
		if req.Role != string(match.RoleArbiter) || req.Command != nil {
			return nil, refuse(CodeOwnEventOnly)
		}
		return nil, nil
	}
	if _, err := match.ParseRole(req.Role); err != nil {
		return nil, err
	}
	return match.DecodeCanonical(req.Command)
}

// stamp sets how the authority times the request (match.Stamp): its first
// receipt by any record holder, the round trip that holder measured, and
// the instant it runs at — the one stamped where it was given, raised to
// the earliest that receipt allows.
func (s *Station) stamp(req Request, cmd match.Command) Request {
	s.mu.Lock()
	first := s.receipts[req.ID]
	s.mu.Unlock()
	pressed := req.At
	at := pressed
	if first.at.IsZero() {
		first = receipt{at: s.Now(), by: s.cfg.Name}
	}
	// The receipt is as uncertain as the receiving holder's estimate of
	// the timeline, and this authority continues the timeline its
	// predecessor had only within the bound of its own estimate when it
	// took over (a sender, or a holder, that has not heard it yet still
	// stamps on the predecessor's).
	s.mu.Lock()
	unc := first.unc + s.frozenErr
	s.mu.Unlock()
	stamp := &match.Stamp{Pressed: pressed, Received: first.at, ReceivedBy: first.by, RTT: first.rtt, Uncertainty: time.Duration(req.RTT) / 2,
		ReceiptUncertainty: unc}
	if floor := first.at.Add(-first.rtt); at.Before(floor) && !(req.AtGiven && byArbiter(req)) {
		// A sender cannot backdate by more than the round trip the
		// holder that received it first measured to it: raised to
		// that bound (docs/stations.md says why it is not refused).
		// Only the arbiter's credential records an earlier instant
		// given with --at (match.LateAfter: it is recorded late).
		at, stamp.Raised = floor, true
	}
	if late := s.Now().Sub(pressed); late > time.Second && presses(cmd) {
		// Arrived late (a failover, a sleeping laptop): its instant
		// corrects the clocks shown meanwhile.
		stamp.Correction = true
		s.cfg.Logf("%s: command %s stamped %v before it is run: recorded as a correction of the clocks", s.cfg.Name, req.ID, late.Round(time.Millisecond))
	}
	req.At, req.Stamp = at, stamp
	return req
}

// run runs a stamped request on the authority's record: a station's own
// event, or the command as the actor its role's signature (or the wrong
// credential it reports) makes it, through the one entry point of the
// core, match.App.Do. first is the command's first event (0: a station's
// own event, one), evs the events it committed (nil for a station's own).
func (s *Station) run(ctx context.Context, req Request, cmd match.Command) (first uint64, evs []store.Event, err error) {
	switch {
	case req.Member != nil:
		return 0, nil, s.appendMember(ctx, req)
	case req.Refused != nil:
		return 0, nil, s.appendRefused(ctx, req)
	}
	if Running != nil {
		Running(req)
	}
	by := match.Cmd{At: req.At, Stamp: req.Stamp, Actor: match.Actor{Role: match.Role(req.Role), Signed: req.Signed()}}
	if req.Tried != "" {
		by.Tried = &match.AuthFailPayload{Credential: req.Tried, Given: req.TriedGiven}
	}
	// The record's statements run without ctx's end (no goroutine of the
	// SQLite driver's for each, started and woken again, before the
	// publish: docs/performance.md, "eleventh pass"); the publish in
	// beforeCommit keeps ctx, its time-out and the station's stop, and
	// its refusal rolls the transaction back as before.
	res, err := s.app.Do(context.WithValue(context.WithoutCancel(ctx), keyPublish, ctx), by, cmd)
	if err == nil && len(res.Events) > 0 {
		first = uint64(res.Events[0].Seq)
	}
	return first, res.Events, err
}

// answer answers a request run with outcome err (its first event first,
// the events it committed evs) on the record at stream event last (other: the other record holder,
// which must hold a command before it is answered), or leaves it
// unanswered; again reports whether to catch up and decide it again.
func (s *Station) answer(ctx context.Context, q *pending, req Request, first uint64, evs []store.Event, err error, last uint64, other string) (again bool) {
	var dup *DuplicateError
	var eng *EngineError
	var alarm *AlarmError
	switch {
	case errors.As(err, &alarm):
		// the record's file was changed behind the authority: it runs
		// no more commands; the sender retries and another decides
		s.cfg.Logf("ALARM: %v", err)
		return false
	case err == nil:
		s.mu.Lock()
		seq, ok := s.acked[req.ID]
		s.mu.Unlock()
		if !ok {
			seq, _ = s.rep.Head()
		} else {
			s.rep.Adopt(ctx, req.ID, seq, evs)
		}
		if s.waitOtherHolder(ctx, seq, other) {
			q.respond(s, Reply{Seq: seq, First: first})
		}
		return false
	case errors.Is(err, ErrStale), errors.As(err, &dup):
		s.cfg.Logf("%s: command %s: %v; catching up", s.cfg.Name, req.ID, err)
		return true // catch up; the id is then found in the record
	case errors.Is(err, ErrNotAuthority), errors.As(err, &eng), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		s.cfg.Logf("%s: command %s not answered: %v", s.cfg.Name, req.ID, err)
		return false
	}
	s.mu.Lock()
	_, acked := s.acked[req.ID]
	s.mu.Unlock()
	if acked {
		// The stream took the command but the record did not commit
		// (the disk): it is not withdrawn; it is answered from the log
		// once this record has applied it.
		s.cfg.Logf("%s: command %s is in the stream but the record failed: %v", s.cfg.Name, req.ID, err)
		return true
	}
	// A refusal is never appended, so no sequence check guards it: a
	// deposed authority (frozen, then thawed) may have validated on a
	// record the stream has long passed. It is answered only while the
	// stream has a majority and still ends where the record validated
	// ended; else the sender retries with the same id and the current
	// authority decides.
	if ok, merr := s.link.Majority(ctx); merr != nil || !ok {
		s.cfg.Logf("%s: command %s refused without a majority of the stream (%v): not answered", s.cfg.Name, req.ID, err)
		return false
	}
	if now, _, lerr := s.link.lastSeqPeers(ctx); lerr != nil || now != last {
		s.cfg.Logf("%s: command %s refused on event %d while the stream is at %d; catching up", s.cfg.Name, req.ID, last, now)
		return true
	}
	r := Reply{Error: err.Error()}
	if !errors.As(err, &r.Refusal) {
		errors.As(err, &r.Phrase) // the station's own refusal (refusals.go)
	}
	q.respond(s, r)
	return false
}

// byArbiter reports whether a request is given with the arbiter's
// credential (signed by it, or reporting a wrong one tried).
func byArbiter(req Request) bool { return req.Signer == "arbiter" || req.Tried == "arbiter" }

// presses reports whether a command presses a clock: a press, and a move
// not pressed before (the move presses its clock).
func presses(cmd match.Command) bool {
	switch c := cmd.(type) {
	case match.Press:
		return true
	case match.Move:
		return !c.Pressed
	}
	return false
}

// Running, when set, is told every command request the authority runs, as
// it came off the wire (tests: what crosses the network).
var Running func(Request)

// Trace, when set, is told about every unanswered try (tests and debugging).
var Trace func(format string, a ...any)

// Submit sends a request to the authority and retries with the same id
// until it is answered or ctx ends; with rep it then waits until rep holds
// the command. Each try waits up to try for an answer.
func Submit(ctx context.Context, nc *nats.Conn, req Request, rep *Replica, try time.Duration) (Reply, error) {
	return submitHeld(ctx, nc, req, rep, try, false)
}

// submitHeld is Submit; held says that rep holding the command answers it as
// the authority's answer would (a stream whose acknowledgement the
// authority's answer waits for alone: Station.Submit).
func submitHeld(ctx context.Context, nc *nats.Conn, req Request, rep *Replica, try time.Duration, held bool) (Reply, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	moved := time.Now()
	for {
		var m *nats.Msg
		var err error
		if held && rep != nil {
			var r Reply
			var here bool
			if m, r, here, err = requestOrHeld(ctx, nc, SubjectCommands+"."+req.Role, data, try, rep, req.ID); here {
				return r, nil
			}
		} else {
			m, err = nc.Request(SubjectCommands+"."+req.Role, data, try)
		}
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
			return Reply{}, refuse(CodeNoAuthorityAnswered, req.ID, ctx.Err())
		}
		if errors.Is(err, nats.ErrConnectionClosed) {
			return Reply{}, refuse(CodeConnectionClosed, req.ID)
		}
		if errors.Is(err, nats.ErrNoResponders) {
			if sleepCtx(ctx, 100*time.Millisecond) != nil {
				return Reply{}, refuse(CodeNoAuthorityAnswered, req.ID, ctx.Err())
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

// requestOrHeld is one try of a request (an answer, or err) that stops
// early, here, when rep holds the command: its id is in the record, and its
// first event is not an auth.fail (a wrong credential recorded, which is
// answered as a refusal). r is then what the answer says of it.
func requestOrHeld(ctx context.Context, nc *nats.Conn, subject string, data []byte, try time.Duration, rep *Replica, id string) (m *nats.Msg, r Reply, here bool, err error) {
	type answer struct {
		m   *nats.Msg
		err error
	}
	answered := make(chan answer, 1)
	wctx, stop := context.WithCancel(ctx) // ends the wait when the answer comes
	defer stop()
	go func() {
		m, err := nc.Request(subject, data, try)
		answered <- answer{m, err}
		stop()
	}()
	var held cmdSeqs
	if rep.WaitFor(wctx, func(rep *Replica) bool {
		s, ok := rep.ids[id]
		if ok && s.first >= 1 && s.first <= uint64(len(rep.events)) && rep.events[s.first-1].Kind == match.KindAuthFail {
			ok = false // a refusal recorded: the answer words it
		}
		held = s
		return ok
	}) == nil {
		return nil, Reply{Seq: held.last, First: held.first}, true, nil
	}
	a := <-answered // the answer, or the try's end (an alarm: the answer decides)
	return a.m, Reply{}, false, a.err
}

// Submit sends a request from this station. With one record holder or
// three, the command is done once this station's replica holds it, whether
// or not the authority's answer came yet (docs/stations.md, "One
// authority").
func (s *Station) Submit(ctx context.Context, req Request) (Reply, error) {
	if r, refused := s.refusedByAlarm(); refused {
		return r, nil
	}
	defer s.underWay()()
	if req.From == "" {
		req.From = s.cfg.Name
	}
	if req.At.IsZero() {
		local := s.cfg.Now()
		if _, u := s.Offset(); u < 0 {
			// No estimate of the timeline yet (a station just started,
			// before its first time sample): its own clock may be any
			// distance from the authority's, so the command given now
			// is placed on the timeline by asking it once, not stamped
			// on this station's clock (docs/stations.md, "Exact clocks").
			s.timeSample(SubjectTime)
		}
		req.At = s.timelineAt(local)
	}
	if _, u := s.Offset(); u > 0 {
		req.RTT = int64(2 * u)
	}
	return submitHeld(ctx, s.link.nc, req, s.rep, time.Second, heldAnswers(s.link.replicas.Load()))
}

// refusedByAlarm is the answer to a command given at this station while
// its alarm is raised (AlarmRefusal): its record applies nothing more, so
// a command given here would be committed elsewhere and never applied
// here, and the face would wait for it in vain.
func (s *Station) refusedByAlarm() (Reply, bool) {
	a := s.rep.Alarm()
	if a == nil {
		return Reply{}, false
	}
	var why error = a
	if w := alarmWhy(a); w != nil {
		why = w
	}
	p := AlarmRefusal(s.cfg.Name, why)
	return Reply{Error: p.Error(), Phrase: p, By: s.cfg.Name}, true
}

// heldAnswers reports whether a station's record holding a command says
// what the authority's answer would, for a stream of that many replicas
// (0: not known yet): with one or three the authority answers once the
// stream acknowledges the command, which a replica receives only then; with
// two it answers only once the other holder's record holds it too ("Two
// holders, one dies"), which this record holding it does not say.
func heldAnswers(replicas int32) bool { return replicas == 1 || replicas >= 3 }

// answerFromLog answers a command found in the log at seq: committed, or,
// when what it wrote is an auth.fail (a wrong credential or request
// signature, recorded), refused, the first time and on every retry with
// its id.
func (s *Station) answerFromLog(ctx context.Context, first, seq uint64) Reply {
	evs, err := s.cfg.DB.EventsAfter(ctx, int64(seq)-1)
	if err != nil || len(evs) == 0 || evs[0].Kind != match.KindAuthFail {
		return Reply{Seq: seq, First: first}
	}
	var p match.AuthFailPayload
	json.Unmarshal(evs[0].Payload, &p)
	st := s.app.State()
	refused := st.WrongCredential(p.Credential, st.BackoffUntil(p.Credential))
	var refusal *match.Error
	errors.As(refused, &refusal)
	return Reply{Seq: seq, Error: refused.Error(), Refusal: refusal}
}

// onRequest notes a request's first receipt at this record holder (and
// tells the other holders), and queues it for the worker when this station
// is the authority. A holder that has no estimate of the timeline with an
// error bound (no authority answered it since it started) notes none: its
// clock could be any distance from the timeline.
func (s *Station) onRequest(m *nats.Msg) {
	var req Request
	if json.Unmarshal(m.Data, &req) != nil || req.ID == "" {
		return
	}
	if m.Subject != SubjectCommands+"."+req.Role {
		return // the role must be the subject's: the connection's permissions name the subjects
	}
	if r, refused := s.refusedByAlarm(); refused && req.From == s.cfg.Name {
		// given at this station, whose face had not seen the alarm yet
		// (its status is written every 250 ms): refused at once
		s.respond(m, r)
		return
	}
	s.working()
	now := s.Now()
	s.mu.Lock()
	r, ok := s.receipts[req.ID]
	unc, known := s.uncertaintyLocked()
	var note []byte
	if known && (!ok || !r.here) {
		if !ok && len(s.receipts) >= 4096 { // forget receipts older than the duplicate window's use
			for id, x := range s.receipts {
				if now.Sub(x.at) > time.Hour {
					delete(s.receipts, id)
				}
			}
		}
		rtt := s.rttLocked(req.From)
		first := receipt{at: now, by: s.cfg.Name, rtt: rtt, unc: unc, here: true}
		if ok && !now.Before(r.at) {
			first.at, first.by, first.rtt, first.unc = r.at, r.by, r.rtt, r.unc // another holder received it first
		}
		s.receipts[req.ID] = first
		note, _ = json.Marshal(receiptNote{ID: req.ID, By: s.cfg.Name, AtNS: now.UnixNano(), RTTNS: int64(rtt), UncNS: int64(unc)})
	}
	auth := s.isAuth
	s.mu.Unlock()
	if note != nil {
		s.link.nc.Publish(SubjectReceipt, note) // the other holders learn this holder's receipt
	}
	if auth {
		select {
		case s.cmds <- queued{m, req}:
		default: // full: the sender retries
		}
	}
}

// onReceipt notes another record holder's receipt of a request, when it
// was the first.
func (s *Station) onReceipt(m *nats.Msg) {
	var n receiptNote
	if json.Unmarshal(m.Data, &n) != nil || n.ID == "" || n.By == s.cfg.Name {
		return
	}
	at := time.Unix(0, n.AtNS)
	s.mu.Lock()
	if r, ok := s.receipts[n.ID]; !ok || at.Before(r.at) {
		s.receipts[n.ID] = receipt{at: at, by: n.By, rtt: time.Duration(n.RTTNS), unc: time.Duration(n.UncNS), here: r.here}
	}
	s.mu.Unlock()
}
