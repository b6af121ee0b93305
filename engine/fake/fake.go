// Package fake is a small UCI engine for the tests of the computer's
// equipment (docs/engine.md): it plays a legal move after a set delay and,
// on cue, crashes, hangs, answers slowly or plays an illegal move, so that
// every technical fault the bridge must handle can be caused at a chosen
// moment by a test. A test binary runs it as a separate process by calling
// Main from its TestMain when its first argument is Arg ("-fake-engine"),
// so no program has to be built for it.
//
// Options (after Arg):
//
//	-name NAME     the engine's "id name" (default "Fake Engine")
//	-delay D       how long it thinks before answering (default 20ms)
//	-score S       the score it reports, as UCI says it (default "cp 17")
//	-cue FILE      a file of cues, one a line, read on each command and every 10 ms
//	-no-opponent   it does not declare the option UCI_Opponent (Stockfish
//	               does not)
//	-prefer M,M…   the moves it plays when legal, the first legal one (a game
//	               that never ends: g1f3,f3g1 shuffles a knight); else the
//	               first legal move in UCI order
//
// A cue is "ACTION" (at once) or "go N ACTION" (when the N-th "go" of this
// process arrives); ACTION is crash (exit with status 3), hang (answer
// nothing more, not even isready or quit), illegal (the next bestmove is
// an illegal move), "slow D" (answer the next go only after D) or
// "score S" (report the score S from now on, e.g. "score cp -650"). A cue
// that fires is removed from the file, so a restarted engine does not act
// on it again.
package fake

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/notnil/chess"
)

// Arg is the first argument that makes a test binary the fake engine.
const Arg = "-fake-engine"

// engine is the fake's state.
type engine struct {
	out     *bufio.Writer
	outMu   sync.Mutex
	name    string
	delay   time.Duration
	score   string
	cue     string
	prefer  []string
	pos     *chess.Position
	gos     int
	hung    bool
	illegal bool
	slow    time.Duration
	// search in progress: its position, whether it ponders, and when it
	// answers (zero while pondering)
	searching bool
	pondering bool
	searchPos *chess.Position
	answerAt  time.Time
	// noOpponent: the option UCI_Opponent is not declared
	noOpponent bool
}

// Main runs the fake engine on in and out until "quit" or the end of in,
// and returns the process's exit status.
func Main(args []string, in io.Reader, out io.Writer) int {
	fs := flag.NewFlagSet("fake-engine", flag.ContinueOnError)
	name := fs.String("name", "Fake Engine", "id name")
	delay := fs.Duration("delay", 20*time.Millisecond, "thinking time")
	score := fs.String("score", "cp 17", "the reported score")
	cue := fs.String("cue", "", "file of cues")
	prefer := fs.String("prefer", "", "moves played when legal")
	noOpponent := fs.Bool("no-opponent", false, "do not declare UCI_Opponent")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	e := &engine{out: bufio.NewWriter(out), name: *name, delay: *delay, score: *score, cue: *cue, noOpponent: *noOpponent}
	if *prefer != "" {
		e.prefer = strings.Split(*prefer, ",")
	}
	e.pos = startPosition()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(lines)
	}()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if code, done := e.checkCues(false); done {
			return code
		}
		if e.searching && !e.pondering && !e.hung && !time.Now().Before(e.answerAt) {
			e.answer()
		}
		select {
		case line, ok := <-lines:
			if !ok {
				return 0
			}
			if e.hung {
				continue // a hung engine reads on and answers nothing
			}
			if code, done := e.command(line); done {
				return code
			}
		case <-tick.C:
		}
	}
}

func startPosition() *chess.Position { return chess.NewGame().Position() }

func (e *engine) say(format string, a ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", a...)
	e.out.Flush()
}

// command obeys one line of the GUI; done with the exit status on quit or
// a crash.
func (e *engine) command(line string) (int, bool) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return 0, false
	}
	switch f[0] {
	case "uci":
		e.say("id name %s", e.name)
		e.say("id author the Arbiter tests")
		e.say("option name Hash type spin default 16 min 1 max 1024")
		e.say("option name Threads type spin default 1 min 1 max 8")
		e.say("option name Ponder type check default false")
		if !e.noOpponent {
			e.say("option name UCI_Opponent type string default")
		}
		e.say("uciok")
	case "isready":
		e.say("readyok")
	case "ucinewgame", "setoption", "debug", "register":
	case "position":
		if p, err := parsePosition(f[1:]); err == nil {
			e.pos = p
		} else {
			e.say("info string %v", err)
		}
	case "go":
		e.gos++
		if code, done := e.checkCues(true); done {
			return code, true
		}
		e.searching, e.searchPos = true, e.pos
		e.pondering = len(f) > 1 && f[1] == "ponder"
		e.answerAt = time.Now().Add(e.delay + e.slow)
		e.slow = 0
	case "ponderhit":
		if e.searching && e.pondering {
			e.pondering = false
			e.answerAt = time.Now().Add(e.delay)
		}
	case "stop":
		if e.searching {
			e.answer()
		}
	case "quit":
		return 0, true
	}
	return 0, false
}

// answer ends the search with its move (and the reply it expects).
func (e *engine) answer() {
	e.searching, e.pondering = false, false
	moves := sortedMoves(e.searchPos)
	if len(moves) == 0 {
		e.say("bestmove (none)")
		return
	}
	best := moves[0]
	for _, m := range e.prefer {
		if find(e.searchPos, m) != nil {
			best = m
			break
		}
	}
	e.say("info depth 3 seldepth 4 score %s nodes 1234 nps 61700 time 20 pv %s", e.score, best)
	if e.illegal {
		e.illegal = false
		e.say("bestmove %s", illegalMove(e.searchPos))
		return
	}
	if replies := sortedMoves(e.searchPos.Update(find(e.searchPos, best))); len(replies) > 0 {
		e.say("bestmove %s ponder %s", best, replies[0])
		return
	}
	e.say("bestmove %s", best)
}

// checkCues acts on the cues that are due: those without "go N" at any
// time, those with it when the N-th go has just arrived (atGo).
func (e *engine) checkCues(atGo bool) (int, bool) {
	if e.cue == "" {
		return 0, false
	}
	b, err := os.ReadFile(e.cue)
	if err != nil {
		return 0, false
	}
	var keep []string
	code, done := 0, false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		due := true
		if f[0] == "go" {
			n, err := strconv.Atoi(f[1])
			due = atGo && err == nil && n == e.gos
			f = f[2:]
		}
		if !due || done || len(f) == 0 {
			keep = append(keep, line)
			continue
		}
		switch f[0] {
		case "crash":
			code, done = 3, true
		case "hang":
			e.hung = true
		case "illegal":
			e.illegal = true
		case "slow":
			if len(f) > 1 {
				e.slow, _ = time.ParseDuration(f[1])
			}
		case "score":
			if len(f) > 2 {
				e.score = strings.Join(f[1:], " ")
			}
		}
	}
	rest := strings.Join(keep, "\n")
	if rest != strings.TrimSpace(string(b)) {
		os.WriteFile(e.cue, []byte(rest), 0o644)
	}
	return code, done
}

// parsePosition reads "startpos|fen FEN [moves M...]".
func parsePosition(f []string) (*chess.Position, error) {
	var pos *chess.Position
	rest := f
	switch {
	case len(f) > 0 && f[0] == "startpos":
		pos, rest = startPosition(), f[1:]
	case len(f) > 6 && f[0] == "fen":
		opt, err := chess.FEN(strings.Join(f[1:7], " "))
		if err != nil {
			return nil, err
		}
		pos, rest = chess.NewGame(opt).Position(), f[7:]
	default:
		return nil, fmt.Errorf("bad position")
	}
	if len(rest) > 0 && rest[0] == "moves" {
		for _, m := range rest[1:] {
			mv := find(pos, m)
			if mv == nil {
				return nil, fmt.Errorf("illegal move %s", m)
			}
			pos = pos.Update(mv)
		}
	}
	return pos, nil
}

func sortedMoves(pos *chess.Position) []string {
	var ms []string
	for _, m := range pos.ValidMoves() {
		ms = append(ms, m.String())
	}
	sort.Strings(ms)
	return ms
}

func find(pos *chess.Position, uci string) *chess.Move {
	for _, m := range pos.ValidMoves() {
		if m.String() == uci {
			return m
		}
	}
	return nil
}

// illegalMove is a well-formed move that is not legal in pos.
func illegalMove(pos *chess.Position) string {
	legal := map[string]bool{}
	for _, m := range sortedMoves(pos) {
		legal[m] = true
	}
	for _, m := range []string{"a1a8", "h1h8", "e1e8", "a2a5", "h7h2"} {
		if !legal[m] {
			return m
		}
	}
	return "a1h8"
}
