package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"arbiter/engine"
	"arbiter/match"
	"arbiter/service"
)

// The computer's equipment (docs/engine.md): 'engine run' runs the bridge
// between the record and a UCI engine as the operator until killed,
// 'engine status' reads what the running bridge writes, and 'engine move'
// is the command the bridge records the engine's move with (the words it
// travels as from an operator's laptop to the authority).
func init() {
	register(&command{name: "engine run", roles: "operator (with the operator's credential on a protected match)",
		usage:   "engine run --cmd \"PROGRAM [ARGS]\" [--option NAME=VALUE]... [--overhead DURATION] [--ponder] [--play] [--hang DURATION] [--restarts N] [--resign-below PAWNS [--resign-moves N]] [--take-over REASON]",
		summary: "Run the computer's equipment until killed: relay the human's moves and the clocks to a UCI engine, record its moves (with --play make them), record its faults and restart it (rules 7–12).",
		run:     runEngineRun})
	register(&command{name: "engine status", roles: rolesRead, usage: "engine status [--json]",
		summary: "Show what the running engine bridge is doing: its state, the engine, its last move and evaluation, the clocks it sent last.", run: runEngineStatus})
	register(&command{name: "engine move", writes: true, roles: "operator, arbiter",
		usage:   "engine move --game N --ply P --fen FEN --uci MOVE --received TIME [--eval E] [--depth D] [--nodes N] [--pondered] --transcript FILE --lines L --bytes B --sha256 HEX [--from F] [--line-hashes H,...] [--play]",
		summary: "Record the move the computer's engine chose (what 'engine run' records; rule 9), with --play the move and the press too.", parse: parseEngineMove, told: toldEngineMove})
}

func runEngineRun(r *runner, a *args) error {
	cmd, _ := a.take("cmd")
	opts := engine.Options{Cmd: cmd, Options: a.takeAll("option"), Ponder: a.bool("ponder"), Play: a.bool("play"),
		Restarts: engine.DefaultRestarts, Hang: engine.DefaultHang}
	var err error
	for name, d := range map[string]*time.Duration{"overhead": &opts.Overhead, "hang": &opts.Hang} {
		if v, ok := a.take(name); ok {
			if *d, err = time.ParseDuration(v); err != nil || *d < 0 {
				return fmt.Errorf("--%s %q is not a duration: give e.g. 100ms, 2s or 1m", name, v)
			}
		}
	}
	if opts.Restarts, err = a.int("restarts", engine.DefaultRestarts); err != nil {
		return err
	}
	if opts.Restarts < 0 {
		return fmt.Errorf("--restarts must be 0 or more, not %d", opts.Restarts)
	}
	if v, ok := a.take("take-over"); ok {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("--take-over needs the reason the bridge that plays is gone, e.g. --take-over \"the laptop died\"")
		}
		opts.TakeOver = v
	}
	below, suggest := a.take("resign-below")
	_, moves := a.flags["resign-moves"]
	if opts.ResignMoves, err = a.int("resign-moves", engine.DefaultResignMoves); err != nil {
		return err
	}
	switch {
	case moves && !suggest:
		return fmt.Errorf("--resign-moves goes with --resign-below: give the evaluation in pawns too, e.g. --resign-below -5")
	case !suggest:
		opts.ResignMoves = 0 // off
	case opts.ResignMoves < 1:
		return fmt.Errorf("--resign-moves must be 1 or more, not %d", opts.ResignMoves)
	}
	if suggest {
		if opts.ResignBelow, err = strconv.ParseFloat(below, 64); err != nil || math.IsNaN(opts.ResignBelow) || math.IsInf(opts.ResignBelow, 0) {
			return fmt.Errorf("--resign-below %q is not an evaluation in pawns: give e.g. -5 or -3.5", below)
		}
	}
	if err := a.done("engine run", 0); err != nil {
		return err
	}
	if strings.TrimSpace(cmd) == "" {
		return fmt.Errorf("engine run needs the engine's program: give --cmd, e.g. --cmd /usr/games/stockfish")
	}
	if opts.Hang == 0 {
		return fmt.Errorf("--hang must be more than 0: it is how long the engine may owe an answer")
	}
	if r.roleGiven && r.g.Role != match.RoleOperator {
		return fmt.Errorf("engine run acts as the operator: leave out --as, or give --as operator")
	}
	if _, err := os.Stat(r.g.DB); err != nil {
		return fmt.Errorf("there is no database at %s: create a match with 'arbiter match new' or give --db", r.g.DB)
	}
	ctx, cancel := signal.NotifyContext(r.ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()
	actor := match.Actor{Role: match.RoleOperator, PIN: r.g.PIN, Secret: r.g.Secret, Key: r.key}
	rec, err := engine.Open(ctx, r.g.DB, actor, nil)
	if err != nil {
		return err
	}
	defer rec.Close()
	opts.Logf = func(f string, a ...any) { fmt.Fprintf(r.env.Stderr, "arbiter: engine: "+f+"\n", a...) }
	opts.Stderr = engineStderr{r}
	return engine.Run(ctx, rec, opts)
}

// engineStderr passes the engine's own standard error on, marked.
type engineStderr struct{ r *runner }

func (w engineStderr) Write(b []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		fmt.Fprintf(w.r.env.Stderr, "arbiter: engine says: %s\n", l)
	}
	return len(b), nil
}

func runEngineStatus(r *runner, a *args) error {
	asJSON := a.bool("json")
	if err := a.done("engine status", 0); err != nil {
		return err
	}
	s, ran, err := engine.ReadStatus(r.g.DB, r.env.Now())
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(r.env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	var rec EngineRecord
	if _, err := os.Stat(r.g.DB); err == nil {
		r.readOnly = true
		if err := r.open(false); err == nil {
			rec = EngineRecordOf(r.app.State())
		}
	}
	sf, station, _ := service.ReadStation(r.g.DB)
	if b := r.bridge(); b != nil {
		rec.BridgeHere = (station && b.Station == sf.Name) || (!station && b.Station == "")
	}
	if !ran || (s.State == engine.StateStopped && rec.Bridge != "" && (!rec.BridgeHere || s.BridgePID == rec.BridgePID)) {
		// no bridge here now: what the record knows of the one that plays
		// (a status left by a bridge gone says no more than that)
		if ran {
			r.out("%s", EngineStatusText(s, rec))
		}
		r.out("%s", EngineAbsentText(r.g.DB, station && sf.Role == "mirror", rec))
		return nil
	}
	r.out("%s", EngineStatusText(s, rec))
	return nil
}

// bridge is the bridge the record opened by engine status knows to play
// (nil: none, or no record open).
func (r *runner) bridge() *match.Bridge {
	if r.app == nil {
		return nil
	}
	return r.app.State().Bridge
}

// EngineAbsentText says that no bridge has run beside the record db, and
// what the record holds of the computer's equipment: at the control room's
// mirror (mirror) no bridge can run — it gives no commands — and the
// operator's station's engine moves and faults reach it in the record.
func EngineAbsentText(db string, mirror bool, rec EngineRecord) string {
	var b strings.Builder
	switch {
	case rec.Bridge != "" && rec.BridgeHere:
		fmt.Fprintf(&b, "No engine bridge runs beside %s, but the record knows the bridge %s here (process %d, since %s) plays %s: it ended without stopping (killed, or its machine went down); 'arbiter --db %s engine run --cmd PROGRAM' here takes over from it, recorded.\n",
			db, rec.Bridge, rec.BridgePID, rec.BridgeSince, rec.Computer, db)
	case rec.Bridge != "" && mirror:
		fmt.Fprintf(&b, "No engine bridge runs beside %s, the control room's mirror: the record knows the bridge %s at %s (process %d, since %s) plays %s; what it records reaches this record.\n",
			db, rec.Bridge, rec.BridgeAt, rec.BridgePID, rec.BridgeSince, rec.Computer)
	case rec.Bridge != "":
		fmt.Fprintf(&b, "No engine bridge runs beside %s, but the record knows the bridge %s at %s (process %d, since %s) plays %s: one engine per match, so start none here; if it is gone (its station died), take over from it with 'arbiter --db %s engine run --cmd PROGRAM --take-over REASON' on %s's turn.\n",
			db, rec.Bridge, rec.BridgeAt, rec.BridgePID, rec.BridgeSince, rec.Computer, db, rec.Computer)
	case mirror:
		fmt.Fprintf(&b, "No engine bridge runs beside %s, the control room's mirror: the computer's equipment runs at the operator's station; what it recorded reaches this record.\n", db)
	case rec.Last != "":
		// the game's engine moves came from a bridge that never wrote its
		// status here: one at another station, which a second would double
		fmt.Fprintf(&b, "No engine bridge has run for %s, but the record holds the engine's moves of game %d: a bridge runs at another station (the operator's); run one bridge per match.\n", db, rec.LastGame)
	default:
		fmt.Fprintf(&b, "No engine bridge has run for %s: start one with 'arbiter --db %s engine run --cmd PROGRAM'.\n", db, db)
	}
	if rec.Last != "" {
		fmt.Fprintf(&b, "  the record's last engine move: game %d, %s", rec.LastGame, rec.Last)
		if rec.LastEval != "" {
			fmt.Fprintf(&b, ", evaluation %s, depth %d", rec.LastEval, rec.LastDepth)
		}
		fmt.Fprintf(&b, ", received at %s\n", rec.LastAt)
	}
	switch {
	case rec.Plays != "" && mirror:
		fmt.Fprintf(&b, "  not yet made on the board: %s plays %s\n", rec.Computer, rec.Plays)
	case rec.Plays != "":
		fmt.Fprintf(&b, "  %s plays %s — make it on the board, then press\n", rec.Computer, rec.Plays)
	}
	if rec.Fault != "" {
		fmt.Fprintf(&b, "  the record's last technical fault (%s): %s\n", rec.FaultAt, rec.Fault)
	}
	return b.String()
}

// EngineRecord is what the record says beside the bridge's status: what the
// operator is to do now (the console says the same under the clocks).
type EngineRecord struct {
	Computer, Human string
	// Plays is the engine's move for the position the game stands in, on
	// the computer's turn, as the scoresheet labels it ("4…Bc5"); "" none.
	Plays string
	// Offer: the human's draw offer waits for the computer's answer.
	Offer bool
	// Last is the current game's last engine move in the record
	// ("5.exf6"), with its game, evaluation, depth and the instant the
	// bridge read it; "" none.
	Last, LastEval, LastAt string
	LastGame, LastDepth    int
	// Fault is the game's last technical fault in the record, FaultAt its
	// instant; "" none.
	Fault, FaultAt string
	// Bridge is the bridge the record knows to play the computer
	// (engine.start), BridgeAt where ("the record's own machine" or the
	// station), BridgePID its process, BridgeSince when it started; ""
	// none.
	Bridge, BridgeAt, BridgeSince string
	BridgePID                     int
	// BridgeHere: that bridge ran at this station (on one machine: at
	// this record), where its lock proves it gone when no status is
	// written.
	BridgeHere bool
}

// EngineRecordOf reads an EngineRecord from the state of the record.
func EngineRecordOf(st *match.State) EngineRecord {
	var rec EngineRecord
	if b := st.Bridge; b != nil && st.Match != nil {
		rec.Computer = st.Match.Computer
		rec.Bridge, rec.BridgeAt, rec.BridgePID, rec.BridgeSince = b.Bridge, fmt.Sprint(b.Where()), b.PID, b.Started.UTC().Format(time.RFC3339)
	}
	g := st.CurrentGame()
	if st.Match == nil || st.Match.Computer == "" || g == nil || !g.Live() {
		return rec
	}
	side, ok := g.Side(st.Match.Computer)
	if !ok {
		return rec
	}
	rec.Computer, rec.Human = st.Match.Computer, st.Match.Human()
	if e := g.Engine; e != nil {
		rec.Last, rec.LastEval, rec.LastDepth, rec.LastAt, rec.LastGame = e.Label(), e.Eval, e.Depth, e.Received, g.Number
	}
	for _, in := range g.Incidents {
		if in.Kind == match.IncidentTechnicalFault {
			rec.Fault, rec.FaultAt = in.Text, in.At.UTC().Format(time.RFC3339)
		}
	}
	if e := g.EngineFor(); e != nil && g.ToMove() == side {
		rec.Plays = e.Label()
	}
	rec.Offer = g.Offer != nil && g.Offer.By != side
	return rec
}

// EngineStatusText renders the bridge's status for people, with what the
// record asks of the operator (rec). While the engine searches, its last
// bestmove answered another position: only the search's evaluation is
// said, never that move, which an operator could take for the answer.
func EngineStatusText(s engine.Status, rec EngineRecord) string {
	var b strings.Builder
	name := s.Engine
	if name == "" {
		name = s.Cmd
	}
	fmt.Fprintf(&b, "Engine %s: %s", name, s.State)
	if s.PID > 0 {
		fmt.Fprintf(&b, " (process %d)", s.PID)
	}
	fmt.Fprintf(&b, ", game %d, ply %d\n", s.Game, s.Ply)
	if rec.Plays != "" {
		fmt.Fprintf(&b, "  %s plays %s — make it on the board, then press\n", rec.Computer, rec.Plays)
	}
	searching := s.State == engine.StateThinking || s.State == engine.StatePondering
	switch {
	case searching && s.Eval != "":
		fmt.Fprintf(&b, "  searching: evaluation %s, depth %d so far\n", s.Eval, s.Depth)
	case !searching && s.BestMove != "":
		fmt.Fprintf(&b, "  last move %s, evaluation %s, depth %d\n", s.BestMove, s.Eval, s.Depth)
	}
	if rec.Offer {
		ev := "none yet"
		if s.Eval != "" {
			ev = fmt.Sprintf("%s from %s's side, depth %d", s.Eval, rec.Computer, s.Depth)
		}
		fmt.Fprintf(&b, "  %s offers a draw (the engine's evaluation: %s): answer for %s with 'draw accept' or 'draw decline' (rules 8, 14)\n", rec.Human, ev, rec.Computer)
	}
	if t := s.Sent; t != nil {
		mtg := "no movestogo"
		if t.MovesToGo != nil {
			mtg = "movestogo " + strconv.Itoa(*t.MovesToGo)
		}
		fmt.Fprintf(&b, "  clocks sent at %s: wtime %d, btime %d, %s\n", t.At, t.WTime, t.BTime, mtg)
	}
	fmt.Fprintf(&b, "  restarts in this game: %d of %d\n", s.Restarts, s.MaxRestarts)
	if s.ResignBelow != nil {
		if s.SuggestResign {
			fmt.Fprintf(&b, "  the evaluation stayed at or below %+.2f for %d of the engine's moves in a row: the operator may resign for the computer (rule 14); the bridge does not\n", *s.ResignBelow, s.ResignMoves)
		} else {
			fmt.Fprintf(&b, "  resigning is suggested after %d of the engine's moves in a row at or below %+.2f\n", s.ResignMoves, *s.ResignBelow)
		}
	}
	if s.Fault != "" {
		fmt.Fprintf(&b, "  last fault: %s\n", s.Fault)
	}
	if s.Note != "" {
		fmt.Fprintf(&b, "  %s\n", s.Note)
	}
	return b.String()
}

func parseEngineMove(r *runner, a *args) (match.Command, error) {
	var m match.EngineMove
	var err error
	ints := []struct {
		name string
		to   *int
	}{{"game", &m.Game}, {"ply", &m.Ply}, {"depth", &m.Depth}, {"lines", &m.Lines}, {"from", &m.From}}
	for _, x := range ints {
		if *x.to, err = a.int(x.name, 0); err != nil {
			return nil, err
		}
	}
	for name, to := range map[string]*int64{"nodes": &m.Nodes, "bytes": &m.Bytes} {
		if v, ok := a.take(name); ok {
			if *to, err = strconv.ParseInt(v, 10, 64); err != nil {
				return nil, fmt.Errorf("--%s %q is not a whole number", name, v)
			}
		}
	}
	for name, to := range map[string]*string{"fen": &m.FEN, "uci": &m.UCI, "eval": &m.Eval, "transcript": &m.File, "sha256": &m.SHA256} {
		*to, _ = a.take(name)
	}
	if v, ok := a.take("received"); ok {
		if m.Received, err = parseTime(v); err != nil {
			return nil, err
		}
	}
	if v, ok := a.take("line-hashes"); ok && v != "" {
		m.LineHashes = strings.Split(v, ",")
	}
	m.Pondered, m.Play = a.bool("pondered"), a.bool("play")
	return m, a.done("engine move", 0)
}

// checkTranscripts checks the engine's transcripts beside the record
// against the engine.move events among moves (verify: those of the events
// it verified, so the record is read once): "" when every one present
// holds, else the first line that differs.
func (r *runner) checkTranscripts(moves []engine.Attested) (string, error) {
	rep, err := engine.CheckTranscripts(r.g.DB, moves)
	if err != nil {
		return "", err
	}
	for _, f := range rep.Checked {
		if rep.Problem == "" {
			r.tell("the engine's transcript %s holds what its engine.move events attest", f)
		}
	}
	for _, f := range rep.Missing {
		if at, ok := rep.Elsewhere[f]; ok {
			// written where its bridge ran: verify there checks it
			r.tell("the engine's transcript %s, which engine.move events attest, is not here: the bridge at %s wrote it, and verify there checks it", f, at)
			continue
		}
		fmt.Fprintf(r.env.Stderr, "arbiter: warning: the engine's transcript %s, which engine.move events attest, is not here: not checked\n", f)
	}
	return rep.Problem, nil
}
