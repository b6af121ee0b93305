package match

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"arbiter/internal/phrase"
	"arbiter/store"
)

// Actor is who gives a command, and with what credentials.
type Actor struct {
	Role Role
	PIN  string
}

// Cmd is the context of one command: the instant it happens at and who gives it.
type Cmd struct {
	At time.Time
	Actor
}

// Error is a refusal a user can act on: one sentence saying what was wrong
// and what to do instead. Nothing was written when a command returns it.
// Msg is the sentence in English; the phrase it unwraps to lets a console
// say it in another language (phrase.Translate).
type Error struct {
	Msg    string
	phrase *phrase.Error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.phrase }

// refuse makes a refusal from an English format; arguments that are
// phrase.Words (colours, states) or phrase errors are translated with it.
func refuse(format string, args ...any) error {
	p := phrase.Errorf(format, args...)
	return &Error{Msg: p.Error(), phrase: p}
}

// ErrPermission is wrapped by refusals for a missing role or PIN.
var ErrPermission = errors.New("not permitted")

type permissionError struct{ phrase *phrase.Error }

func (e *permissionError) Error() string   { return e.phrase.Error() }
func (e *permissionError) Unwrap() []error { return []error{ErrPermission, e.phrase} }

// forbid refuses a command for a missing role or PIN (it wraps ErrPermission).
func forbid(format string, args ...any) error {
	return &permissionError{phrase.Errorf(format, args...)}
}

// App is the application core over one database: it holds the state rebuilt
// from the log and runs every command. It is safe for concurrent use.
type App struct {
	db *store.DB

	mu       sync.Mutex
	state    *State
	onChange []func()
	pending  *pendingRecovery // armed by ArmRecovery, written by the next command
}

// Open rebuilds the state of the match in db.
func Open(ctx context.Context, db *store.DB) (*App, error) {
	a := &App{db: db, state: NewState()}
	if err := a.Refresh(ctx); err != nil {
		return nil, err
	}
	return a, nil
}

// DB is the underlying store.
func (a *App) DB() *store.DB { return a.db }

// OnChange registers a callback run (outside the lock) after the state changed.
func (a *App) OnChange(f func()) {
	a.mu.Lock()
	a.onChange = append(a.onChange, f)
	a.mu.Unlock()
}

func (a *App) notify() {
	a.mu.Lock()
	fs := append([]func(){}, a.onChange...)
	a.mu.Unlock()
	for _, f := range fs {
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
	seq := a.state.Seq
	a.mu.Unlock()
	evs, err := a.db.EventsAfter(ctx, seq)
	if err != nil {
		return err
	}
	if len(evs) == 0 {
		return nil
	}
	a.mu.Lock()
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

// StateAt rebuilds the match as it stood at instant at (for appeals): every
// event that happened at or before at.
func StateAt(ctx context.Context, db *store.DB, at time.Time) (*State, error) {
	evs, err := db.EventsAfter(ctx, 0)
	if err != nil {
		return nil, err
	}
	st := NewState()
	for _, e := range evs {
		if e.At.After(at) {
			break
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
		return refuse("the text is not valid UTF-8: retype it")
	}
	e := store.Event{Match: 1, Game: game, At: t.cmd.At.UTC(), Role: string(role), Actor: t.st.actorName(role, game), Kind: kind, Payload: b}
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

// do runs a command in one transaction: catch up with the log, validate and
// build the events on a copy of the state, append them, commit, and only then
// publish the new state.
func (a *App) do(ctx context.Context, c Cmd, run func(t *tx) error) error {
	if c.At.IsZero() {
		return refuse("no instant given for the command")
	}
	var next *State
	a.mu.Lock()
	pending := a.pending
	a.mu.Unlock()
	_, err := a.db.Update(ctx, func(stx *store.Tx) error {
		a.mu.Lock()
		base := a.state
		a.mu.Unlock()
		evs, err := stx.EventsAfter(base.Seq)
		if err != nil {
			return err
		}
		st := base.clone()
		for _, e := range evs {
			if err := st.Apply(e); err != nil {
				return err
			}
		}
		if !st.LastAt.IsZero() && c.At.Before(st.LastAt) {
			return refuse("the command's time %s is earlier than the last event in the record (%s): time in the record never runs back",
				c.At.UTC().Format(time.RFC3339Nano), st.LastAt.UTC().Format(time.RFC3339Nano))
		}
		t := &tx{cmd: c, st: st}
		if pending != nil {
			if err := pending.emit(t); err != nil {
				return err
			}
		}
		if err := run(t); err != nil {
			return err
		}
		for i, e := range t.events {
			stored, err := stx.Append(e)
			if err != nil {
				return err
			}
			t.events[i] = stored
		}
		if n := len(t.events); n > 0 {
			st.Head = t.events[n-1].Hash
			st.Seq = t.events[n-1].Seq
		}
		next = st
		return nil
	})
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.state = next
	if pending != nil && a.pending == pending {
		a.pending = nil
	}
	a.mu.Unlock()
	if pending != nil {
		// the command is committed: a heartbeat that cannot be marked only
		// means the next command notes the absence again
		_ = a.handled(ctx, pending.now)
	}
	a.notify()
	return nil
}

// hashPIN is the salted hash stored for an arbiter PIN.
func hashPIN(salt, pin string) string {
	h := sha256.Sum256([]byte(salt + "\x00" + pin))
	return hex.EncodeToString(h[:])
}

// CheckPIN reports whether pin is the match's arbiter PIN (true when none is set).
func (m *Match) CheckPIN(pin string) bool {
	if m.PINHash == "" {
		return true
	}
	got := hashPIN(m.PINSalt, pin)
	return subtle.ConstantTimeCompare([]byte(got), []byte(m.PINHash)) == 1
}

// require checks that the actor holds one of the roles (and, for the arbiter,
// the PIN).
func (t *tx) require(command string, roles ...Role) error {
	for _, r := range roles {
		if r == t.cmd.Role {
			if r == RoleArbiter && t.st.Match != nil && !t.st.Match.CheckPIN(t.cmd.PIN) {
				if t.cmd.PIN == "" {
					return forbid("%s needs the arbiter's PIN: give --pin", command)
				}
				return forbid("wrong arbiter PIN for %s", command)
			}
			return nil
		}
	}
	var names any = roles[0]
	for _, r := range roles[1:] {
		names = phrase.Errorf("%s or %s", names, r)
	}
	return forbid("%s must be given by the %s, not the %s", command, names, t.cmd.Role)
}

func (t *tx) match() (*Match, error) {
	if t.st.Match == nil {
		return nil, refuse("this database holds no match yet: create one with 'arbiter match new'")
	}
	return t.st.Match, nil
}

// live returns the game in progress or a refusal.
func (t *tx) live() (*Game, error) {
	if _, err := t.match(); err != nil {
		return nil, err
	}
	g := t.st.CurrentGame()
	if g == nil || !g.Live() {
		if g != nil && g.Over() {
			return nil, refuse("game %d is over (%s): start the next game with 'game start'", g.Number, g.Result)
		}
		return nil, refuse("no game is in progress: start one with 'game start'")
	}
	return g, nil
}
