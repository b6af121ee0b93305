package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/internal/filelock"
	"arbiter/match"
	"arbiter/scoresheet"
)

// Options are how the bridge runs (engine run's flags).
type Options struct {
	// Cmd is the engine's command, "PROGRAM [ARGS]" (SplitCommand).
	Cmd string
	// Options are the engine's UCI options, NAME=VALUE, set after uciok.
	Options []string
	// Overhead is taken off the computer's own time in each go line.
	Overhead time.Duration
	// Ponder: think on the human's time (go ponder, ponderhit).
	Ponder bool
	// Play: enter the engine's move and the press as the operator.
	Play bool
	// Hang is how long the engine may owe an answer (uciok, readyok, a
	// stopped search's bestmove) before it counts as hung (0: 10 s).
	Hang time.Duration
	// Restarts is the most restarts after technical faults in one game
	// (engine run's default is 3; negative: none).
	Restarts int
	// ResignMoves, when more than 0, turns on the suggestion to resign
	// (rule 14): once the evaluation of that many of the engine's moves in
	// a row, from the computer's side, is at or below ResignBelow pawns (a
	// mate against the computer is below any), the status suggests it to
	// the operator. The bridge never resigns by itself. Off by default.
	ResignBelow float64
	ResignMoves int
	// Ping is how often the engine is asked isready (0: every 5 s, the
	// most the bridge waits).
	Ping time.Duration
	// Logf is told what the bridge does (engine run's standard error).
	Logf func(format string, a ...any)
	// Stderr takes the engine's standard error (nil: discarded).
	Stderr io.Writer
	// Changed is told after the bridge gave a command (recorded: the
	// record may hold new events, the follower reads those) or wrote its
	// status (recorded false: nothing of the record changed, only the
	// status file; the console shows it without reading the record).
	Changed func(recorded bool)
	// Trace, when set, is told of the bridge's steps on this process's
	// own clock (the benchmarks measure the relay with it).
	Trace *Trace
	// TakeOver, when the record knows another bridge plays the computer at
	// another station (engine.start), takes over from it, for this reason
	// (engine run --take-over REASON): that bridge is gone (its station
	// died, a technical fault). Without it the bridge is refused (one
	// engine per match). A bridge the record names at this very station
	// is gone for sure once its lock is free: it is taken over without.
	TakeOver string
	// ID, when set, is the bridge's id (match.BridgeIDLen hex digits; the
	// tests'): else a random one.
	ID string
}

// Trace follows the bridge's steps, each with the instant it happened on
// the bridge's process's clock (time.Now, monotonic): a line written to
// the engine, a line of the engine read, a command given (when it was
// given and when it returned).
type Trace struct {
	Wrote func(text string, at time.Time)
	Read  func(text string, at time.Time)
	Gave  func(cmd match.Command, from, to time.Time, err error)
}

// DefaultHang, DefaultRestarts and DefaultPing are engine run's defaults.
const (
	DefaultHang     = 10 * time.Second
	DefaultRestarts = 3
	DefaultPing     = 5 * time.Second
	// DefaultResignMoves is how many of the engine's moves in a row must
	// be at or below --resign-below before resigning is suggested.
	DefaultResignMoves = 5
)

// LockPath is the lock a running bridge holds on the record db: one bridge
// per record.
func LockPath(db string) string { return db + ".engine.lock" }

// bridge is one run of the computer's equipment.
type bridge struct {
	rec  Record
	opts Options
	argv []string
	logf func(string, ...any)
	id   string // the bridge's id (engine.start): its transcripts' names

	sess        *session
	transcripts map[int]*transcript
	restarts    map[int]int  // restarts after faults, by game
	down        map[int]bool // a fault left the game's engine down: restarted on the computer's turn
	gaveUp      map[int]bool // no restarts left in the game
	below       map[int]int  // the engine's moves in a row evaluated at or below ResignBelow, by game
	last        lastMove     // the engine's last move recorded, for pondering
	answered    answer       // the engine's last move recorded, as the status says it (showAnswer)
	want        wantedFor    // wanted's last answer
	tried       string       // the engine's move --play last tried to make (game, ply, FEN, move)
	status      Status
	// uncertainty is how far the last instant taken (instant) may be from
	// the match timeline: taken also on the engine's reading goroutine,
	// it goes into the status only on the bridge's own (writeStatus)
	uncertainty atomic.Int64
	written     time.Time // when the status was last written
	dirty       bool
	err         error // the error Run returns (the engine cannot be started at all)
	started     bool  // engine.start is recorded
	tookOver    bool  // its engine.start replaced a bridge gone
}

// lastMove is the engine's last bestmove recorded: for which game and
// position, the move and the reply it expects.
type lastMove struct {
	game, ply int
	fen, uci  string
	ponder    string
}

// answer is the engine's last move recorded with the evaluation and depth
// of its search: what the status says as bestmove, eval and depth while
// the record holds that move (answerStands).
type answer struct {
	move  lastMove
	eval  string
	depth int
}

// answerStands reports whether the record still holds the position the
// engine's move m answered: at its ply, whether m or another move was made
// there (an operator's move marked not the engine's leaves the engine's
// answer its last move, as the engine.move event stays in the record), or
// not yet made in the position the game stands in. A rule 10 correction
// (or 6.13 reset) that struck a ply before it leaves it in no position of
// the game.
func answerStands(g *match.Game, m lastMove) bool {
	if g == nil || g.Sheet == nil || g.Number != m.game || m.ply < 1 || m.uci == "" {
		return false
	}
	es := g.Sheet.Entries()
	switch {
	case m.ply == len(es)+1:
		return g.Sheet.FEN() == m.fen
	case m.ply > len(es):
		return false
	}
	before := g.Sheet.StartFEN()
	if m.ply >= 2 {
		before = es[m.ply-2].FENAfter
	}
	return before == m.fen
}

// showAnswer makes the status's bestmove, eval and depth the engine's last
// move recorded while the record holds it, else empty: an answer the
// bridge discarded (its search stopped, the position moved on) or one a
// correction struck is never shown as the engine's move. Before, 'engine
// status --json' kept the struck answer's bestmove after a correction.
func (b *bridge) showAnswer() {
	a := b.answered
	if !answerStands(b.rec.State().Game(a.move.game), a.move) {
		a = answer{}
		b.answered = a
	}
	if b.status.BestMove != a.move.uci || b.status.Eval != a.eval || b.status.Depth != a.depth {
		b.status.BestMove, b.status.Eval, b.status.Depth = a.move.uci, a.eval, a.depth
		b.dirty = true
	}
}

// session is one engine process, serving one game.
type session struct {
	p        *process
	t        *transcript
	game     int
	name     string
	declared map[string]uciOption // the options the engine declared, by lower-case name
	ready    bool                 // uciok and the first readyok came
	newGame  bool                 // ucinewgame sent for the game
	newReady bool                 // its readyok came
	pending  map[string]time.Time
	pingAt   time.Time
	search   *search
	info     searchInfo
	setup    string // why the first go must be recorded as a setup (rule 12); "" none
}

// search is a search the engine runs: on which position (the position
// line, its game, next ply and FEN), pondering on an expected reply or
// not, and whether it was stopped (its bestmove is discarded) or hit.
type search struct {
	game, ply     int
	fen, position string
	ponder        bool
	hit           bool
	stopping      bool
	sent          Sent
	// clock is the game's clock as the go line read it: run on, it is
	// what the engine believes of the clocks (toldOtherClocks)
	clock clock.Clock
}

// toldOtherClocks reports whether the clocks the engine was told no longer
// run as the record's: while the computer's clock runs, the record's
// clocks read now differ (to the millisecond, or in the moves to the
// control) from the go line's clock run on to now — the clocks were
// stopped and started again since (a pause, a correction's), or adjusted.
// Before, the engine searched on with the clocks of its go line: after a
// pause it believed the pause spent from its own time, and an adjustment
// (the arbiter's 'adjust', a rule 10 correction's clocks without a change
// of position) never reached it. A search the human's move hit (ponder)
// began on his turn: its go line's clocks are UCI's for a ponder, and it
// is left as it runs.
func (b *bridge) toldOtherClocks(g *match.Game, cur *search) bool {
	side, ok := b.computer(g)
	if !ok || cur.ponder || cur.hit || !cur.clock.Started() {
		return false
	}
	if running, ok := g.Clock.Running(); !ok || running != side {
		return false
	}
	now, _ := b.rec.Now()
	for _, s := range []clock.Side{clock.White, clock.Black} {
		if g.Clock.Remaining(s, now)/time.Millisecond != cur.clock.Remaining(s, now)/time.Millisecond {
			return true
		}
	}
	n, ok := g.Clock.MovesToControl(side)
	m, mok := cur.clock.MovesToControl(side)
	return n != m || ok != mok
}

// Run runs the computer's equipment on rec until ctx is done (engine run;
// the console's Operator → Engine…): it starts the engine, relays the
// human's moves and the clocks to it (rules 8, 11), records its moves
// (rule 9) and, with Play, makes them; it records the engine's technical
// faults and restarts it (rules 7, 12). When ctx ends the engine is told
// to quit and the status says stopped.
func Run(ctx context.Context, rec Record, opts Options) error {
	argv, err := SplitCommand(opts.Cmd)
	if err != nil {
		return err
	}
	if opts.Hang <= 0 {
		opts.Hang = DefaultHang
	}
	if opts.Ping <= 0 || opts.Ping > DefaultPing {
		opts.Ping = DefaultPing
	}
	for _, o := range opts.Options {
		if name, _, ok := strings.Cut(o, "="); !ok || strings.TrimSpace(name) == "" {
			return refuse(CodeOptionNotNameValue, o)
		}
	}
	if _, err := os.Stat(argv[0]); err != nil {
		if _, lerr := exec.LookPath(argv[0]); lerr != nil {
			return refuse(CodeNotThere, argv[0])
		}
	}
	lock, err := filelock.Lock(LockPath(rec.Path()))
	var held *filelock.HeldError
	if errors.As(err, &held) {
		return refuse(CodeBusy, rec.Path(), held.PID)
	}
	if err != nil {
		return refuse(CodeLockNotTaken, err)
	}
	defer lock.Release()
	b := newBridge(rec, opts, argv)
	if err := b.start(ctx); err != nil {
		return err
	}
	b.logf("the computer's equipment runs on %s with %s (process %d, bridge %s)", rec.Path(), opts.Cmd, os.Getpid(), b.id)
	defer b.close()
	return b.loop(ctx)
}

// start records that this bridge plays the computer's side from now on
// (engine.start): refused while the record knows another bridge plays,
// unless that one ran at this station (its lock, which this bridge now
// holds, proves it gone) or the operator takes over from it (TakeOver).
func (b *bridge) start(ctx context.Context) error {
	if _, err := b.rec.Follow(ctx); err != nil {
		return err
	}
	host, _ := os.Hostname()
	cmd := match.EngineStart{Bridge: b.id, Station: b.rec.Station(), Host: host, PID: os.Getpid(), Cmd: b.opts.Cmd}
	if cur := b.rec.State().Bridge; cur != nil {
		switch {
		case cur.Station == cmd.Station:
			cmd.Replaces = cur.Bridge
			cmd.Reason = fmt.Sprintf("the bridge before it at this station (process %d) ended without stopping: its lock was free", cur.PID)
			if b.opts.TakeOver != "" {
				cmd.Reason = b.opts.TakeOver
			}
		case b.opts.TakeOver != "":
			cmd.Replaces, cmd.Reason = cur.Bridge, b.opts.TakeOver
		}
	}
	if _, err := b.give(ctx, cmd); err != nil {
		return err
	}
	if cmd.Replaces != "" {
		b.tookOver = true
		b.logf("the bridge %s takes over from the bridge %s: %s", b.id, cmd.Replaces, cmd.Reason)
	}
	b.started = true
	return nil
}

// stop records that this bridge no longer plays (engine.stop), unless
// another took over from it meanwhile.
func (b *bridge) stop() {
	if !b.started {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopWithin)
	defer cancel()
	b.rec.Follow(ctx)
	if cur := b.rec.State().Bridge; cur == nil || cur.Bridge != b.id {
		b.logf("the bridge %s was taken over meanwhile: its stop is not recorded", b.id)
		return
	}
	if _, err := b.give(ctx, match.EngineStop{Bridge: b.id}); err != nil {
		b.note("%s", b.stopNotRecorded(err))
		return
	}
	// the last line of engine run, as docs/engine.md says it: before, a
	// bridge stopped with Ctrl+C or kill ended without a word
	b.logf("stopped; the bridge's stop is recorded (engine.stop)")
}

// stopNotRecorded says to the operator, when the bridge's stop could not
// be recorded (at a station: no authority answered within stopWithin),
// what the record holds and does not, and what to do. It is the bridge's
// last log line and the note its last status keeps ('engine status').
// Before, one line named the error after a parenthesis the operator had to
// decode, and the status said only "stopped".
func (b *bridge) stopNotRecorded(err error) string {
	st := b.rec.State()
	computer := "the computer"
	if st.Match != nil && st.Match.Computer != "" {
		computer = st.Match.Computer
	}
	again := "'engine run' here takes over from it (recorded) and records its own stop when stopped"
	if b.rec.Station() != "" {
		again = "once 'station status' shows an authority again, 'engine run' here takes over from it (recorded) and records its own stop when stopped"
	}
	return fmt.Sprintf("the bridge %s stopped, but its stop is NOT recorded (%v). "+
		"Recorded: what the bridge recorded before, its engine's moves and faults (this record holds events up to %d). "+
		"Not recorded: that it stopped, so the record still names it as the bridge that plays %s, and a move of %s given by hand "+
		"in a position its engine has not answered is refused unless given with --not-engine --reason TEXT (logged as not the engine's move). "+
		"What to do: %s; or give %s's moves with 'move MOVE --not-engine --reason TEXT'; 'engine status' says what the record holds.",
		b.id, err, st.Seq, computer, computer, again, computer)
}

// stopWithin is how long a stopping bridge tries to record its stop.
const stopWithin = 5 * time.Second

// NewBridgeID is a random bridge id (match.BridgeIDLen hex digits).
func NewBridgeID() string {
	var r [match.BridgeIDLen / 2]byte
	if _, err := rand.Read(r[:]); err != nil {
		panic(err) // crypto/rand does not fail
	}
	return hex.EncodeToString(r[:])
}

// newBridge is the bridge of Run, before its loop: no engine runs yet.
func newBridge(rec Record, opts Options, argv []string) *bridge {
	b := &bridge{rec: rec, opts: opts, argv: argv, logf: opts.Logf, transcripts: map[int]*transcript{},
		restarts: map[int]int{}, down: map[int]bool{}, gaveUp: map[int]bool{}, below: map[int]int{}}
	if b.logf == nil {
		b.logf = func(string, ...any) {}
	}
	b.id = opts.ID
	if b.id == "" {
		b.id = NewBridgeID()
	}
	b.status = Status{State: StateStarting, Cmd: opts.Cmd, BridgePID: os.Getpid(), Bridge: b.id, MaxRestarts: max(0, opts.Restarts)}
	if opts.ResignMoves > 0 {
		b.status.ResignBelow, b.status.ResignMoves = &opts.ResignBelow, opts.ResignMoves
	}
	_, b.status.Station = rec.(*station)
	return b
}

func (b *bridge) close() {
	if b.sess != nil {
		b.endSession()
	}
	for _, t := range b.transcripts {
		t.close()
	}
	b.stop()
	b.status.State, b.status.PID = StateStopped, 0
	b.writeStatus(true)
}

// loop reconciles the engine with the record after every change: a
// commit another writer made (followed by polling the record's data
// version, every millisecond while the human is to move), a line of the
// engine, or a deadline.
func (b *bridge) loop(ctx context.Context) error {
	tick := time.NewTimer(0)
	defer tick.Stop()
	for {
		if ctx.Err() != nil {
			return nil // nothing more is sent (a command cut short by the stop may have left the state behind)
		}
		b.reconcile(ctx)
		if b.err != nil {
			return b.err
		}
		b.deriveState()
		b.writeStatus(false)
		var lines chan line
		if b.sess != nil {
			lines = b.sess.p.lines
		}
		tick.Reset(b.pollEvery())
		select {
		case <-ctx.Done():
			return nil
		case l, ok := <-lines:
			if !ok {
				b.exited(ctx)
				continue
			}
			b.read(ctx, l)
		case <-tick.C:
			if _, err := b.rec.Follow(ctx); err != nil && ctx.Err() == nil {
				b.note("the record cannot be read: %v", err)
			}
		}
	}
}

// pollEvery is how often the record is looked at: every millisecond while
// the human is to move and his clock runs (his move is relayed at once,
// rule 8), less often otherwise.
func (b *bridge) pollEvery() time.Duration {
	g := b.rec.State().CurrentGame()
	if g == nil || !g.Live() {
		return 50 * time.Millisecond
	}
	if side, ok := b.computer(g); ok && g.ToMove() != side {
		return time.Millisecond
	}
	return 10 * time.Millisecond
}

// computer is the computer's side in g.
func (b *bridge) computer(g *match.Game) (clock.Side, bool) {
	m := b.rec.State().Match
	if m == nil || m.Computer == "" {
		return 0, false
	}
	return g.Side(m.Computer)
}

// served is the game the engine serves: the game in progress, else the
// next one to be started (its engine waits, ready), else none.
func (b *bridge) served() (*match.Game, bool) {
	st := b.rec.State()
	if st.Match == nil || st.Match.Computer == "" {
		return nil, false
	}
	if g := st.CurrentGame(); g != nil && g.Live() {
		return g, true
	}
	if g := st.NextGame(); g != nil {
		return g, false
	}
	return nil, false
}

// reconcile brings the engine in line with the record: the right game's
// engine running, the search on the position of the record (stopped and
// started again when it changes), pings and deadlines kept.
func (b *bridge) reconcile(ctx context.Context) {
	if seq := b.rec.State().Seq; seq != b.status.Seq {
		b.status.Seq, b.dirty = seq, true
		if b.sess == nil || b.sess.search == nil {
			b.showAnswer() // a correction may have struck it
		}
	}
	if cur := b.rec.State().Bridge; b.started && cur != nil && cur.Bridge != b.id {
		// taken over (one engine per match): the record takes nothing
		// more of this bridge, which stops
		b.err = refuse(CodeTakenOver, b.id, cur.Bridge, cur.Where())
		b.started = false
		return
	}
	g, live := b.served()
	if b.sess != nil && (g == nil || b.sess.game != g.Number) {
		b.endSession()
	}
	if g == nil {
		b.status.Note = "no game is left to play"
		return
	}
	if b.status.Game != g.Number {
		// another game: what the status told of the last one goes
		b.status.Ply, b.status.Sent, b.status.BestMove, b.status.Eval, b.status.Depth, b.status.Fault = 0, nil, "", "", 0, ""
		b.answered = answer{}
		b.dirty = true
	}
	b.status.Game = g.Number
	b.status.Restarts = b.restarts[g.Number]
	b.status.SuggestResign = b.opts.ResignMoves > 0 && b.below[g.Number] >= b.opts.ResignMoves
	if b.sess == nil && !b.startSession(ctx, g, live) {
		return
	}
	s := b.sess
	if b.checkDeadlines(ctx) {
		return
	}
	if !s.ready {
		return
	}
	now, _ := b.rec.Now()
	if _, owed := s.pending["readyok"]; !owed && now.After(s.pingAt) {
		if _, err := b.sendAt(ctx, time.Time{}, func(time.Time) string { return "isready" }); err != nil {
			return // a fault: the session is gone, the next turn starts again
		}
		s.pending["readyok"] = now.Add(b.opts.Hang)
		s.pingAt = now.Add(b.opts.Ping)
	}
	if !live {
		b.stopSearch(ctx)
		return
	}
	if !s.newGame {
		s.newGame = true
		b.send(ctx, "ucinewgame")
		b.send(ctx, "isready")
		s.pending["readyok"] = now.Add(b.opts.Hang)
		return
	}
	if !s.newReady {
		return
	}
	b.playPending(ctx, g)
	b.steer(ctx, g)
}

// steer starts, keeps, hits or stops the search as the record now asks.
func (b *bridge) steer(ctx context.Context, g *match.Game) {
	s := b.sess
	want := b.wanted(g)
	cur := s.search
	switch {
	case cur != nil && cur.stopping:
		return // its bestmove comes first
	case cur != nil && want != nil && cur.ponder && !want.ponder && cur.position == want.position:
		// the human played the expected reply: the search goes on, on his
		// move's time
		b.send(ctx, "ponderhit")
		cur.ponder, cur.hit = false, true
		return
	case cur != nil && (want == nil || want.position != cur.position || want.ponder != cur.ponder):
		b.stopSearch(ctx)
		return
	case cur != nil && b.toldOtherClocks(g, cur):
		// a pause since the go line, or an adjustment: the engine's
		// clocks are no longer the record's, and UCI tells it times only
		// with go, so the search is stopped (its bestmove discarded) and
		// the next go line has the clocks as they now stand (rule 11)
		b.logf("the clocks changed while the engine thought on ply %d (a pause, an adjustment): it is told them again (rule 11)", cur.ply)
		b.stopSearch(ctx)
		return
	case cur != nil:
		return
	case want == nil:
		return
	}
	side, _ := b.computer(g)
	if _, err := b.sendAt(ctx, time.Time{}, func(time.Time) string { return want.position }); err != nil {
		return
	}
	if _, err := b.sendAt(ctx, b.rec.State().LastAt, func(at time.Time) string {
		line, sent := goLine(g, side, at, b.opts.Overhead, want.ponder)
		want.sent = sent
		return line
	}); err != nil {
		return
	}
	want.clock = g.Clock
	s.search = want
	s.info = searchInfo{}
	sent := want.sent
	b.status.Sent, b.status.Ply = &sent, want.ply
	b.dirty = true
	if !want.ponder && s.setup != "" {
		why := s.setup
		s.setup = ""
		b.recordSetup(ctx, g, want, why)
	}
}

// wanted is the search the record asks for: on the computer's turn its
// move (unless the record holds the engine's move for this position
// already); on the human's turn, with pondering, the engine's expected
// reply to its last move. It is asked at every turn of the loop (every
// millisecond of the human's turn), and worked out again only when the
// state (whose games are never changed in place: a change is a new state)
// or the engine's last move changed; each caller gets its own copy.
func (b *bridge) wanted(g *match.Game) *search {
	st := b.rec.State()
	if w := b.want; w.st != st || w.g != g || w.last != b.last {
		b.want = wantedFor{st: st, g: g, last: b.last, s: b.wantedNow(g)}
	}
	if b.want.s == nil {
		return nil
	}
	s := *b.want.s
	return &s
}

// wantedFor is wanted's answer for a state, a game of it and the engine's
// last move.
type wantedFor struct {
	st   *match.State // nil: none yet
	g    *match.Game
	last lastMove
	s    *search
}

// wantedNow works out the search the record asks for (wanted).
func (b *bridge) wantedNow(g *match.Game) *search {
	side, ok := b.computer(g)
	if !ok || g.Sheet == nil {
		return nil
	}
	if g.ToMove() == side {
		if g.EngineFor() != nil {
			return nil // chosen already: the operator makes it on the board
		}
		return &search{game: g.Number, ply: g.Sheet.Ply() + 1, fen: g.Sheet.FEN(), position: positionLine(g)}
	}
	l := b.last
	if !b.opts.Ponder || l.ponder == "" || l.game != g.Number || g.Sheet.Ply() != l.ply {
		return nil
	}
	if es := g.Sheet.Entries(); es[len(es)-1].UCI != l.uci {
		return nil
	}
	pos := g.Sheet.Position()
	mv := find(pos, l.ponder)
	if mv == nil {
		return nil
	}
	after := pos.Update(mv)
	return &search{game: g.Number, ply: g.Sheet.Ply() + 2, fen: after.String(), position: positionLine(g, l.ponder), ponder: true}
}

// find is the legal move uci in pos, or nil.
func find(pos *chess.Position, uci string) *chess.Move {
	if m, err := scoresheet.ParseMove(pos, uci); err == nil && m.String() == uci {
		return m
	}
	return nil
}

// stopSearch stops the search in progress; its bestmove is discarded.
func (b *bridge) stopSearch(ctx context.Context) {
	s := b.sess
	if s == nil || s.search == nil || s.search.stopping {
		return
	}
	b.send(ctx, "stop")
	s.search.stopping = true
	now, _ := b.rec.Now()
	s.pending["bestmove"] = now.Add(b.opts.Hang)
}

// give gives cmd to the record as the bridge's actor.
func (b *bridge) give(ctx context.Context, cmd match.Command) (match.Result, error) {
	from := time.Now()
	res, err := b.rec.Give(ctx, cmd)
	if t := b.opts.Trace; t != nil && t.Gave != nil {
		t.Gave(cmd, from, time.Now(), err)
	}
	if err == nil {
		b.changed(true)
	}
	return res, err
}

// read handles one line of the engine.
func (b *bridge) read(ctx context.Context, l line) {
	if t := b.opts.Trace; t != nil && t.Read != nil {
		t.Read(l.text, l.read)
	}
	s := b.sess
	f := strings.Fields(l.text)
	if s == nil || len(f) == 0 {
		return
	}
	switch f[0] {
	case "id":
		if len(f) > 2 && f[1] == "name" {
			s.name = strings.Join(f[2:], " ")
			b.status.Engine = s.name
		}
	case "option":
		if o, ok := readOption(f); ok {
			s.declared[strings.ToLower(o.name)] = o
		}
	case "uciok":
		delete(s.pending, "uciok")
		b.configure(ctx)
	case "readyok":
		delete(s.pending, "readyok")
		if !s.ready {
			s.ready = true
			b.logf("the engine %s (process %d) is ready for game %d", s.name, s.p.pid, s.game)
		}
		if s.newGame {
			s.newReady = true
		}
	case "info":
		s.info.readInfo(f)
		if s.info.eval != "" {
			b.status.Eval = s.info.eval
		}
		b.status.Depth = s.info.depth
		b.dirty = true
	case "bestmove":
		delete(s.pending, "bestmove")
		b.bestmove(ctx, f, l)
	}
}

// configure sets the engine's options once it said uciok: those given,
// Ponder with --ponder, UCI_Opponent naming the human when the engine has
// it and the operator gave none of his own (the UCI format "TITLE ELO
// human|computer NAME": he may give "GM 2785 human Garry Kasparov"); then
// asks isready.
//
// An option the engine does not declare, or a value it does not take, stops
// the bridge before any is sent, in one sentence naming what the engine
// takes (checkOption): before, "--option Thread=1" ran Stockfish on its
// defaults (it said "No such option: Thread", which nobody read),
// "--option Hash=99999999" was ignored without a word, and "--option
// Threads=abc" ended Stockfish at each start, a technical fault recorded up
// to the last restart.
func (b *bridge) configure(ctx context.Context) {
	s := b.sess
	name := s.name
	if name == "" {
		name = b.argv[0]
	}
	for _, o := range b.opts.Options {
		n, v, _ := strings.Cut(o, "=")
		if err := checkOption(name, s.declared, strings.TrimSpace(n), strings.TrimSpace(v)); err != nil {
			b.err = err
			b.status.Note = err.Error()
			return
		}
	}
	given := map[string]bool{}
	for _, o := range b.opts.Options {
		name, value, _ := strings.Cut(o, "=")
		b.send(ctx, "setoption name "+strings.TrimSpace(name)+" value "+strings.TrimSpace(value))
		given[strings.ToLower(strings.TrimSpace(name))] = true
	}
	if b.opts.Ponder && declares(s, "ponder") {
		b.send(ctx, "setoption name Ponder value true")
	}
	if m := b.rec.State().Match; m != nil && m.Human() != "" && declares(s, "uci_opponent") && !given["uci_opponent"] {
		b.send(ctx, "setoption name UCI_Opponent value none none human "+m.Human())
	}
	b.send(ctx, "isready")
	now, _ := b.rec.Now()
	s.pending["readyok"] = now.Add(b.opts.Hang)
	s.pingAt = now.Add(b.opts.Ping)
}

// declares reports whether the engine declared the option (lower-case).
func declares(s *session, name string) bool {
	_, ok := s.declared[name]
	return ok
}

// bestmove takes the engine's answer: a discarded one (its search was
// stopped, or the position moved on) is dropped; an illegal one is a
// technical fault; else it is recorded as engine.move, with --play made
// too.
func (b *bridge) bestmove(ctx context.Context, f []string, l line) {
	s := b.sess
	cur := s.search
	s.search = nil
	best, ponder := bestmove(f)
	if cur == nil || cur.stopping || cur.ponder {
		b.showAnswer() // a discarded answer is not the engine's move
		return
	}
	g := b.rec.State().CurrentGame()
	if g == nil || !g.Live() || g.Number != cur.game || g.Sheet.FEN() != cur.fen || g.Sheet.Ply()+1 != cur.ply {
		b.logf("the engine's move %s on ply %d is dropped: the record moved on meanwhile", best, cur.ply)
		b.showAnswer()
		return // reconcile starts again
	}
	pos := g.Sheet.Position()
	if find(pos, best) == nil {
		b.showAnswer()
		b.fault(ctx, fmt.Sprintf("answered %q, which is not a legal move on ply %d", strings.Join(f, " "), cur.ply))
		return
	}
	if err := s.t.sync(); err != nil {
		b.note("%v", err)
	}
	from := 0
	if e := g.Engine; e != nil && e.File == s.t.name {
		from = e.Lines
	}
	play := b.opts.Play && b.mayPlay(g)
	cmd := match.EngineMove{Game: cur.game, Ply: cur.ply, FEN: cur.fen, UCI: best, Received: l.at, Eval: s.info.eval,
		Depth: s.info.depth, Nodes: s.info.nodes, Pondered: cur.hit, EngineTranscript: s.t.attest(l.mark, from), Play: play, Bridge: b.id}
	b.last = lastMove{game: cur.game, ply: cur.ply, fen: cur.fen, uci: best, ponder: ponder}
	if play {
		b.tried = playKey(cur.game, cur.ply, cur.fen, best)
	}
	if _, err := b.give(ctx, cmd); err != nil {
		b.showAnswer()
		b.note("the engine's move %s is not recorded: %v", best, err)
		return
	}
	if play {
		b.tried = "" // made (playPending)
	}
	b.answered = answer{move: b.last, eval: s.info.eval, depth: s.info.depth}
	b.showAnswer()
	// the move as the scoresheet writes it, as the console and engine
	// status say it to the operator, beside the engine's UCI
	said := best
	if e := b.rec.State().CurrentGame(); e != nil && e.Engine != nil && e.Engine.UCI == best {
		said = e.Engine.Label() + " (" + best + ")"
	}
	todo := ""
	if !play {
		todo = ": make it on the board, then press"
	}
	b.logf("the engine plays %s on ply %d of game %d (%s, depth %d)%s", said, cur.ply, cur.game, s.info.eval, s.info.depth, todo)
	b.judgeResign(cur.game, s.info.eval)
}

// judgeResign counts the engine's moves in a row whose evaluation is at or
// below the threshold (ResignMoves off: none); once there are
// ResignMoves of them the status suggests resigning to the operator (rule
// 14). It never resigns.
func (b *bridge) judgeResign(game int, eval string) {
	if b.opts.ResignMoves <= 0 {
		return
	}
	if Below(eval, b.opts.ResignBelow) {
		b.below[game]++
	} else {
		b.below[game] = 0
	}
	if b.below[game] == b.opts.ResignMoves {
		b.logf("the engine's evaluation stayed at or below %+.2f for %d of its moves in a row: the operator may resign for the computer (rule 14); the bridge does not", b.opts.ResignBelow, b.opts.ResignMoves)
	}
	b.dirty = true
}

// mayPlay reports whether the computer's move can be made now: its clock
// runs, or it pressed and its move is awaited.
func (b *bridge) mayPlay(g *match.Game) bool {
	side, _ := b.computer(g)
	if g.Pressed != nil {
		return *g.Pressed == side
	}
	running, ok := g.Clock.Running()
	return ok && running == side
}

func playKey(game, ply int, fen, uci string) string {
	return fmt.Sprint(game, " ", ply, " ", fen, " ", uci)
}

// playPending makes the engine's move for the position the record stands
// in (--play) once the computer's clock runs: one that came while the
// clocks were stopped, or one the record held before (after a
// correction); each at most once until it is made (a correction that
// restores its position makes it again).
func (b *bridge) playPending(ctx context.Context, g *match.Game) {
	e := g.EngineFor()
	if !b.opts.Play || e == nil || !b.computersTurn(g) || !b.mayPlay(g) {
		return
	}
	key := playKey(g.Number, e.Ply, e.FEN, e.UCI)
	if b.tried == key {
		return
	}
	b.tried = key
	if _, err := b.give(ctx, match.Move{Input: e.UCI, Pressed: g.Pressed != nil}); err != nil {
		b.note("the engine's move %s is not made: %v", e.UCI, err)
		return
	}
	// made: a rule 10 correction that restores the position makes it
	// again (docs/engine.md); before, the key stayed tried and the bridge
	// left the computer's clock running, saying "make it on the board"
	b.tried = ""
}

// startSession starts the engine for game g (the game in progress when
// live); false when none is to run now: after a fault on the human's turn
// the restart waits for his move, and after the last restart the computer
// is the operator's.
func (b *bridge) startSession(ctx context.Context, g *match.Game, live bool) bool {
	n := g.Number
	turn := live && b.computersTurn(g)
	why := ""
	switch {
	case b.gaveUp[n]:
		b.status.Note = fmt.Sprintf("the engine was restarted %d times in game %d, the most allowed: the operator plays for the computer", b.restarts[n], n)
		return false
	case b.down[n] && !turn:
		b.status.Note = "the engine is down after a technical fault: it is restarted and set up when it is the computer's turn (rule 12)"
		return false
	case b.down[n]:
		b.restarts[n]++
		why = fmt.Sprintf("restarted after a technical fault (restart %d of %d in game %d)", b.restarts[n], b.opts.Restarts, n)
	case turn && g.Sheet != nil && (g.Sheet.Ply() > 0 || b.tookOver):
		// a bridge that took over from one gone (a technical fault in
		// the record) sets up its engine at the first move too: before,
		// its setup went unrecorded on the computer's first move
		why = "started by the bridge during the computer's turn"
	}
	t, err := b.transcript(n)
	if err != nil {
		b.err = err
		return false
	}
	p, err := start(b.argv, t, b.instant, b.stderr())
	if err != nil {
		if b.status.PID == 0 && len(b.restarts) == 0 && !b.down[n] {
			b.err = err // the engine cannot be run at all: engine run says so
			return false
		}
		b.fault(ctx, "could not be started again ("+err.Error()+")")
		return false
	}
	b.down[n] = false
	b.sess = &session{p: p, t: t, game: n, declared: map[string]uciOption{}, pending: map[string]time.Time{}, setup: why}
	b.status.PID = p.pid
	b.send(ctx, "uci")
	now, _ := b.rec.Now()
	b.sess.pending["uciok"] = now.Add(b.opts.Hang)
	return true
}

func (b *bridge) computersTurn(g *match.Game) bool {
	side, ok := b.computer(g)
	return ok && g.ToMove() == side
}

func (b *bridge) stderr() io.Writer {
	if b.opts.Stderr != nil {
		return b.opts.Stderr
	}
	return io.Discard
}

// instant is the match timeline's instant now (the transcript's instants).
func (b *bridge) instant() time.Time {
	at, u := b.rec.Now()
	b.uncertainty.Store(int64(u))
	return at
}

func (b *bridge) transcript(game int) (*transcript, error) {
	if t, ok := b.transcripts[game]; ok {
		return t, nil
	}
	t, err := openTranscript(Dir(b.rec.Path()), game, b.id)
	if err != nil {
		return nil, err
	}
	b.transcripts[game] = t
	return t, nil
}

// endSession tells the engine to quit (a game ended, the bridge stops).
func (b *bridge) endSession() {
	s := b.sess
	b.sess = nil
	b.status.PID = 0
	s.p.quit()
}

// exited: the engine's output ended (it exited, crashed or was killed).
func (b *bridge) exited(ctx context.Context) {
	s := b.sess
	if s == nil {
		return
	}
	<-s.p.exited
	b.fault(ctx, s.p.ended())
}

// checkDeadlines finds an answer the engine owes past --hang: a hung
// engine, a technical fault.
func (b *bridge) checkDeadlines(ctx context.Context) bool {
	s := b.sess
	now, _ := b.rec.Now()
	for what, by := range s.pending {
		if now.After(by) {
			b.fault(ctx, fmt.Sprintf("did not answer %s within %s", map[string]string{"uciok": "uci", "readyok": "isready", "bestmove": "stop"}[what], b.opts.Hang))
			if what == "uciok" {
				// the operator's remedy, which the record's words do not give
				b.note("the engine did not answer uci within --hang %s: an engine slow to start (loading a network, reached over ssh) needs a longer --hang, e.g. --hang 60s (stop the bridge and start it again with it)", b.opts.Hang)
			}
			return true
		}
	}
	return false
}

// fault is a technical fault of the engine (rules 7 and 12): the engine is
// ended, the fault recorded by the bridge as the incident technical-fault
// (the computer's clock keeps running), and the engine is restarted when
// it is the computer's turn — at most Restarts times a game.
func (b *bridge) fault(ctx context.Context, what string) {
	s := b.sess
	name, pid, n := b.status.Engine, 0, 0
	if s != nil {
		pid, n = s.p.pid, s.game
		if s.name != "" {
			name = s.name
		}
		b.sess = nil
		s.p.kill()
	}
	if name == "" {
		name = b.argv[0]
	}
	b.status.PID = 0
	g, live := b.served()
	if g != nil && n == 0 {
		n = g.Number
	}
	b.down[n] = true
	// What a fault does to the clock (rule 7) is the incident's effect,
	// which the record fills for every technical fault: said here too, it
	// read twice in the PGN, the PDF and the console's log.
	text := fmt.Sprintf("The engine %s (process %d) %s.", name, pid, what)
	switch {
	case b.restarts[n] >= b.opts.Restarts:
		b.gaveUp[n] = true
		text += fmt.Sprintf(" It has been restarted %d times in game %d, the most allowed: the bridge leaves the computer to the operator (his moves are entered as not the engine's, with a reason).", b.restarts[n], n)
	case live && !b.computersTurn(g):
		text += " It is the human's turn: the engine is restarted and set up once he has moved (rule 12)."
	default:
		text += " The bridge restarts it and sets up the position (rule 12)."
	}
	b.status.Fault = text
	b.logf("technical fault: %s", text)
	if g != nil && live && g.Number == n {
		if _, err := b.give(ctx, match.LogIncident{Incident: match.IncidentTechnicalFault, IncidentArgs: match.IncidentArgs{Text: text}}); err != nil {
			b.note("the technical fault is not recorded: %v", err)
		}
	}
}

// recordSetup records that the bridge set up the position and the clocks
// in the engine (rule 12).
func (b *bridge) recordSetup(ctx context.Context, g *match.Game, sr *search, why string) {
	mtg := "no move count (the last period)"
	if sr.sent.MovesToGo != nil {
		mtg = fmt.Sprintf("%d moves to the control", *sr.sent.MovesToGo)
	}
	text := fmt.Sprintf("The engine %s was %s: the position of ply %d (%s) and the clocks as they stood at %s (White %s, Black %s, %s) were set up in it.",
		b.sess.name, why, sr.ply, strings.TrimPrefix(sr.position, "position "), sr.sent.At,
		clock.FormatExact(time.Duration(sr.sent.WTime)*time.Millisecond), clock.FormatExact(time.Duration(sr.sent.BTime)*time.Millisecond), mtg)
	if _, err := b.give(ctx, match.LogIncident{Incident: match.IncidentSetup, IncidentArgs: match.IncidentArgs{Text: text}}); err != nil {
		b.note("the setup is not recorded: %v", err)
		return
	}
	b.logf("setup: %s", text)
}

// send writes a line to the engine now.
func (b *bridge) send(ctx context.Context, text string) {
	b.sendAt(ctx, time.Time{}, func(time.Time) string { return text })
}

// sendAt writes the line made for its instant (never before floor); a
// write the engine does not take is a fault.
func (b *bridge) sendAt(ctx context.Context, floor time.Time, make func(time.Time) string) (time.Time, error) {
	s := b.sess
	if s == nil {
		return time.Time{}, errors.New("no engine runs")
	}
	var text string
	at, err := s.p.sendAt(floor, func(at time.Time) string {
		text = make(at)
		return text
	})
	if t := b.opts.Trace; t != nil && t.Wrote != nil {
		t.Wrote(text, time.Now())
	}
	if err != nil {
		b.fault(ctx, s.p.refused(text, err))
		return at, err
	}
	return at, nil
}

// deriveState is the bridge's state as it stands: the engine starting,
// thinking, pondering or idle; not answering when it owes an answer for
// more than a second or is down after a fault; stopped when no engine runs
// for good (no game left, no restart left).
func (b *bridge) deriveState() {
	state := StateIdle
	s := b.sess
	g, _ := b.served()
	switch {
	case s == nil && g != nil && b.down[g.Number] && !b.gaveUp[g.Number]:
		state = StateNotAnswering
	case s == nil:
		state = StateStopped
	case !s.ready:
		state = StateStarting
	case s.search != nil && s.search.ponder:
		state = StatePondering
	case s.search != nil:
		state = StateThinking
	}
	if s != nil {
		now, _ := b.rec.Now()
		for _, by := range s.pending {
			if now.After(by.Add(time.Second - b.opts.Hang)) {
				state = StateNotAnswering
			}
		}
	}
	if b.status.State != state {
		b.status.State = state
		b.dirty = true
		b.written = time.Time{}
	}
}

func (b *bridge) note(format string, a ...any) {
	b.logf(format, a...)
	b.status.Note = fmt.Sprintf(format, a...)
	b.dirty = true
}

// changed tells Changed that the bridge gave a command (recorded) or
// wrote its status.
func (b *bridge) changed(recorded bool) {
	if b.opts.Changed != nil {
		b.opts.Changed(recorded)
	}
}

// writeStatus writes the status file when it changed (at most five times
// a second for the evaluation's sake) and at least every second.
func (b *bridge) writeStatus(force bool) {
	now := time.Now()
	since := now.Sub(b.written)
	if !force && since < time.Second && (!b.dirty || since < 200*time.Millisecond) {
		return
	}
	b.status.Updated = now.UTC().Format(time.RFC3339Nano)
	b.status.UncertaintyMS = float64(b.uncertainty.Load()) / float64(time.Millisecond)
	if err := writeStatus(b.rec.Path(), b.status); err != nil && b.written.IsZero() {
		b.logf("the engine's status cannot be written: %v", err)
	}
	b.written, b.dirty = now, false
	b.changed(false)
}
