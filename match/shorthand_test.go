package match

import (
	"context"
	"time"

	"arbiter/clock"
)

// The calls below run one command each through Do, for match's own tests
// (they were the core's entry points before commands were values, issue
// 25). Everything else, other packages' tests included, builds a Command
// and calls Do.

// run runs cmd and tells only whether it was refused.
func (a *App) run(ctx context.Context, c Cmd, cmd Command) error {
	_, err := a.Do(ctx, c, cmd)
	return err
}

// NewMatch runs MatchNew.
//
// Deprecated: use Do with MatchNew.
func (a *App) NewMatch(ctx context.Context, c Cmd, spec MatchNew) error {
	return a.run(ctx, c, spec)
}

// ScheduleGame runs GameSchedule.
//
// Deprecated: use Do with GameSchedule.
func (a *App) ScheduleGame(ctx context.Context, c Cmd, n int, start time.Time) error {
	return a.run(ctx, c, GameSchedule{Game: n, Start: start})
}

// StartGame runs GameStart from the standard position.
//
// Deprecated: use Do with GameStart.
func (a *App) StartGame(ctx context.Context, c Cmd, n int) error {
	return a.run(ctx, c, GameStart{Game: n})
}

// StartGameFrom runs GameStart from a position.
//
// Deprecated: use Do with GameStart.
func (a *App) StartGameFrom(ctx context.Context, c Cmd, n int, from StartPosition) error {
	return a.run(ctx, c, GameStart{Game: n, StartPosition: from})
}

// PostponeGame runs GamePostpone.
//
// Deprecated: use Do with GamePostpone.
func (a *App) PostponeGame(ctx context.Context, c Cmd, n int, reason string) error {
	return a.run(ctx, c, GamePostpone{Game: n, Reason: reason})
}

// Move runs Move.
//
// Deprecated: use Do with Move.
func (a *App) Move(ctx context.Context, c Cmd, input string, pressed bool) (MoveResult, error) {
	res, err := a.Do(ctx, c, Move{Input: input, Pressed: pressed})
	m, _ := res.Moved()
	return m, err
}

// Press runs Press.
//
// Deprecated: use Do with Press.
func (a *App) Press(ctx context.Context, c Cmd) error {
	return a.run(ctx, c, Press{})
}

// Pause runs Pause for cause "other".
//
// Deprecated: use Do with Pause.
func (a *App) Pause(ctx context.Context, c Cmd, reason string, call bool) error {
	return a.run(ctx, c, Pause{Reason: reason, Call: call})
}

// PauseFor runs Pause.
//
// Deprecated: use Do with Pause.
func (a *App) PauseFor(ctx context.Context, c Cmd, p Pause) error {
	return a.run(ctx, c, p)
}

// Resume runs Resume.
//
// Deprecated: use Do with Resume.
func (a *App) Resume(ctx context.Context, c Cmd) error {
	return a.run(ctx, c, Resume{})
}

// Adjust runs Adjust.
//
// Deprecated: use Do with Adjust.
func (a *App) Adjust(ctx context.Context, c Cmd, side clock.Side, adj Adjustment, reason string) error {
	return a.run(ctx, c, Adjust{Side: side, Adjustment: adj, Reason: reason})
}

// DrawOffer runs DrawOffer.
//
// Deprecated: use Do with DrawOffer.
func (a *App) DrawOffer(ctx context.Context, c Cmd, side *clock.Side) error {
	return a.run(ctx, c, DrawOffer{Side: side})
}

// DrawAnswer runs DrawAccept or DrawDecline.
//
// Deprecated: use Do with DrawAccept or DrawDecline.
func (a *App) DrawAnswer(ctx context.Context, c Cmd, accept bool) error {
	var cmd Command = DrawDecline{}
	if accept {
		cmd = DrawAccept{}
	}
	return a.run(ctx, c, cmd)
}

// Resign runs Resign.
//
// Deprecated: use Do with Resign.
func (a *App) Resign(ctx context.Context, c Cmd, side clock.Side) error {
	return a.run(ctx, c, Resign{Side: side})
}

// Result runs Decide.
//
// Deprecated: use Do with Decide.
func (a *App) Result(ctx context.Context, c Cmd, result, reason string) error {
	return a.run(ctx, c, Decide{Result: result, Reason: reason})
}

// Incident runs LogIncident.
//
// Deprecated: use Do with LogIncident.
func (a *App) Incident(ctx context.Context, c Cmd, kind string, args IncidentArgs) (string, error) {
	res, err := a.Do(ctx, c, LogIncident{Incident: kind, IncidentArgs: args})
	if err != nil {
		return "", err
	}
	card, _ := res.SetupCard(a.State(), nil)
	return card, nil
}

// Flag runs Flag.
//
// Deprecated: use Do with Flag.
func (a *App) Flag(ctx context.Context, c Cmd, which string, orderUnknown bool) (FlagVerdict, error) {
	res, err := a.Do(ctx, c, Flag{Side: which, OrderUnknown: orderUnknown})
	v, _ := res.Verdict()
	return v, err
}

// Correct runs Correct.
//
// Deprecated: use Do with Correct.
func (a *App) Correct(ctx context.Context, c Cmd, args Correct) (CorrectResult, error) {
	res, err := a.Do(ctx, c, args)
	if res.Correction == nil {
		return CorrectResult{}, err
	}
	return *res.Correction, err
}

// Amend runs Amend.
//
// Deprecated: use Do with Amend.
func (a *App) Amend(ctx context.Context, c Cmd, ply int, input, reason string) error {
	return a.run(ctx, c, Amend{Ply: ply, Input: input, Reason: reason})
}

// Claim runs Claim.
//
// Deprecated: use Do with Claim.
func (a *App) Claim(ctx context.Context, c Cmd, kind, intended string) (ClaimResult, error) {
	res, err := a.Do(ctx, c, Claim{Draw: kind, Move: intended})
	r, _ := res.Ruling()
	return r, err
}

// Forfeit runs Forfeit.
//
// Deprecated: use Do with Forfeit.
func (a *App) Forfeit(ctx context.Context, c Cmd, side clock.Side, reason string) error {
	return a.run(ctx, c, Forfeit{Side: side, Reason: reason})
}

// AddCredential runs CredentialAdd.
//
// Deprecated: use Do with CredentialAdd.
func (a *App) AddCredential(ctx context.Context, c Cmd, spec CredentialAdd) error {
	return a.run(ctx, c, spec)
}

// CheckCredential runs CredentialCheck.
//
// Deprecated: use Do with CredentialCheck.
func (a *App) CheckCredential(ctx context.Context, c Cmd) error {
	return a.run(ctx, c, CredentialCheck{})
}
