package match

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"
	"unicode/utf8"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/store"
)

// Actor is who gives a command, and with what credentials (docs/store.md,
// "Credentials"): on a protected match every command needs its role's
// credential or the arbiter's.
type Actor struct {
	Role Role
	// PIN is the arbiter's passphrase (the global --pin). It authorises a
	// command of any role.
	PIN string
	// Secret is the passphrase of Role's own credential (--secret).
	Secret string
	// Key is Role's own credential given as a key file (--key-file).
	Key ed25519.PrivateKey
	// Signed is a command given at another station, signed there by the
	// role's credential (docs/stations.md): checked against the
	// credential's public key in the record instead of a passphrase.
	Signed *SignedRequest
	// Tried is a wrong credential given at another station (checked there
	// against the sealed key of its replica): recorded as auth.fail.
	Tried *AuthFailPayload
}

// Cmd is the context of one command: the instant it happens at and who gives it.
type Cmd struct {
	At time.Time
	// Now, when set, is read for the command's instant inside the write
	// transaction (At is then ignored), so that two writers at once never
	// record instants out of order.
	Now func() time.Time
	// Warn, when set, is told of warnings the command carries (an arbiter
	// action on an unprotected match).
	Warn func(error)
	// Stamp, when set, tells how a station timed the command (a press
	// stamped where it happened); a press records it (docs/stations.md).
	// Its Received is the command's receipt.
	Stamp *Stamp
	// Received is the instant the machine where the command is recorded
	// received it, on its own clock: each event records it beside the
	// instant it claims (At). Zero: received at the command's instant (a
	// command read "now", or given at the console).
	Received time.Time
	Actor
}

// The bounds on a command's instant (docs/store.md, "The instant an event
// claims and the instant it was received"): nobody records an instant
// later than its receipt — on one machine the receipt is this machine's
// clock and a later instant is refused; at a station's authority a stamp
// later than the first receipt by no more than the receiving clock's
// uncertainty (StampTolerance) is lowered to the receipt (Stamp.Lowered),
// and one later still is refused — nor one before 1900 or before the
// match began; on a protected match a party's instant may lie at most
// LateAfter before its receipt (the arbiter's credential records earlier
// ones: such events are recorded late), and never before a flag that had
// fallen by its receipt when it would stop that clock (flagDueBy).
const (
	// UncertaintyCap is the most of a stated clock uncertainty (a
	// sender's, a receipt's) a station's stamp is allowed.
	UncertaintyCap = time.Second
	LateAfter      = 5 * time.Second
)

// Earliest is the earliest instant a command may claim.
var Earliest = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)

// CheckInstant refuses an instant before 1900 (Earliest), as such: every
// face checks a given instant with it (the core checks it again).
func CheckInstant(at time.Time) error {
	if at.Before(Earliest) {
		return refuseAs(CodeBefore1900, at.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// StampTolerance is how much later than its receipt a station's stamp may
// be: the round trip the receiving holder measured to the sender, or the
// sender's own stated uncertainty (at most UncertaintyCap) when that is
// larger or none was measured, and never less than a millisecond (two
// processes' clocks on one machine, and a timeline carried forward on the
// wall clock, differ by microseconds); plus the receipt's own uncertainty
// (at most UncertaintyCap): the receipt is an instant on the receiving
// holder's estimate of the match timeline, which is only as exact as that
// holder states, and the authority continues its predecessor's timeline
// only within the bound of its estimate when it took over. Such a stamp
// is lowered to its receipt (Cmd.lowered).
func StampTolerance(rtt, uncertainty, receipt time.Duration) time.Duration {
	return max(rtt, min(uncertainty, UncertaintyCap), time.Millisecond) + min(max(receipt, 0), UncertaintyCap)
}

// receipt is the instant the command was received and how far its
// instant may lie from it by the receiving clock's uncertainty. A command
// forwarded by a station was received at its first receipt by a record
// holder, with the round trip that holder measured to the sender (or, when
// none was measured, the sender's own stated uncertainty, at most
// UncertaintyCap): StampTolerance. A command given on this machine was
// received on this machine's clock, the one its instant was read on (the
// console's key, "now", the command line's --at read against it): none.
func (c Cmd) receipt(at time.Time) (time.Time, time.Duration) {
	switch {
	case c.Stamp != nil && !c.Stamp.Received.IsZero():
		return c.Stamp.Received, StampTolerance(c.Stamp.RTT, c.Stamp.Uncertainty, c.Stamp.ReceiptUncertainty)
	case !c.Received.IsZero():
		return c.Received, 0
	}
	return at, 0
}

// lowered is the command with an instant later than its receipt (a
// station's stamp, within the receiving clock's uncertainty: checkWhen
// refused one later still) lowered to the receipt, and its stamp marked
// Lowered (the instant stamped stays in Stamp.Pressed, as signed): no
// event's instant lies after its receipt.
func (c Cmd) lowered(received time.Time) Cmd {
	if !c.At.After(received) {
		return c
	}
	c.At = received
	if c.Stamp != nil {
		st := *c.Stamp
		st.Lowered = true
		c.Stamp = &st
	}
	return c
}

// claimsArbiter reports whether the command is given with the arbiter's
// credential (right or wrong): only it records instants more than
// LateAfter before their receipt.
func (c Cmd) claimsArbiter() bool {
	switch {
	case c.Signed != nil:
		return c.Signed.Signer == "arbiter"
	case c.Tried != nil:
		return c.Tried.Credential == "arbiter"
	case c.Role == RoleSystem:
		return true // the system's own events (a recovery note) are the arbiter's program's
	}
	return c.PIN != "" || (c.Role == RoleArbiter && (c.Secret != "" || c.Key != nil))
}

// CheckGiven checks an instant given with a command (--at) where the
// command is given, as the authority will (checkWhen): received is when
// this station received it, on the match timeline, and tol how far that
// estimate may lie from the authority's (StampTolerance of the round trip
// to it); byArbiter whether it is given with the arbiter's credential. A
// station refuses here what the authority would refuse, in the same
// words.
func CheckGiven(st *State, at, received time.Time, tol time.Duration, byArbiter bool) error {
	c := Cmd{Actor: Actor{Role: RoleOperator}}
	if byArbiter {
		c.Role = RoleSystem
	}
	return checkWhen(st, c, at, received, tol)
}

// checkWhen refuses an instant the record may not take: before 1900,
// before the match began, later than its receipt by more than the
// receiving clock's uncertainty tol (none on one machine), or — on a
// protected match, for a party — more than LateAfter before it.
func checkWhen(st *State, c Cmd, at, received time.Time, tol time.Duration) error {
	if err := CheckInstant(at); err != nil {
		return err
	}
	if st.Match != nil && at.Before(st.Match.Created) {
		return refuseAs(CodeBeforeMatch, instantText(at, false), instantText(st.Match.Created, true))
	}
	if at.After(received.Add(tol)) {
		return refuseWithin(CodeFuture, CodeFutureHere, tol, instantText(at, false), instantText(received, false))
	}
	if st.Protected() && received.Sub(at) > LateAfter && !c.claimsArbiter() {
		return refuseAs(CodeTooLate, instantText(at, false), instantText(received, false))
	}
	return nil
}

// Stamp is how a station timed a command: the instant the sender stamped
// (the press instant), the request's first receipt by any record holder
// (ReceivedBy) and the round trip that holder measured to the sender (RTT),
// the sender's clock uncertainty, the receipt's (ReceiptUncertainty: the
// receiving holder's estimate of the timeline and the authority's
// continuation of it, StampTolerance); Raised when the stamp was earlier
// than the receipt minus that round trip and so raised to that bound;
// Lowered when it was later than the receipt (within StampTolerance) and
// so lowered to the receipt (Cmd.lowered); Clamped when that receipt lay
// before the clock's previous press, which the stamp did not, and the
// press was recorded at the previous press instead (tx.clockBound);
// Correction when it arrived late (more than a second after the press, as
// after a failover), so that its press corrects the clocks shown meanwhile.
type Stamp struct {
	Pressed, Received                    time.Time
	ReceivedBy                           string
	RTT, Uncertainty, ReceiptUncertainty time.Duration
	Raised, Lowered, Clamped, Correction bool
}

// App is the application core over one database: it holds the state rebuilt
// from the log and runs every command. It is safe for concurrent use.
type App struct {
	db      *store.DB
	station ed25519.PrivateKey // signs the hash of every event this process appends

	mu      sync.Mutex
	state   *State
	changed func()           // told after the state changed (SetChanged)
	pending *pendingRecovery // armed by ArmRecovery, written by the next command
	problem *phrase.Error    // why the record does not verify; nil if it does
	seal    Seal             // the last head the arbiter signed, as read or written
	watch   watch            // what Watch last saw of the record (watch.go)
	watchMu sync.Mutex       // one Watch at a time (its walk is not shared)
}

// New builds the core over an open record: it rebuilds the state of the match in db. It first checks the record —
// the whole hash chain, the last head the arbiter signed and every
// signature after it — and replays only the events before the first that
// fails; such a record is opened (to be looked at) but never appended to.
func New(ctx context.Context, db *store.DB) (*App, error) {
	a := &App{db: db, state: NewState(), station: newStationKey()}
	evs, sigs, err := db.Record(ctx)
	if err != nil {
		return nil, err
	}
	rep := checkOpened(evs, sigs)
	if err := checkSchema(ctx, db, &rep, len(evs)); err != nil {
		return nil, err
	}
	upto := len(evs)
	if !rep.OK {
		a.problem = rep.Why
		upto = max(0, min(len(evs), int(rep.BadSeq)-1))
	}
	a.seal = rep.Seal
	st := NewState()
	for _, e := range evs[:upto] {
		if err := st.Apply(e); err != nil {
			return nil, err
		}
	}
	a.state = st
	return a, nil
}

// Problem is why the record does not verify (one sentence naming the first
// event that fails), in English, or "" when it does. Nothing is appended
// to a record with a problem.
func (a *App) Problem() string {
	if p := a.Why(); p != nil {
		return p.Error()
	}
	return ""
}

// Why is the record's problem as a phrase (RecordReport.Why), which each
// face says in its words, or nil when the record verifies.
func (a *App) Why() *phrase.Error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.problem
}

// Seal is the arbiter's key fingerprint and the last head he signed, for
// reports (docs/store.md, "Signatures").
func (a *App) Seal() Seal {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.seal
	s.Protected = a.state.Protected()
	s.Signed = a.state.ArbiterCredential() != nil
	s.ArbiterKey = ""
	if c := a.state.ArbiterCredential(); c != nil {
		s.ArbiterKey = c.Fingerprint()
	}
	s.ArbiterKeys = a.state.ArbiterKeys()
	s.MatchID = ""
	if m := a.state.Match; m != nil {
		s.MatchID = m.ID
	}
	return s
}

// checkTail checks that evs continue the chain after the event (seq, head):
// consecutive, linked and each hash right. It returns "" or the problem.
func checkTail(seq int64, head string, evs []store.Event) *phrase.Error {
	prev := head
	if prev == "" {
		prev = store.GenesisPrev
	}
	for _, e := range evs {
		seq++
		switch {
		case e.Seq != seq:
			return store.Problem(store.CodeMissingGoesOn, seq, store.EventName(e.Seq, e.Kind))
		case store.EventHash(e) != e.Hash:
			return store.Problem(store.CodeEdited, store.EventName(e.Seq, e.Kind))
		case e.Prev != prev:
			return problem(CodeNotFollowing, e.Seq, e.Kind, e.Seq-1)
		}
		prev = e.Hash
	}
	return nil
}

// DB is the underlying store.
func (a *App) DB() *store.DB { return a.db }

// SetChanged sets the one function told that the state changed (nil: no
// one): after a command's transaction committed, or after Refresh caught up
// with events another process committed. It runs outside the App's lock and
// never before the commit, so nothing sees an event's effect before the
// event is in the record. Who hears it is the service's business
// (service.Live fans it out to the faces and stops telling when the match
// moved to another file), as the store's is who else reads the file.
func (a *App) SetChanged(f func()) {
	a.mu.Lock()
	a.changed = f
	a.mu.Unlock()
}

func (a *App) notify() {
	a.mu.Lock()
	f := a.changed
	a.mu.Unlock()
	if f != nil {
		f()
	}
}

// State returns a snapshot of the current state. Callers must not modify it.
func (a *App) State() *State {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.state
}

// Refresh catches up with events appended by other processes.
func (a *App) Refresh(ctx context.Context) error {
	a.mu.Lock()
	seq, head, broken := a.state.Seq, a.state.Head, a.problem != nil
	a.mu.Unlock()
	if broken {
		return nil
	}
	evs, err := a.db.EventsAfter(ctx, seq)
	if err != nil {
		return err
	}
	if len(evs) == 0 {
		return nil
	}
	a.mu.Lock()
	if p := checkTail(seq, head, evs); p != nil {
		a.problem = p
		a.mu.Unlock()
		a.notify()
		return nil
	}
	return a.keepLocked(evs)
}

// keepLocked applies the events of evs after the state's head to a copy of
// the state and keeps it; a.mu is held, and released.
func (a *App) keepLocked(evs []store.Event) error {
	st := a.state.clone()
	for _, e := range evs {
		if e.Seq <= st.Seq {
			continue
		}
		if err := st.Apply(e); err != nil {
			a.mu.Unlock()
			return err
		}
	}
	a.state = st
	a.mu.Unlock()
	a.notify()
	return nil
}

// Take catches up with events this process has just committed to the
// record, as committed (a station's replica gives the record's events as
// it applied them: evs[i] is event i+1, the slice not changed afterwards),
// instead of reading them back from the file: the state takes those after
// its own head, checked as Refresh checks what it reads (each its own hash,
// each following the one before, the first the state's head). When they do
// not continue the state (events the record holds that evs does not), the
// state reads the record (Refresh).
func (a *App) Take(ctx context.Context, evs []store.Event) error {
	return a.TakeReplayed(ctx, evs, nil)
}

// TakeReplayed is Take given, as well, the match after evs as a station's
// replica replayed it when it checked them (ReplayGuard.State; nil: none):
// taken as it is, instead of applying the events again, when it is the
// match after exactly evs (its seq and head), checked as Take checks them.
func (a *App) TakeReplayed(ctx context.Context, evs []store.Event, after *State) error {
	a.mu.Lock()
	seq, broken := a.state.Seq, a.problem != nil
	if broken || int64(len(evs)) <= seq {
		a.mu.Unlock()
		return nil // nothing after the state's head
	}
	tail := evs[seq:]
	if checkTail(seq, a.state.Head, tail) != nil {
		a.mu.Unlock()
		return a.Refresh(ctx) // the record says what is wrong, if anything is
	}
	if after.after(evs) {
		a.state = after // states are never changed once shared (clone)
		a.mu.Unlock()
		a.notify()
		return nil
	}
	return a.keepLocked(tail)
}

// StateAt rebuilds the match as it stood at instant at (for appeals): every
// event that happened at or before at, in the record's order, stopping
// before the first event at which the record does not verify. (A press
// recorded late follows events with later instants: it is taken, they are
// not.)
func StateAt(ctx context.Context, db *store.DB, at time.Time) (*State, error) {
	evs, sigs, err := db.Record(ctx)
	if err != nil {
		return nil, err
	}
	if r := checkOpened(evs, sigs); !r.OK {
		evs = evs[:max(0, min(len(evs), int(r.BadSeq)-1))]
	}
	st := NewState()
	for _, e := range evs {
		if e.At.After(at) {
			continue
		}
		if err := st.Apply(e); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// tx is a command being built: a private copy of the state to which each
// emitted event is applied at once, so a command of several events validates
// every step.
type tx struct {
	cmd    Cmd
	st     *State
	events []store.Event
	// received is the instant the command was received: each event
	// records it (store.Event.Received).
	received time.Time
	// signer and signKey, when set, sign the command instead of the
	// credential given (a new arbiter credential signs its registration);
	// signReq likewise for a registration signed at another station.
	signer  string
	signKey ed25519.PrivateKey
	signReq *SignedRequest
}

func (t *tx) signWith(signer string, key ed25519.PrivateKey, _ bool) {
	t.signer, t.signKey = signer, key
}

// emit adds an event of the current command and applies it to the working state.
func (t *tx) emit(game int, kind string, payload any) error {
	return t.emitAs(game, t.cmd.Role, kind, payload)
}

func (t *tx) emitAs(game int, role Role, kind string, payload any) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("match: encode %s: %w", kind, err)
	}
	if !utf8.Valid(b) {
		return refuseAs(CodeTextNotUTF8)
	}
	e := store.Event{Match: 1, Game: game, At: t.cmd.At.UTC(), Received: t.received, Role: string(role), Actor: t.st.actorName(role, game), Kind: kind, Payload: b}
	e.Seq = t.st.Seq + 1
	if err := t.st.Apply(e); err != nil {
		return err
	}
	t.events = append(t.events, e)
	return nil
}

// actorName is the person holding a role at this moment.
func (s *State) actorName(r Role, game int) string {
	if s.Match == nil {
		return ""
	}
	switch r {
	case RoleArbiter:
		return s.Match.Arbiter
	case RoleOperator:
		return s.Match.Operator
	case RoleWhite, RoleBlack:
		g := s.Game(game)
		if g == nil {
			return ""
		}
		if r == RoleWhite {
			return g.White
		}
		return g.Black
	case RoleSystem:
		return "Arbiter"
	}
	return ""
}

// do runs a command in one transaction: check the credentials (before
// the transaction: argon2id is slow on purpose), catch up with the log,
// validate and build the events on a copy of the state, append and sign
// them, commit, and only then publish the new state. A wrong credential
// appends an auth.fail event instead, and the command is refused. Its
// instant may not be earlier than the record's time (State.LastAt).
func (a *App) do(ctx context.Context, c Cmd, run func(t *tx) error) error {
	return a.doBounded(ctx, c, false, run)
}

// doBounded is do; clockBound: the command is a press or a move, bounded
// by its game's clock events only (its run checks tx.clockBound), never
// by the record's time — a system event (a station's, a wrong credential,
// a recovery note) recorded meanwhile neither refuses nor moves it
// (docs/stations.md; Do passes it for the commands that are clockBounded).
func (a *App) doBounded(ctx context.Context, c Cmd, clockBound bool, run func(t *tx) error) error {
	if c.At.IsZero() && c.Now == nil {
		return refuse("no instant given for the command")
	}
	out, err := a.attempt(ctx, c, clockBound, run, false)
	if errors.Is(err, errCaughtUp) {
		// the credentials the command was checked against changed in
		// events another process committed (now the App's state): check
		// it again on the state that holds them
		out, err = a.attempt(ctx, c, clockBound, run, true)
	}
	var early *refusedBefore
	if errors.As(err, &early) {
		// refused on the App's state before any transaction: judged again
		// if that state was behind the record
		seq := a.State().Seq
		if rerr := a.Refresh(ctx); rerr != nil {
			return rerr
		}
		if a.State().Seq == seq {
			return early.err
		}
		if out, err = a.attempt(ctx, c, clockBound, run, true); errors.As(err, &early) {
			err = early.err
		}
	}
	if err != nil {
		return err
	}
	pending := out.pending
	a.mu.Lock()
	a.state = out.next
	written := pending != nil && out.refusal == nil // an auth.fail writes no recovery note
	if written && a.pending == pending {
		a.pending = nil
	}
	if out.head != nil {
		a.seal.HeadSeq, a.seal.Head, a.seal.Signature = out.head.Seq, out.next.Head, out.head.Sig
	}
	a.mu.Unlock()
	if written {
		// the command is committed: a heartbeat that cannot be marked only
		// means the next command notes the absence again
		_ = a.handled(ctx, pending.now)
	}
	a.notify()
	if out.refusal == nil && c.Warn != nil && c.Role == RoleArbiter && !out.next.Protected() {
		c.Warn(UnprotectedWarning())
	}
	return out.refusal
}

// attempt is one try of a command (doBounded). The record is not read
// before the transaction: the transaction reads what other processes
// appended since the App's state (usually nothing, which costs one row's
// read), catches up with it and judges the command on the state that holds
// it; a refused command still publishes the state caught up with
// (caughtUp). What is judged before the transaction, on the App's state
// (the instant given; the credential, argon2id being slow on purpose), is
// judged again by doBounded when that state was behind the record: a
// refusal there is a *refusedBefore, and events read in the transaction
// that change the credentials are errCaughtUp (unless retried).
func (a *App) attempt(ctx context.Context, c Cmd, clockBound bool, run func(t *tx) error, retried bool) (committed, error) {
	base, an, err := a.before(c)
	if err != nil {
		return committed{}, err
	}
	a.mu.Lock()
	pending := a.pending
	a.mu.Unlock()
	var out committed
	var caught *caughtState
	_, err = a.db.Update(ctx, func(stx *store.Tx) error {
		var err error
		caught = &caughtState{}
		out, err = a.inTransaction(stx, c, clockBound, base, an, pending, run, caught, retried)
		return err
	})
	out.pending = pending
	if err != nil {
		a.caughtUp(base, caught)
	}
	return out, err
}

// refusedBefore is a refusal given before the transaction, on the App's
// state.
type refusedBefore struct{ err error }

func (r *refusedBefore) Error() string { return r.err.Error() }
func (r *refusedBefore) Unwrap() error { return r.err }

// errCaughtUp: the transaction read events another process committed that
// change the credentials the command was judged on before it.
var errCaughtUp = errors.New("match: the record's credentials moved on")

// caughtState is what a transaction read of other processes' events: the
// state caught up with them, or why they do not continue the App's state.
type caughtState struct {
	st     *State
	broken *phrase.Error
}

// caughtUp publishes what a refused command's transaction read, as Refresh
// would have: the state base caught up with the events other processes
// appended, or the problem with those events. Nothing changes when the
// App's state moved on from base meanwhile.
func (a *App) caughtUp(base *State, caught *caughtState) {
	if caught == nil || (caught.st == nil && caught.broken == nil) {
		return
	}
	a.mu.Lock()
	if a.state != base || a.problem != nil {
		a.mu.Unlock()
		return
	}
	if caught.broken != nil {
		a.problem = caught.broken
	} else {
		a.state = caught.st
	}
	a.mu.Unlock()
	a.notify()
}

// sameCredentials: a and b are the same map (credentials are never changed
// in place: a change makes a new map).
func sameCredentials(a, b map[string]*Credential) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// before is what a command checks before its transaction, on the App's
// state: the record is not broken, a given instant is one the record may
// take, and the credentials (argon2id is slow on purpose: the lock is not
// held meanwhile). A refusal is a *refusedBefore.
func (a *App) before(c Cmd) (*State, authn, error) {
	a.mu.Lock()
	base, problem := a.state, a.problem
	a.mu.Unlock()
	if problem != nil {
		return nil, authn{}, refuseAs(CodeRecordBroken, problem)
	}
	provisional := c.At
	if c.Now != nil {
		provisional = c.Now().UTC()
	} else {
		// a given instant is judged before any credential is tried
		received, tol := c.receipt(c.At)
		if err := checkWhen(base, c, c.At, received, tol); err != nil {
			return nil, authn{}, &refusedBefore{err}
		}
		provisional = c.lowered(received).At
	}
	an, err := authenticate(base, c, provisional)
	if err != nil {
		return nil, authn{}, &refusedBefore{err}
	}
	return base, an, nil
}

// committed is what a command's transaction did: the state after it, the
// refusal of a wrong credential it recorded, the arbiter's head signature.
type committed struct {
	next    *State
	refusal error
	head    *store.Signature
	pending *pendingRecovery // the recovery note armed when it ran
}

// inTransaction is the command's transaction: catch up with the log,
// check the instant and the credentials again, build the events on a copy
// of the state, append and sign them.
func (a *App) inTransaction(stx *store.Tx, c Cmd, clockBound bool, base *State, an authn, pending *pendingRecovery, run func(t *tx) error, caught *caughtState, retried bool) (committed, error) {
	st, err := catchUp(stx, base, caught)
	if err != nil {
		return committed{}, err
	}
	if caught.st != nil && !retried && (st.Protected() != base.Protected() || !sameCredentials(st.Auth.Creds, base.Auth.Creds)) {
		return committed{}, errCaughtUp
	}
	if c.Now != nil {
		c.At = c.Now().UTC() // inside the write lock: no other writer can come between
	}
	received, tol := c.receipt(c.At)
	if err := checkWhen(st, c, c.At, received, tol); err != nil {
		return committed{}, err
	}
	c = c.lowered(received)
	due := flagDueBy(st, c, received, tol)
	if !clockBound && !st.LastAt.IsZero() && c.At.Before(st.LastAt) {
		return committed{}, refuseAs(CodeBeforeRecord, instantText(c.At, false), instantText(st.LastAt, true))
	}
	if err := checkCredentialsAgain(st, c, an); err != nil {
		return committed{}, err
	}
	if an.fail == nil {
		if err := checkSignedOn(stx, st, c.Signed); err != nil {
			return committed{}, err
		}
	}
	signed := st.ArbiterCredential() != nil
	t := &tx{cmd: c, st: st, received: received}
	var out committed
	if an.fail != nil {
		if err := t.emit(0, KindAuthFail, an.fail); err != nil {
			return committed{}, err
		}
		until := t.st.backoffUntil(an.fail.Credential)
		out.refusal = t.st.WrongCredential(an.fail.Credential, until)
	} else if err := emitCommand(t, an, pending, run); err != nil {
		return committed{}, err
	} else if err := due.check(t); err != nil {
		return committed{}, err
	}
	if out.head, err = a.appendAndSign(stx, t, an, signed); err != nil {
		return committed{}, err
	}
	if n := len(t.events); n > 0 {
		st.Head = t.events[n-1].Hash
		st.Seq = t.events[n-1].Seq
	}
	out.next = st
	return out, nil
}

// flagDue is a flag that had fallen by a command's receipt, on the clock
// that runs, when the command claims an instant before it by more than
// the receiving clock's uncertainty tol (none on one machine).
type flagDue struct {
	game      int
	side      clock.Side
	fell      time.Time
	received  time.Time
	tol       time.Duration
	atClaimed time.Time
}

// flagDueBy is the flag a party's command on a protected match must leave
// fallen (nil: none): a command stamped back (a party's instant may lie
// up to LateAfter before its receipt) never stops a clock before a flag
// that had fallen by the time the command came in — before, White moved
// 3.4 s after his flag fell, stamped 4 s back, and escaped it, his clock
// never shown fallen. Only the arbiter's credential records such an
// instant (recorded late); a press genuinely made in time at another
// station lies within the round trip of its receipt and is taken.
func flagDueBy(st *State, c Cmd, received time.Time, tol time.Duration) *flagDue {
	if !st.Protected() || c.claimsArbiter() {
		return nil
	}
	g := st.CurrentGame()
	if g == nil {
		return nil
	}
	side, running := g.Clock.Running()
	if !running {
		return nil
	}
	fell, ok := g.Clock.FlagAt(side)
	if !ok || fell.After(received) || !c.At.Before(fell.Add(-tol)) {
		return nil
	}
	return &flagDue{game: g.Number, side: side, fell: fell, received: received, tol: tol, atClaimed: c.At}
}

// check refuses the command when the events it built stop the clock
// before the flag fell (a move's press, a pause, a game's end): the flag
// no longer shows fallen. A command that leaves that clock running (a
// note, an offer) is taken.
func (d *flagDue) check(t *tx) error {
	if d == nil {
		return nil
	}
	if g := t.st.Game(d.game); g == nil || g.Clock.Flag(d.side, d.fell).Fallen {
		return nil
	}
	return refuseWithin(CodeBeforeFallenFlag, CodeBeforeFallenFlagHere, d.tol, colour(d.side), t.st.Match.Instant(d.fell), instantText(d.received, false), instantText(d.atClaimed, false))
}

// catchUp is the state after the events another process appended since
// base, which must continue its chain; caught keeps what was read (the
// state caught up with them, or why they do not continue base).
func catchUp(stx *store.Tx, base *State, caught *caughtState) (*State, error) {
	evs, err := stx.EventsAfter(base.Seq)
	if err != nil {
		return nil, err
	}
	if p := checkTail(base.Seq, base.Head, evs); p != nil {
		caught.broken = p
		return nil, refuseAs(CodeRecordBroken, p)
	}
	st := base.clone()
	for _, e := range evs {
		if err := st.Apply(e); err != nil {
			return nil, err
		}
	}
	if len(evs) > 0 {
		caught.st = st
		st = st.clone()
	}
	return st, nil
}

// checkCredentialsAgain checks inside the transaction that the match's
// credentials did not change since they were checked, and that another
// process did not record a failure meanwhile whose back-off holds now.
func checkCredentialsAgain(st *State, c Cmd, an authn) error {
	if st.Protected() != an.protected || (an.signer != "" && (st.Credential(an.signer) == nil || st.Credential(an.signer).PublicKey != an.signerPub)) {
		return refuse("the match's credentials changed while the command was given: give it again")
	}
	for _, id := range an.tried {
		if until := st.backoffAt(id, c.At); c.At.Before(until) {
			return st.TooManyWrong(id, until)
		}
	}
	return nil
}

// emitCommand builds the command's events: an armed recovery note first,
// then the command's own.
func emitCommand(t *tx, an authn, pending *pendingRecovery, run func(t *tx) error) error {
	if an.err != nil {
		return an.err
	}
	if pending != nil {
		if err := pending.emit(t); err != nil {
			return err
		}
	}
	return run(t)
}

// appendAndSign appends the transaction's events and stores their
// signatures; it returns the arbiter's head signature among them.
func (a *App) appendAndSign(stx *store.Tx, t *tx, an authn, signed bool) (*store.Signature, error) {
	for i, e := range t.events {
		stored, err := stx.Append(e)
		if err != nil {
			return nil, err
		}
		t.events[i] = stored
	}
	signer, key, req := an.signer, an.key, an.req
	if t.signReq != nil {
		signer, req, signed = t.signer, t.signReq, true
	}
	if t.signKey != nil {
		signer, key, signed = t.signer, t.signKey, true
		if t.signer == "arbiter" {
			an.arbiter = t.signKey
		}
	}
	if an.fail != nil {
		key, req = nil, nil
	}
	if !signed || an.legacy {
		return nil, nil
	}
	// The arbiter signs the new head whenever his key is unlocked: at each
	// game end given with his credential, and at every other command given
	// with it, so that opening the record checks only the few signatures
	// after his last one.
	var head *store.Signature
	for _, s := range signatures(t.events, signer, key, req, a.station, an.arbiter, true) {
		if err := stx.PutSignature(s); err != nil {
			return nil, err
		}
		if s.Kind == store.SigHead {
			h := s
			head = &h
		}
	}
	return head, nil
}

// SignHead has the arbiter sign the chain's current head (as at an export
// given with his credential). It writes only the signature, no event. It
// returns the seal with the signed head.
func (a *App) SignHead(ctx context.Context, c Cmd) (Seal, error) {
	if err := a.Refresh(ctx); err != nil {
		return Seal{}, err
	}
	if p := a.Why(); p != nil {
		return Seal{}, refuseAs(CodeRecordBroken, p)
	}
	st := a.State()
	if st.ArbiterCredential() == nil {
		return a.Seal(), refuseAs(CodeNoKeyToSignHead)
	}
	c.Role = RoleArbiter
	at := c.At
	if c.Now != nil {
		at = c.Now().UTC()
	}
	an, err := authenticate(st, c, at)
	if err != nil {
		return Seal{}, err
	}
	if an.fail != nil || an.arbiter == nil {
		// a wrong credential is recorded like any other
		err := a.do(ctx, c, func(t *tx) error { return refuseAs(CodeSignNeedsPIN) })
		return Seal{}, err
	}
	var sig store.Signature
	_, err = a.db.Update(ctx, func(stx *store.Tx) error {
		evs, err := stx.EventsAfter(st.Seq)
		if err != nil {
			return err
		}
		if len(evs) > 0 {
			return refuseAs(CodeRecordGrew)
		}
		sig = headSignature(an.arbiter, st.Seq, st.Head)
		return stx.PutSignature(sig)
	})
	if err != nil {
		return Seal{}, err
	}
	a.mu.Lock()
	a.seal.HeadSeq, a.seal.Head, a.seal.Signature = st.Seq, st.Head, sig.Sig
	a.mu.Unlock()
	return a.Seal(), nil
}

// hashPIN is the salted hash stored for an arbiter PIN.
func hashPIN(salt, pin string) string {
	h := sha256.Sum256([]byte(salt + "\x00" + pin))
	return hex.EncodeToString(h[:])
}

// CheckPIN reports whether pin is the match's arbiter credential's
// passphrase (true when the match is unprotected). A passphrase once found
// right is remembered by the process, so checking it again is fast.
func (m *Match) CheckPIN(pin string) bool {
	if c := m.Credential; c != nil {
		_, ok := c.unlock(pin, nil)
		return ok
	}
	if m.PINHash == "" {
		return true
	}
	got := hashPIN(m.PINSalt, pin)
	return subtle.ConstantTimeCompare([]byte(got), []byte(m.PINHash)) == 1
}

// require checks that the actor holds one of the roles. (Credentials were
// checked by do, for every command.)
func (t *tx) require(command string, roles ...Role) error {
	for _, r := range roles {
		if r == t.cmd.Role {
			return nil
		}
	}
	var names any = roles[0]
	for _, r := range roles[1:] {
		names = phrase.Errorf("%s or %s", names, r)
	}
	return forbidAs(CodeWrongRole, command, names, t.who())
}

func (t *tx) match() (*Match, error) {
	if t.st.Match == nil {
		return nil, refuseAs(CodeNoMatch)
	}
	return t.st.Match, nil
}

// clockBound refuses a press or a move at an instant before the last
// operation of its game's clock: the only bound on it (doBounded). A
// station's press lowered to its receipt (Cmd.lowered) that the lowering
// alone put before the clock's previous press — its stamp is not before
// it; the receipt, another holder's estimate of the timeline, is — is
// recorded at that previous press and marked Clamped: no press lies
// before the previous one (no negative time on the scoresheet), and the
// instant is one the record already holds, so not one yet to come.
func (t *tx) clockBound(g *Game) error {
	last := g.Clock.Last()
	if !t.cmd.At.Before(last) {
		return nil
	}
	if st := t.cmd.Stamp; st != nil && st.Lowered && !st.Pressed.Before(last) {
		c := *st
		c.Clamped = true
		t.cmd.Stamp, t.cmd.At = &c, last
		return nil
	}
	return refuseAs(CodeBeforeClock, instantText(t.cmd.At, false), instantText(last, true))
}

// liveFor is the game in progress for a command the roles may give, or a
// refusal.
func (t *tx) liveFor(command string, roles ...Role) (*Game, error) {
	if err := t.require(command, roles...); err != nil {
		return nil, err
	}
	return t.live()
}

// live returns the game in progress or a refusal.
func (t *tx) live() (*Game, error) {
	if _, err := t.match(); err != nil {
		return nil, err
	}
	g := t.st.CurrentGame()
	if g == nil || !g.Live() {
		if g != nil && g.Over() {
			return nil, refuseAs(CodeGameOver, g.Number, g.Result)
		}
		return nil, refuseAs(CodeNoGame)
	}
	return g, nil
}
