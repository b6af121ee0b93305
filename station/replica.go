package station

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// Replica applies the stream to this station's SQLite record. Every event
// is checked on the way in: its seq is the stream sequence and the next in
// the record, its prev is the record's head, its hash is its own
// (store.EventHash), store's Append, given only the event's content,
// computes the same seq, prev and hash, and the signatures that come with
// it hold (match.CheckIncoming: on a protected match the station's of every
// event, the credential's of every command). The first mismatch stops
// applying for good and raises the alarm.
type Replica struct {
	db *store.DB

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every change
	seq     uint64
	head    string
	hashes  []string // hashes[i] is the hash of event i+1
	// events are the record's events as applied (events[i] is event
	// i+1): the record with an incoming command is checked on them,
	// not read again from the file at every command (appendBatch).
	events      []store.Event
	ids         map[string]cmdSeqs // command id -> the first and last seq of that command
	claim       string             // the station named by the latest claim
	claimAt     uint64
	claimKey    string // the key the latest claim certified ("" for none: match.StationCertificate)
	epoch       int    // of the latest claim that started an epoch (0: none)
	members     map[string]MemberInfo
	memberOrder []string
	alarm       error
	pending     []pendingEvent // parts of a command not complete yet
	// keys is the arbiter's key at each event, heads the events whose head
	// the arbiter signed in the record: the heads stream is checked and
	// applied with them (ApplyHead).
	keys  match.ArbiterKeyring
	heads map[int64]bool
	// walk is the signatures' check of the record as applied
	// (match.IncomingWalk): a command from the stream is checked by
	// advancing it over the command's events only (appendBatch). It can
	// lag behind the record (this station's own commands, taken without
	// it): the next command's check walks those too.
	walk match.IncomingWalk
	// guard checks a command from the stream as verify and the watch do
	// beyond the walk (a command id the record holds already, a move
	// given at another station that is not the one signed), on its events
	// only, in memory (match.ReplayGuard)
	guard *match.ReplayGuard
}

type pendingEvent struct {
	w  wireEvent
	ev store.Event
}

type ctxKey int

const (
	keyReplica ctxKey = iota // an Update of the replica applier: no publishing
	keyCommand               // the command id of an Update run for a request
	keyClaim                 // an Update that appends a claim
	keyAnswer                // the *pending request to answer once the stream holds its events
	keyPublish               // the request's context, for the publish of an Update whose statements run without its end (Station.run)
)

// AlarmError is raised when an incoming event does not fit the record, or
// (File) when the record's file no longer holds what this station wrote.
// Why is the alarm as a phrase (alarms.go): its code (CodeAlarmStream,
// CodeAlarmFile) with the event's seq and the reason, itself a phrase;
// Error() is its English, Reason the reason's.
type AlarmError struct {
	Seq    uint64
	Reason string
	File   bool
	Why    *phrase.Error
}

func (a *AlarmError) Error() string {
	if a.File {
		return fmt.Sprintf("this station's record file was changed behind it (%s): this station stopped applying; keep the file for the appeals board and join again with a new invitation", a.Reason)
	}
	return fmt.Sprintf("event %d from the stream does not fit this record (%s): this station stopped applying; keep both records for the appeals board and join again with a new invitation", a.Seq, a.Reason)
}

// Unwrap is the alarm as a phrase, for a face to say it in its words.
func (a *AlarmError) Unwrap() error {
	if a.Why == nil {
		return nil
	}
	return a.Why
}

// NewReplica is the station's view of its open record: it reads the record's head, command ids and stations' events.
// known is the match after the record as the station's App rebuilt it (App.State; nil: none), which the replay
// guard takes when it stands at the record's head rather than replay the record again (match.NewReplayGuard).
func NewReplica(ctx context.Context, db *store.DB, known *match.State) (*Replica, error) {
	r := &Replica{db: db, changed: make(chan struct{}), ids: map[string]cmdSeqs{}, members: map[string]MemberInfo{}, heads: map[int64]bool{}}
	evs, sigs, err := db.Record(ctx)
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		r.note(e)
		r.hashes = append(r.hashes, e.Hash)
		r.keys.Add(e)
	}
	r.events = evs
	for _, s := range sigs {
		if s.Kind == store.SigHead {
			r.heads[s.Seq] = true
		}
	}
	r.guard = match.NewReplayGuard(evs, sigs, known)
	if _, w := r.walk.Check(nil, evs, sigs); w != nil {
		r.walk = *w // else the first command's check walks the record again, as before
	}
	if n := len(evs); n > 0 {
		r.seq, r.head = uint64(evs[n-1].Seq), evs[n-1].Hash
	}
	return r, nil
}

// note updates the stations' view from one applied event (lock held or not yet shared).
func (r *Replica) note(e store.Event) {
	switch e.Kind {
	case KindClaim:
		var p claimPayload
		if json.Unmarshal(e.Payload, &p) == nil {
			r.claim, r.claimAt, r.claimKey = p.Station, uint64(e.Seq), p.Key
			if p.Epoch > r.epoch {
				// A new epoch: the claimant is the only record holder from
				// here on; the others rejoin only by a new invitation.
				r.epoch = p.Epoch
				order := r.memberOrder[:0:0]
				for _, name := range r.memberOrder {
					if m := r.members[name]; Holder(m.Role) && name != p.Station {
						delete(r.members, name)
						continue
					}
					order = append(order, name)
				}
				r.memberOrder = order
			}
		}
	case KindMember:
		var p MemberInfo
		if json.Unmarshal(e.Payload, &p) == nil {
			if _, ok := r.members[p.Name]; !ok {
				r.memberOrder = append(r.memberOrder, p.Name)
			}
			r.members[p.Name] = p
		}
	}
}

func (r *Replica) broadcast() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// Head is the last applied event.
func (r *Replica) Head() (uint64, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seq, r.head
}

// Events are the record's events as applied (events[i] is event i+1), for
// reading only: the slice is appended to, never changed.
func (r *Replica) Events() []store.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.events
}

// Applied are the record's events as applied (Events) and the match after
// them as the replica's guard replayed them (nil: not known), for the
// station's App to take without applying them again (match.App.TakeReplayed).
func (r *Replica) Applied() ([]store.Event, *match.State) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.guard.State()
	if st != nil && st.Seq != int64(len(r.events)) {
		st = nil
	}
	return r.events, st
}

// Authority is the station named by the latest claim in the record, and that claim's seq.
func (r *Replica) Authority() (string, uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.claim, r.claimAt
}

// ClaimKey is the key the latest claim certified for the station it names
// ("" when it certified none: match.StationCertificate).
func (r *Replica) ClaimKey() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.claimKey
}

// Epoch is the number of the latest epoch started (0: none).
func (r *Replica) Epoch() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.epoch
}

// Members are the stations recorded as joined.
func (r *Replica) Members() map[string]MemberInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := make(map[string]MemberInfo, len(r.members))
	for k, v := range r.members {
		m[k] = v
	}
	return m
}

// Alarm is the reason applying stopped, or nil.
func (r *Replica) Alarm() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alarm
}

// IDSeq is the last seq of the command with this id, if it is in the record.
func (r *Replica) IDSeq(id string) (uint64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.ids[id]
	return s.last, ok
}

// cmdSeqs are the first and last events of a command.
type cmdSeqs struct{ first, last uint64 }

// IDSeqs is the first and last event of command id, if the record holds it.
func (r *Replica) IDSeqs(id string) (first, last uint64, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.ids[id]
	return s.first, s.last, ok
}

// WaitFor waits until cond holds (checked under the lock after every
// change), ctx ends, or the alarm is raised.
func (r *Replica) WaitFor(ctx context.Context, cond func(r *Replica) bool) error {
	for {
		r.mu.Lock()
		ok, alarm, ch := cond(r), r.alarm, r.changed
		r.mu.Unlock()
		if ok {
			return nil
		}
		if alarm != nil {
			return alarm
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// WaitSeq waits until the record holds event seq.
func (r *Replica) WaitSeq(ctx context.Context, seq uint64) error {
	return r.WaitFor(ctx, func(r *Replica) bool { return r.seq >= seq })
}

// raise raises the alarm at event seq from the stream, which does not fit
// the record for the reason code with its arguments (alarms.go).
func (r *Replica) raise(seq uint64, code match.Code, a ...any) error {
	return r.raiseAlarm(streamAlarm(seq, why(code, a...)))
}

// raiseAlarm raises a (unless an alarm is raised already) and returns the
// alarm raised.
func (r *Replica) raiseAlarm(a *AlarmError) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.alarm == nil {
		r.alarm = a
		r.broadcast()
	}
	return r.alarm
}

// CheckFileHead is the station's head check (store.DB.SetHeadCheck): before
// anything is appended to the record, its file must still end with the
// event this station wrote or applied last — that event's seq, its hash,
// and the hash recomputed from what the file now holds. An event after it
// (the authority's own command, committed before it is taken into this
// view) must at least be its own hash. Otherwise the file was edited or
// damaged behind the station: the alarm is raised, applying stops and
// nothing is appended.
func (r *Replica) CheckFileHead(last store.Event, ok bool) error {
	r.mu.Lock()
	seq, head := r.seq, r.head
	r.mu.Unlock()
	var reason *phrase.Error
	switch {
	case seq == 0:
		return nil
	case !ok || last.Seq < int64(seq):
		reason = why(CodeFileLost, int64(seq))
	case last.Seq == int64(seq) && last.Hash != head:
		reason = why(CodeFileOther, int64(seq))
	case store.EventHash(last) != last.Hash:
		reason = why(CodeFileEdited, last.Seq, last.Kind)
	default:
		return nil
	}
	return r.raiseAlarm(fileAlarm(uint64(last.Seq), reason))
}

// Apply takes one stream message. Messages must come in stream order.
// It returns the alarm once raised; other errors (the disk) are returned
// and the same message may be given again.
func (r *Replica) Apply(ctx context.Context, m StreamMsg) error {
	if err := r.Alarm(); err != nil {
		return err
	}
	batch, err := r.gather(m)
	if err != nil || batch == nil {
		return err
	}
	r.mu.Lock()
	seq, head := r.seq, r.head
	prior, walk, guard := r.events, r.walk, r.guard // read only: the events after prior's are given to the check apart
	r.mu.Unlock()
	if uint64(batch[0].ev.Seq) <= seq {
		// Already here (this station's own command, committed after the
		// stream acknowledged it, or a replay after a restart): it must be
		// the same event.
		return r.checkPresent(ctx, batch)
	}
	if uint64(batch[0].ev.Seq) != seq+1 {
		return r.raise(uint64(batch[0].ev.Seq), CodeAlarmRecordEnds, int64(seq))
	}
	if batch[0].ev.Prev != head && !(seq == 0 && batch[0].ev.Prev == store.GenesisPrev) {
		return r.raise(uint64(batch[0].ev.Seq), CodeAlarmPrev)
	}
	var mismatch error
	var walked *match.IncomingWalk
	var step *match.ReplayStep
	// The transaction runs to its end once begun, whatever becomes of ctx
	// (a stopping station, a consumer restarted): a statement run with a
	// context that can end costs a goroutine of the SQLite driver's, started
	// and woken again, three a command on every record holder and the
	// laptop in the milliseconds the command's message reaches them all
	// (docs/performance.md, "eleventh pass"). A message applied whole is
	// the stream's, checked as ever; the caller stops after it.
	//
	// The events are the stream's, on the disk of a majority of its
	// servers: a record holder's handle commits them without a second
	// fsync (store.HeldElsewhere; the laptop's, which holds no stream,
	// with it).
	_, err = r.db.Update(store.HeldElsewhere(context.WithValue(context.WithoutCancel(ctx), keyReplica, true)), func(tx *store.Tx) error {
		var err error
		walked, step, mismatch, err = appendBatch(tx, prior, batch, walk, guard)
		if mismatch != nil {
			return mismatch
		}
		return err
	})
	if mismatch != nil {
		return r.raiseAlarm(streamAlarm(uint64(batch[0].ev.Seq), mismatch))
	}
	if err != nil {
		var alarm *AlarmError
		switch {
		case errors.As(err, &alarm): // CheckFileHead: the file was changed behind the station
			return alarm
		case errors.Is(err, store.ErrCorrupt):
			return r.raiseAlarm(fileAlarm(uint64(batch[0].ev.Seq), why(CodeFileDamaged)))
		case errors.Is(err, store.ErrInvalidEvent):
			return r.raiseAlarm(streamAlarm(uint64(batch[0].ev.Seq), err)) // the store's words
		}
		r.mu.Lock()
		r.pending = batch[:len(batch)-1] // the last part is given again
		r.mu.Unlock()
		return err
	}
	r.commit(batch, walked, walk.Walked(), step)
	return nil
}

// gather decodes and checks one stream message and adds it to the command
// it is part of; it returns the command's events once its last part came
// (nil before).
func (r *Replica) gather(m StreamMsg) ([]pendingEvent, error) {
	w, ev, err := decodeEvent(m.Data)
	if err != nil {
		return nil, r.raiseAlarm(streamAlarm(m.Seq, err))
	}
	if uint64(ev.Seq) != m.Seq {
		return nil, r.raise(m.Seq, CodeAlarmSaysEvent, ev.Seq)
	}
	if got := store.EventHash(ev); got != ev.Hash {
		return nil, r.raise(m.Seq, CodeAlarmHash)
	}
	r.mu.Lock()
	if n := len(r.pending); n > 0 {
		last := r.pending[n-1]
		if w.Cmd != last.w.Cmd || w.Part != last.w.Part+1 || w.Parts != last.w.Parts {
			r.mu.Unlock()
			return nil, r.raise(m.Seq, CodeAlarmBreaksOff, last.w.Cmd, last.w.Part, last.w.Parts)
		}
	} else if w.Part != 1 {
		r.mu.Unlock()
		return nil, r.raise(m.Seq, CodeAlarmStartMissing, w.Part)
	}
	r.pending = append(r.pending, pendingEvent{w, ev})
	var batch []pendingEvent
	if w.Part == w.Parts {
		batch, r.pending = r.pending, nil
	}
	r.mu.Unlock()
	return batch, nil
}

// appendBatch appends a command's events from the stream to the record in
// tx, with their signatures, and checks them as opening the record checks
// them; mismatch says why they do not fit (err: the disk). prior are the
// record's events before them as the replica applied them (the file's
// last one is the replica's, by the head check) and walk the check of
// their signatures so far: the check advances over the command's events
// (and any before them it has not walked), with the command's signatures
// (and theirs, read from the file), and returns the walk advanced (nil:
// keep the old one). Prior of another length (not the record before the
// command) is read from the file and the record checked whole. Then guard
// checks the command's events as verify does beyond the signatures (a
// command id the record holds already, a move given at another station
// that is not the one signed, an event that does not play on the match),
// in memory; step is what it keeps (nil: nothing).
func appendBatch(tx *store.Tx, prior []store.Event, batch []pendingEvent, walk match.IncomingWalk, guard *match.ReplayGuard) (walked *match.IncomingWalk, step *match.ReplayStep, mismatch, err error) {
	var present bool
	walked, present, mismatch, err = appendAndWalk(tx, prior, batch, walk)
	if mismatch != nil || err != nil || present || guard == nil {
		return nil, nil, mismatch, err
	}
	if int64(len(prior)) != batch[0].ev.Seq-1 {
		if prior, err = tx.EventsAfter(0); err != nil {
			return nil, nil, nil, err
		}
		prior = prior[:batch[0].ev.Seq-1]
	}
	var sigs []store.Signature
	if guard.Checked() < int64(len(prior)) {
		// events the guard has not checked (this station's own
		// commands): their rows are the file's
		if sigs, err = tx.Signatures(); err != nil {
			return nil, nil, nil, err
		}
	} else {
		for _, p := range batch {
			for _, w := range p.w.Sigs {
				sigs = append(sigs, w.signature(p.ev.Seq))
			}
		}
	}
	added := make([]store.Event, len(batch))
	for i, p := range batch {
		added[i] = p.ev
	}
	step, problem, err := guard.Check(prior, added, sigs)
	switch {
	case err != nil:
		return nil, nil, why(CodeAlarmNotPlayable, err), nil
	case problem != nil:
		return nil, nil, problem, nil
	}
	return walked, step, nil, nil
}

// appendAndWalk appends a command's events with their signatures and
// checks the signatures (appendBatch).
// present: the record holds them already (this station's own command).
func appendAndWalk(tx *store.Tx, prior []store.Event, batch []pendingEvent, walk match.IncomingWalk) (walked *match.IncomingWalk, present bool, mismatch, err error) {
	have, err := tx.EventsAfter(batch[0].ev.Seq - 1)
	if err != nil {
		return nil, false, nil, err
	}
	if len(have) > 0 {
		// This station's own command, committed after the stream
		// acknowledged it: the record must hold exactly these events.
		for i, p := range batch {
			if i >= len(have) || have[i].Hash != p.ev.Hash || store.EventHash(have[i]) != p.ev.Hash {
				return nil, true, why(CodeAlarmAnotherEvent, p.ev.Seq), nil
			}
		}
		return nil, true, nil, nil
	}
	whole := int64(len(prior)) != batch[0].ev.Seq-1
	if whole {
		if prior, err = tx.EventsAfter(0); err != nil {
			return nil, false, nil, err
		}
		walk = match.IncomingWalk{}
	}
	added := make([]store.Event, 0, len(batch))
	for _, p := range batch {
		in := p.ev
		in.Seq, in.Prev, in.Hash = 0, "", ""
		got, err := tx.Append(in)
		if err != nil {
			return nil, false, nil, err
		}
		if got.Seq != p.ev.Seq || got.Prev != p.ev.Prev || got.Hash != p.ev.Hash {
			return nil, false, why(CodeAlarmComputes, got.Seq, got.Hash[:12]), nil
		}
		added = append(added, got)
	}
	var sigs []store.Signature
	for _, p := range batch {
		for _, w := range p.w.Sigs {
			s := w.signature(p.ev.Seq)
			if err := tx.PutSignature(s); err != nil {
				return nil, false, why(CodeAlarmSignaturesUnfit, err), nil
			}
			sigs = append(sigs, s)
		}
	}
	if walk.Walked() < len(prior) {
		// Events the walk has not checked (this station's own commands,
		// a record read whole): their signatures are the file's.
		all, err := tx.Signatures()
		if err != nil {
			return nil, false, nil, err
		}
		sigs = sigs[:0]
		for _, s := range all {
			if s.Seq > int64(walk.Walked()) {
				sigs = append(sigs, s)
			}
		}
	}
	// The signatures: the record with the command, checked as opening it
	// checks (every event of a protected match signed by its station, each
	// command by the credential registered for its signer), advancing the
	// walk over the events it has not checked (match.IncomingWalk).
	rep, next := walk.Check(prior, added, sigs)
	if !rep.OK && rep.BadSeq >= batch[0].ev.Seq {
		var problem any = rep.Problem
		if rep.Why != nil {
			problem = rep.Why // said in the face's words
		}
		return nil, false, why(CodeAlarmSignatureFails, problem), nil
	}
	if whole {
		next = nil
	}
	return next, false, nil, nil
}

func (r *Replica) checkPresent(ctx context.Context, batch []pendingEvent) error {
	r.mu.Lock()
	hashes := r.hashes
	r.mu.Unlock()
	for _, p := range batch {
		i := p.ev.Seq - 1
		if i >= int64(len(hashes)) {
			// Committed by this station's own command but not yet noted.
			have, err := r.db.EventsAfter(ctx, p.ev.Seq-1)
			if err != nil {
				r.mu.Lock()
				r.pending = batch[:len(batch)-1]
				r.mu.Unlock()
				return err
			}
			if len(have) == 0 || have[0].Hash != p.ev.Hash {
				return r.raise(uint64(p.ev.Seq), CodeAlarmAnotherEvent, p.ev.Seq)
			}
			continue
		}
		if hashes[i] != p.ev.Hash {
			return r.raise(uint64(p.ev.Seq), CodeAlarmAnotherEvent, p.ev.Seq)
		}
	}
	r.commit(batch, nil, 0, nil)
	return nil
}

// Adopt takes into the in-memory view the events up to upTo that this
// station's own command id committed to the record after the stream
// acknowledged them, without waiting for the stream to deliver them back
// (which, after a change of stream leader, can take seconds). They are
// checked as on the way in; the stream's copy is compared when it comes.
// committed are the events as the command's transaction committed them
// (match.Result.Events), taken when they follow the view's head; else
// (nil, or events committed meanwhile) the record is read after it.
func (r *Replica) Adopt(ctx context.Context, id string, upTo uint64, committed []store.Event) error {
	r.mu.Lock()
	seq, head, busy := r.seq, r.head, len(r.pending) > 0 || r.alarm != nil
	r.mu.Unlock()
	if upTo <= seq || busy {
		return nil
	}
	evs := committed
	if len(evs) == 0 || uint64(evs[0].Seq) != seq+1 || uint64(evs[len(evs)-1].Seq) < upTo {
		var err error
		if evs, err = r.db.EventsAfter(ctx, int64(seq)); err != nil {
			return err
		}
	}
	prev := head
	if seq == 0 {
		prev = store.GenesisPrev
	}
	var batch []pendingEvent
	for _, e := range evs {
		if uint64(e.Seq) > upTo {
			break
		}
		if e.Prev != prev || store.EventHash(e) != e.Hash {
			return r.raise(uint64(e.Seq), CodeAlarmOwnEvent)
		}
		prev = e.Hash
		batch = append(batch, pendingEvent{w: wireEvent{Cmd: id}, ev: e})
	}
	if len(batch) > 0 {
		r.commit(batch, nil, 0, nil)
	}
	return nil
}

// commit updates the in-memory view after batch is in the record: walked,
// when not nil, is the walk of the signatures advanced over it from the
// walk that had walked from events (kept if the walk is still that one).
// step, when not nil, is the guard's check of it (kept if the guard is
// still where it began).
func (r *Replica) commit(batch []pendingEvent, walked *match.IncomingWalk, from int, step *match.ReplayStep) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.guard.Keep(step)
	if walked != nil && r.walk.Walked() == from {
		h := r.walk.LastHead() // one the heads stream brought meanwhile
		r.walk = *walked
		r.walk.NoteHead(h)
	}
	for _, p := range batch {
		if p.ev.Seq == int64(len(r.hashes))+1 {
			r.hashes = append(r.hashes, p.ev.Hash)
			r.events = append(r.events, p.ev)
			r.note(p.ev)
			r.keys.Add(p.ev)
		}
		for _, w := range p.w.Sigs {
			if w.Kind == store.SigHead {
				r.heads[p.ev.Seq] = true
			}
		}
		if uint64(p.ev.Seq) > r.seq {
			r.seq, r.head = uint64(p.ev.Seq), p.ev.Hash
		}
	}
	last := batch[len(batch)-1]
	r.ids[last.w.Cmd] = cmdSeqs{first: uint64(batch[0].ev.Seq), last: uint64(last.ev.Seq)}
	r.broadcast()
}

// HeadError is a head signature from the heads stream that this record
// does not take: its event is not the record's, or it is not the
// arbiter's signature by his key there. It is skipped; the record is
// unchanged. Why is the refusal as a phrase (CodeHeadNotTaken with the
// seq and the reason, itself a phrase); Error() is its English, Reason the
// reason's.
type HeadError struct {
	Seq    int64
	Reason string
	Why    *phrase.Error
}

func (h *HeadError) Error() string {
	return fmt.Sprintf("the head signature of event %d from the heads stream is not taken: %s", h.Seq, h.Reason)
}

// Unwrap is the refusal as a phrase, for a face to say it in its words.
func (h *HeadError) Unwrap() error {
	if h.Why == nil {
		return nil
	}
	return h.Why
}

// ApplyHead puts the arbiter's head signature h beside the record, which
// must hold its event (the caller waits for it): checked against the
// event's hash and the arbiter's key there (match.ArbiterKeyring). A head
// the record has signed already is skipped; one that does not hold is
// refused with *HeadError, the record unchanged.
func (r *Replica) ApplyHead(ctx context.Context, h HeadNote) error {
	if r.HeadSigned(h.Seq) {
		return nil
	}
	if problem := r.CheckHead(h); problem != nil {
		return &HeadError{Seq: h.Seq, Reason: problem.Error(), Why: why(CodeHeadNotTaken, h.Seq, problem)}
	}
	if _, err := r.db.Update(context.WithValue(ctx, keyReplica, true), func(tx *store.Tx) error {
		return tx.PutSignature(h.Signature())
	}); err != nil {
		return err
	}
	r.mu.Lock()
	r.heads[h.Seq] = true
	r.walk.NoteHead(h.Signature())
	r.broadcast()
	r.mu.Unlock()
	return nil
}

// CheckHead checks the head signature h against the record: its event
// must be in it with the hash h names, and h the arbiter's signature of
// that hash by his key there. It returns nil or what is wrong, as a phrase
// (CodeHeadBeyond, CodeHeadOtherHash, match's CodeHead*).
func (r *Replica) CheckHead(h HeadNote) *phrase.Error {
	r.mu.Lock()
	defer r.mu.Unlock()
	hash := ""
	if h.Seq >= 1 && h.Seq <= int64(len(r.hashes)) {
		hash = r.hashes[h.Seq-1]
	}
	switch {
	case hash == "":
		return why(CodeHeadBeyond, int64(len(r.hashes)), h.Seq)
	case h.Hash != hash:
		return why(CodeHeadOtherHash, h.Seq)
	}
	return r.keys.CheckHead(h.Signature(), hash)
}

// HeadSigned reports whether the record holds the arbiter's signature of
// the head at event seq.
func (r *Replica) HeadSigned(seq int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.heads[seq]
}
