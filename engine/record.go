package engine

import (
	"context"
	"errors"
	"time"

	"arbiter/internal/phrase"
	"arbiter/internal/timesource"
	"arbiter/match"
	"arbiter/service"
)

// Record is the record the bridge follows and gives its commands to: on
// one machine the record itself, through the core (App.Do); on an
// operator's laptop the station's replica, followed as the station applies
// it, with the commands given to the authority as their values over the
// station's link (service.Link.Send) exactly as the console gives them.
type Record interface {
	// Follow catches up with what others committed; changed tells whether
	// the state moved on.
	Follow(ctx context.Context) (changed bool, err error)
	// State is the state as last followed (or as the bridge's own commands
	// left it).
	State() *match.State
	// Now is an instant on the match timeline, and how far from it the
	// station may be (0 on one machine).
	Now() (time.Time, time.Duration)
	// Give gives a command as the bridge's actor (the operator).
	Give(ctx context.Context, cmd match.Command) (match.Result, error)
	// Path is the record's file.
	Path() string
	// Station is the name of the station whose record it is ("": a
	// record without stations), where the bridge says it runs.
	Station() string
	Close()
}

// Open opens the record at path for a bridge acting as actor (the operator,
// with the operator's credential on a protected match — or on an
// operator's laptop none, the invitation's key), on the time source now:
// a station's record is followed as a replica and commanded through its
// station, any other is written here. The credential is checked once here
// (a wrong one is refused, and recorded as any wrong credential is), and
// a passphrase's key is kept unlocked for the bridge's life, so that no
// command of the bridge waits for argon2id.
func Open(ctx context.Context, path string, actor match.Actor, now func() time.Time) (Record, error) {
	if now == nil {
		now = timesource.New().Now
	}
	if service.IsStation(path) {
		return openStation(ctx, path, actor, now)
	}
	app, err := service.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	h := &here{app: app, now: now, actor: actor}
	if err := h.unlock(ctx); err != nil {
		app.DB().Close()
		return nil, err
	}
	h.version, _ = app.DB().DataVersion(ctx)
	return h, nil
}

// here is a record on this machine.
type here struct {
	app     *match.App
	now     func() time.Time
	actor   match.Actor
	version int64
}

func (h *here) unlock(ctx context.Context) error {
	st := h.app.State()
	if st.Match == nil {
		return phrase.Coded(string(match.CodeNoMatch))
	}
	if !st.Protected() || st.ArbiterCredential() == nil {
		return nil
	}
	if _, err := h.app.Do(ctx, match.Cmd{Now: h.utc, Actor: h.actor}, match.CredentialCheck{}); err != nil {
		return err
	}
	if h.actor.Secret != "" && h.actor.Key == nil && h.actor.PIN == "" {
		if cred := st.Credential(st.CredentialFor(h.actor.Role)); cred != nil {
			if k, ok := cred.Unlock(h.actor.Secret, nil); ok {
				h.actor.Key, h.actor.Secret = k, ""
			}
		}
	}
	return nil
}

func (h *here) utc() time.Time { return h.now().UTC() }

func (h *here) Follow(ctx context.Context) (bool, error) { return follow(ctx, h.app, &h.version) }

// follow catches app up with what other connections committed to its file
// since its data version was version: nothing is read when none did.
func follow(ctx context.Context, app *match.App, version *int64) (bool, error) {
	v, err := app.DB().DataVersion(ctx)
	if err != nil || v == *version {
		return false, err
	}
	*version = v
	seq := app.State().Seq
	if err := app.Refresh(ctx); err != nil {
		return false, err
	}
	return app.State().Seq != seq, nil
}

func (h *here) State() *match.State { return h.app.State() }

func (h *here) Now() (time.Time, time.Duration) { return h.now().UTC(), 0 }

func (h *here) Give(ctx context.Context, cmd match.Command) (match.Result, error) {
	return h.app.Do(ctx, match.Cmd{Now: h.utc, Actor: h.actor}, cmd)
}

func (h *here) Path() string { return h.app.DB().Path() }

func (h *here) Station() string { return "" }

func (h *here) Close() { h.app.DB().Close() }

// station is the replica of an operator's laptop (or of any station whose
// connection may give the operator's commands).
type station struct {
	path    string
	app     *match.App
	link    *service.Link
	now     func() time.Time
	actor   match.Actor
	version int64
	name    string // the station's (FILE.station.json)
}

func openStation(ctx context.Context, path string, actor match.Actor, now func() time.Time) (*station, error) {
	// Opened as a command that reads opens it (read-write when the file
	// can be written, though nothing is ever written through it): a
	// read-only handle opened while no writer holds the file may be
	// opened immutable, and would never see the station apply.
	open := service.OpenReadOnly
	if service.Writable(path) {
		open = service.Open
	}
	app, err := open(ctx, path)
	if err != nil {
		return nil, err
	}
	link, err := service.Dial(ctx, path, now)
	if err != nil {
		app.DB().Close()
		return nil, err
	}
	s := &station{path: path, app: app, link: link, now: now, actor: actor}
	if sf, ok, err := service.ReadStation(path); err == nil && ok {
		s.name = sf.Name
	}
	s.version, _ = app.DB().DataVersion(ctx)
	if _, err := link.CheckCredential(ctx, s.command(match.CredentialCheck{})); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// command is how the bridge's commands are given over the link: as the
// operator, with the credential given (none on the laptop: the
// invitation's key), stamped when given.
func (s *station) command(cmd match.Command) service.StationCommand {
	return service.StationCommand{Cmd: cmd, G: service.Global{DB: s.path, Role: s.actor.Role, PIN: s.actor.PIN, Secret: s.actor.Secret},
		RoleGiven: true, Key: s.actor.Key, Now: s.now}
}

func (s *station) Follow(ctx context.Context) (bool, error) { return follow(ctx, s.app, &s.version) }

func (s *station) State() *match.State { return s.app.State() }

func (s *station) Now() (time.Time, time.Duration) {
	off, rtt, _ := s.link.Offset()
	return s.now().Add(off).UTC(), rtt / 2
}

func (s *station) Give(ctx context.Context, cmd match.Command) (match.Result, error) {
	if err := cmd.Validate(); err != nil {
		return match.Result{}, err // refused here, before anything is sent
	}
	res, err := s.link.Send(ctx, s.command(cmd))
	s.Follow(ctx) // committed or not, the replica says what now stands
	var refused *service.Refused
	if errors.As(err, &refused) && refused.Refusal != nil {
		// the match's refusal, as on one machine: each face words it
		// (the bridge's start refused, one engine per match)
		return res.Result, refused.Refusal
	}
	return res.Result, err
}

func (s *station) Path() string { return s.path }

func (s *station) Station() string { return s.name }

func (s *station) Close() {
	s.link.Close()
	s.app.DB().Close()
}
