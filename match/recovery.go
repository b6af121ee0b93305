package match

import (
	"context"
	"os"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/store"
)

// HeartbeatEvery is how often the console writes its heartbeat; a heartbeat
// older than StaleAfter means the console is gone.
const (
	HeartbeatEvery = 3 * time.Second
	StaleAfter     = 10 * time.Second
)

// Heartbeat PIDs with a meaning: the console quit normally, or the absence
// was already logged.
const (
	pidClosed  = -1
	pidHandled = 0
)

// Beat writes the console's heartbeat (outside the hash chain). A record
// that does not verify takes none: nothing runs on it, and its file is
// kept as it is for the appeals board.
func (a *App) Beat(ctx context.Context, now time.Time) error {
	if a.Why() != nil {
		return nil
	}
	host, _ := os.Hostname()
	if err := a.db.WriteHeartbeat(ctx, store.Heartbeat{Wall: now, PID: os.Getpid(), Host: host}); err != nil {
		return err
	}
	// the file the heartbeat was written in: a copy of it is another file
	if id := fileID(a.db.Path()); id != "" {
		if was, err := a.db.Meta(ctx, metaBeatFile); err != nil || was != id {
			return a.db.SetMeta(ctx, metaBeatFile, id)
		}
	}
	return nil
}

// metaBeatFile is the meta key of the identity of the file the console's
// heartbeat was written in (fileID).
const metaBeatFile = "heartbeat.file"

// copied tells whether the file is a copy, without its -wal, of the file
// whose console wrote the heartbeat (one that never closed it): it had no
// -wal beside it when it was opened (a console that crashes leaves its
// -wal) and is another file than the one the console noted (any command's
// open after a crash merges and removes the -wal the crash left: the same
// file is the crash's). Where no identity can be read (Windows) or none was
// noted (a file written before the note), the missing -wal alone tells. A
// file copied with its -wal is the crash's image, and said as a crash.
func (a *App) copied(ctx context.Context) bool {
	if !a.db.OpenedWithoutLog() {
		return false
	}
	if id := fileID(a.db.Path()); id != "" {
		if was, err := a.db.Meta(ctx, metaBeatFile); err == nil {
			return was != id
		}
	}
	return true
}

// Closing records that the console quits normally (the clocks keep running
// in the record; reopening resumes them).
func (a *App) Closing(ctx context.Context, now time.Time) error {
	if a.Why() != nil {
		return nil // as Beat: the file is kept as it is
	}
	host, _ := os.Hostname()
	return a.db.WriteHeartbeat(ctx, store.Heartbeat{Wall: now, PID: pidClosed, Host: host})
}

// CheckRecovery looks for a console that went away while a game's clock was
// running. It returns a sentence for the user (nil if nothing happened) and,
// when write is true, logs a recovery event (rule 7: the clock kept running).
func (a *App) CheckRecovery(ctx context.Context, now time.Time, write bool) (*phrase.Error, error) {
	p, running, err := a.absence(ctx, now)
	if p == nil || err != nil {
		return nil, err
	}
	// the record keeps the English sentence; the console says the phrase
	// in its own language
	note := p.note(colour(running))
	if !write || p.copied != copyNo {
		return note, nil // a copy or a backup is said to be one, and nothing is recorded
	}
	err = a.do(ctx, Cmd{At: now, Actor: Actor{Role: RoleSystem}}, func(t *tx) error {
		g, err := t.live()
		if err != nil {
			return err
		}
		return t.emit(g.Number, KindRecovery, RecoveryPayload{AwayMS: int64(p.away / time.Millisecond), Running: running.String(), Text: note.Error()})
	})
	if err != nil {
		return note, err
	}
	return note, a.handled(ctx, now)
}

// absence is the console's absence while a clock of the game in progress
// ran, as the heartbeat shows it at now, with the side whose clock runs; nil
// when there was none (or it was already noted).
//
// A file its console never closed that is a copy of it (copied) or a
// backup (store.CopyPID) is said to be one instead, and nothing is
// recorded for it (CheckRecovery, ArmRecovery).
func (a *App) absence(ctx context.Context, now time.Time) (*pendingRecovery, clock.Side, error) {
	if a.Why() != nil {
		return nil, 0, nil // nothing runs on a record that does not verify
	}
	hb, ok, err := a.db.ReadHeartbeat(ctx)
	if err != nil || !ok || hb.PID == pidHandled {
		return nil, 0, err
	}
	g := a.State().CurrentGame()
	if g == nil || !g.Live() {
		return nil, 0, nil
	}
	running, isRunning := g.Clock.Running()
	if !isRunning {
		return nil, 0, nil
	}
	// The heartbeat is no evidence: no signature covers it, and the
	// sqlite3 shell writes any instant into it. The absence said is
	// never longer than the running clock's run without a stop, which
	// the record's events hold (branch htrust): before, a heartbeat set
	// two hours back made the next command record "the console was gone
	// for 2h0m1s while Black's clock was running" of a clock started
	// four minutes before.
	away := now.Sub(hb.Wall)
	if since, ok := g.Clock.RunningSince(); ok && now.Sub(since) < away {
		away = now.Sub(since)
	}
	if away < StaleAfter {
		return nil, 0, nil
	}
	how := phrase.Word("closed")
	if hb.PID != pidClosed {
		how = "gone (crashed or killed)"
	}
	p := &pendingRecovery{away: away, how: how, now: now}
	switch {
	case hb.PID == store.CopyPID:
		p.copied = copyBackup // made by Backup: its console may run on
	case hb.PID > 0 && a.copied(ctx):
		p.copied, p.pid, p.host = copyGone, hb.PID, hb.Host
		if host, _ := os.Hostname(); hb.Host == host && processAlive(hb.PID) {
			p.copied = copySure
		}
	}
	return p, running, nil
}

// pendingRecovery is a recovery note armed by ArmRecovery: the next command
// writes it first, in its own transaction, stamped at its own instant.
type pendingRecovery struct {
	away time.Duration
	how  phrase.Word
	now  time.Time // when the absence was noticed
	// copied: the file had no -wal though its console never closed it: a
	// copy taken while it ran (copySure: its process pid still runs here;
	// copyGone: it does not, or ran on host), or a backup (copyBackup):
	// said so instead of an absence, and never recorded
	copied copyKind
	pid    int
	host   string
}

// ArmRecovery is CheckRecovery for a command given with an exact instant (the
// command line's --at): it writes nothing now. The note is written by the
// next command of this App, as its first event, in the same transaction and
// stamped at that command's instant, so a recovery never blocks an exact
// instant, and a refused command leaves the record (and the heartbeat)
// untouched. It returns the sentence for the user, or nil.
func (a *App) ArmRecovery(ctx context.Context, now time.Time) (*phrase.Error, error) {
	p, running, err := a.absence(ctx, now)
	if p == nil || err != nil {
		return nil, err
	}
	if p.copied != copyNo {
		return p.note(colour(running)), nil // said, never recorded
	}
	a.mu.Lock()
	a.pending = p
	a.mu.Unlock()
	return p.note(colour(running)), nil
}

// copyKind is what a recovery knows of a file copied while its console ran.
type copyKind int

const (
	copyNo     copyKind = iota
	copyGone            // copied without its -wal while its console ran (copied)
	copySure            // and the console's process still runs on this machine
	copyBackup          // the heartbeat says store.CopyPID: a backup (arbiter backup, restored or not)
)

// OfACopy reports whether a recovery note (CheckRecovery's) says the file
// is a copy or a backup rather than the file a console was writing when it
// went: the console titles it so, where a crash is "The console was away".
func OfACopy(note *phrase.Error) bool {
	return note != nil && strings.HasPrefix(note.Format, "this file is a ")
}

// note is the recovery's sentence, with the side whose clock runs.
func (p *pendingRecovery) note(running any) *phrase.Error {
	switch p.copied {
	case copySure:
		return phrase.Errorf("this file is a copy taken without its -wal while the console (process %d on this machine, still running) was writing it: the events still in that -wal are not in this copy, whose last heartbeat is %s old (%s's clock running); copy a record in use with Arbiter's backup, or the file with its -wal and -shm",
			p.pid, clock.FormatRounded(p.away), running)
	case copyGone:
		return phrase.Errorf("this file is a copy taken without its -wal while the console (process %d on %s, not running here now) was writing it: the events still in that -wal are not in this copy, whose last heartbeat is %s old (%s's clock running); nothing is recorded for a copy; copy a record in use with Arbiter's backup, or the file with its -wal and -shm",
			p.pid, p.host, clock.FormatRounded(p.away), running)
	case copyBackup:
		return phrase.Errorf("this file is a backup made with Arbiter's backup, not the file its console was writing: its last heartbeat is %s old (%s's clock running in the record since); nothing is recorded for a backup: the arbiter decides whether to keep, stop or set the clock (rule 7)",
			clock.FormatRounded(p.away), running)
	}
	return consoleAwayNote(p.how, p.away, running)
}

// consoleAwayNote is the note a recovery event records: the console away
// (how: closed, or gone) for away while running's clock ran.
func consoleAwayNote(how phrase.Word, away time.Duration, running any) *phrase.Error {
	return phrase.Errorf("the console was %s for %s while %s's clock was running; the clock kept running (rule 7): the arbiter decides whether to keep, stop or set it",
		how, clock.FormatRounded(away), running)
}

// recoveryPhrase is the phrase of the text a recovery event recorded (in
// English), rebuilt from its payload, so that the German console and
// report say it in German; nil when the text is not one of the core's
// notes. Before, the incident log of the German console showed the
// English sentence.
func recoveryPhrase(p RecoveryPayload) *phrase.Error {
	side := colour(clock.White)
	if p.Running == clock.Black.String() {
		side = colour(clock.Black)
	}
	away := time.Duration(p.AwayMS) * time.Millisecond
	for _, how := range []phrase.Word{"closed", "gone (crashed or killed)"} {
		if said := sameText(p.Text, consoleAwayNote(how, away, side)); said != nil {
			return said
		}
	}
	return nil
}

// emitPending writes an armed recovery note as the command's first event, at
// the command's instant, if a clock still runs in the game in progress.
func (p *pendingRecovery) emit(t *tx) error {
	g := t.st.CurrentGame()
	if g == nil || !g.Live() {
		return nil
	}
	running, ok := g.Clock.Running()
	if !ok {
		return nil
	}
	msg := p.note(colour(running)).Error()
	return t.emitAs(g.Number, RoleSystem, KindRecovery, RecoveryPayload{AwayMS: int64(p.away / time.Millisecond), Running: running.String(), Text: msg})
}

// handled marks the heartbeat after an armed note was written.
func (a *App) handled(ctx context.Context, now time.Time) error {
	host, _ := os.Hostname()
	return a.db.WriteHeartbeat(ctx, store.Heartbeat{Wall: now, PID: pidHandled, Host: host})
}

// LogSuspend records that the machine slept for d while the console ran (the
// boot-time clock counted the sleep, so a running clock ran on).
func (a *App) LogSuspend(ctx context.Context, now time.Time, d time.Duration) error {
	return a.do(ctx, Cmd{At: now, Actor: Actor{Role: RoleSystem}}, func(t *tx) error {
		g := t.st.CurrentGame()
		if g == nil || !g.Live() {
			return nil
		}
		why := phrase.Errorf(suspendedFormat, clock.FormatRounded(d))
		return t.emitAs(g.Number, RoleSystem, KindIncident, IncidentPayload{Kind: "suspend", Text: why.Error(), Rule: "6.10", Why: why})
	})
}
