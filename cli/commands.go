package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/engine"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/service"
)

const (
	rolesArbiter = "arbiter"
	rolesAnyone  = "arbiter, operator, white, black"
	rolesRead    = "anyone (writes no event)"
)

func init() {
	register(&command{name: "where", usage: "where", roles: rolesRead, summary: "Print the database path in use.",
		run: func(r *runner, a *args) error {
			if err := a.done("where", 0); err != nil {
				return err
			}
			r.out("%s\n", r.g.DB)
			return nil
		}})
	register(&command{name: "help", usage: "help [COMMAND]", roles: rolesRead, summary: "Show the commands.", run: runHelp})
	register(&command{name: "match new", writes: true, roles: rolesArbiter,
		usage:   "match new --title T --player NAME --player NAME [--computer NAME] [--operator NAME]... [--arbiter NAME] [--appeals NAME]... [--site S] [--games N] [--tc SPEC|PRESET] [--tc NAME=SPEC] [--white NAME|lots] [--pin PASSPHRASE|--key-file FILE] [--forfeit-after DURATION] [--tz Area/City]",
		summary: "Create the match (one per database).", parse: parseMatchNew, told: toldMatchNew})
	register(&command{name: "game schedule", writes: true, roles: rolesArbiter, usage: "game schedule [N] --start TIME",
		summary: "Set the scheduled start of game N (default: the next game).", parse: parseGameSchedule, told: toldSchedule})
	register(&command{name: "game start", writes: true, roles: rolesArbiter, usage: "game start [N] [--fen FEN [--white H:MM:SS[.fff]] [--black H:MM:SS[.fff]]]",
		summary: "Start the next game (or game N): White's clock starts at --at (Article 6.5); --fen: from a position, the side to move's clock.", parse: parseGameStart, told: toldGameStart})
	register(&command{name: "game postpone", writes: true, roles: rolesArbiter, usage: "game postpone [N] --reason R",
		summary: "Postpone a game not yet started; colours stay with the game number (rule 3).", parse: parseGamePostpone, told: toldPostpone})
	register(&command{name: "move", writes: true, roles: rolesAnyone + " (players and the operator only for their own side)",
		usage: "move MOVE [--pressed] [--not-engine --reason TEXT]", summary: "Record the move of the side to move (SAN, UCI or long algebraic) and press its clock; --not-engine: the computer's move is not the one its engine chose (rules 9, 10).", parse: parseMove, told: toldMove})
	register(&command{name: "press", writes: true, roles: rolesAnyone + " (for the running side)", usage: "press",
		summary: "Press the running clock before the move is recorded; follow with 'move MOVE --pressed'.", parse: parsePress, told: toldPress})
	register(&command{name: "pause", writes: true, roles: "arbiter; white, black or operator with --call (never the computer's clock, rule 7)",
		usage: "pause [--reason R] [--call] [--cause fault|power-failure|unplayable|correction|other]", summary: "Stop the clocks (6.12a); --call: a player stops them to call the arbiter (6.12b); --cause says why (never fault on the computer's turn, rule 7).", parse: parsePause, told: toldAs(match.KindPause, "pause")})
	register(&command{name: "resume", writes: true, roles: rolesArbiter, usage: "resume",
		summary: "Start the clock of the side to move (6.12c).", parse: parseResume, told: toldAs(match.KindResume, "resume")})
	register(&command{name: "adjust", writes: true, roles: rolesArbiter,
		usage:   "adjust white|black (+|-)DURATION | =H:MM:SS[.fff] [--moves N] [--period P] --reason R",
		summary: "Correct a clock: add or subtract time, or set it; optionally the move counter and period.", parse: parseAdjust, told: toldAdjust})
	register(&command{name: "draw offer", writes: true, roles: rolesAnyone + " (operator only for the computer)", usage: "draw offer [white|black]",
		summary: "Record a draw offer (default: your own side with --as white|black, the computer's with --as operator, else the side that made the last move).", parse: parseDrawOffer, told: toldSide(match.KindDrawOffer, "draw offer by")})
	register(&command{name: "draw accept", writes: true, roles: rolesAnyone + " (operator only for the computer)", usage: "draw accept",
		summary: "Accept the pending draw offer: the game is drawn.", parse: func(r *runner, a *args) (match.Command, error) { return match.DrawAccept{}, a.done("draw accept", 0) },
		told: toldAs(match.KindDrawAccept, "acceptance of the draw offer")})
	register(&command{name: "draw decline", writes: true, roles: rolesAnyone + " (operator only for the computer)", usage: "draw decline",
		summary: "Decline the pending draw offer.", parse: func(r *runner, a *args) (match.Command, error) { return match.DrawDecline{}, a.done("draw decline", 0) },
		told: toldAs(match.KindDrawDecline, "decline of the draw offer")})
	register(&command{name: "resign", writes: true, roles: rolesAnyone + " (operator only for the computer, rule 14)", usage: "resign white|black",
		summary: "The side resigns.", parse: parseResign, told: toldLoss("resignation of")})
	register(&command{name: "result", writes: true, roles: rolesArbiter, usage: "result 1-0|0-1|1/2-1/2 --reason R",
		summary: "End the game by the arbiter's decision.", parse: parseResult, told: toldEnd("the arbiter's decision")})
	register(&command{name: "incident", writes: true, roles: "depends on the kind (see the table of incident kinds)",
		usage:   "incident KIND --text T [--name NAME] [--in-hall|--remote] [--result R] [--refers SEQ]",
		summary: "Log an incident; some kinds have guards and effects (docs/rules.md).", parse: parseIncident, told: toldIncident})
	register(&command{name: "flag", writes: true, roles: rolesAnyone + "; 'both' only the arbiter", usage: "flag white|black | flag both --order-unknown",
		summary: "Record a fallen flag (observed or claimed, 6.8) and apply 6.9; 'both --order-unknown' records 6.11.", parse: parseFlag, told: toldFlag})
	register(&command{name: "status", reads: true, roles: rolesRead, usage: "status [--json]",
		summary: "Show the match and the current game, read at --at (an earlier --at shows the match as it stood then).", run: runStatus})
	register(&command{name: "verify", reads: true, roles: rolesRead, usage: "verify [--head HEX] [--key FINGERPRINT] [--match ID] [--ca FINGERPRINT|FILE]",
		summary: "Check the hash chain and every signature; print the head. --head: an earlier head must still be in the chain; --key: the arbiter's first key must have this fingerprint; --match: the match must have this id; --ca: the stations' keys must be certified by this CA (its fingerprint, or its certificate's file).", run: runVerify})
	register(&command{name: "play", writes: true, roles: "each line as its --as says", usage: "play SCRIPT [-v]",
		summary: "Run a script of 'OFFSET [--as ROLE] COMMAND [ARGS]' lines.", run: runPlay})
}

func runHelp(r *runner, a *args) error {
	if len(a.pos) == 1 && commands[a.pos[0]] == nil {
		if group := groupCommands(a.pos[0]); len(group) > 0 {
			printGroupHelp(r, a.pos[0], group)
			return nil
		}
	}
	if len(a.pos) > 0 {
		c, _, err := lookup(a.pos)
		if err != nil {
			return err
		}
		r.out("usage: arbiter %s\n%s\nGiven by: %s\n", c.usage, c.summary, c.roles)
		return nil
	}
	r.out("usage: arbiter [--db FILE] [--at TIME] [--as arbiter|operator|white|black] [--pin PASSPHRASE] [--secret PASSPHRASE] [--key-file FILE] COMMAND [ARGS]\n")
	r.out("With no command, arbiter opens the console. Database: %s\n\nCommands:\n", r.g.DB)
	for _, c := range Commands() {
		if len(c.usage) > 60 {
			// a long usage on a line of its own: every summary starts in
			// one column
			r.out("  %s\n  %-60s %s\n", c.usage, "", c.summary)
			continue
		}
		r.out("  %-60s %s\n", c.usage, c.summary)
	}
	r.out("\nSee docs/cli.md for the full reference.\n")
	return nil
}

func parseMatchNew(r *runner, a *args) (match.Command, error) {
	spec := match.MatchNew{Controls: map[string]string{}}
	spec.Title, _ = a.take("title")
	spec.Site, _ = a.take("site")
	spec.Arbiter, _ = a.take("arbiter")
	spec.Computer, _ = a.take("computer")
	spec.White, _ = a.take("white")
	spec.PIN, _ = a.take("pin")
	if tz, ok := a.take("tz"); ok {
		spec.TimeZone = tz
	} else {
		spec.TimeZone = service.MachineZone(r.env.Getenv)
	}
	if kf, ok := a.take("key-file"); ok {
		k, err := readKeyFile(kf)
		if err != nil {
			return nil, err
		}
		spec.ArbiterKey = k
	}
	if spec.PIN == "" && spec.ArbiterKey == nil {
		// The arbiter's credential given before the command (--pin, or
		// --key-file as the arbiter) or in ARBITER_PIN is the new match's:
		// a passphrase given is never silently dropped to make an
		// unprotected match.
		spec.PIN = r.g.PIN
		if spec.PIN == "" && r.g.Role == match.RoleArbiter {
			spec.ArbiterKey = r.key
		}
	}
	players := a.takeAll("player")
	if len(players) != 2 {
		return nil, fmt.Errorf("match new needs exactly two --player NAME, got %d", len(players))
	}
	spec.Players = [2]string{players[0], players[1]}
	spec.Operators = a.takeAll("operator")
	spec.Appeals = a.takeAll("appeals")
	for _, tc := range a.takeAll("tc") {
		// a control never contains "=": NAME=SPEC names a player, and the
		// core refuses a name that is not one
		if name, s, ok := strings.Cut(tc, "="); ok {
			if _, twice := spec.Controls[name]; twice {
				return nil, fmt.Errorf("--tc gives %s a control twice: give one --tc \"%s=SPEC\"", name, name)
			}
			spec.Controls[name] = s
		} else if spec.Control == "" {
			spec.Control = tc
		} else {
			return nil, fmt.Errorf("--tc given twice for both players: give one --tc SPEC, or --tc \"NAME=SPEC\" per player")
		}
	}
	n, err := a.int("games", 6)
	if err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("--games %d is not possible: give --games between 1 and 100", n)
	}
	spec.Games = n
	if v, ok := a.take("forfeit-after"); ok {
		d, err := match.ParseDuration(v)
		if err != nil {
			return nil, err
		}
		spec.ForfeitAfter = d
	}
	if err := a.done("match new", 0); err != nil {
		return nil, err
	}
	if spec.Title == "" {
		return nil, fmt.Errorf("match new needs --title")
	}
	return spec, nil
}

// toldMatchNew says what match was created, and the arbiter's key to write
// down.
func toldMatchNew(r *runner, _ match.Result) {
	st := r.app.State()
	r.out("match %q created: %s vs %s, %d games, %s; game 1: %s has White (%s)\n", st.Match.Title, st.Match.Players[0], st.Match.Players[1],
		st.Match.GamesPlanned, controlsText(st.Match), st.Match.Game1White, lotsText(st.Match.Lots))
	if r.inPlay {
		return
	}
	r.out("the match id: %s\n", match.HexBlocks(st.Match.ID))
	if c := st.ArbiterCredential(); c != nil {
		// one line says what to write down and why (before, "(write it
		// down: …)" and "(write both down: …)" said it twice)
		r.out("the arbiter's key: %s\n(write both down on paper, away from this computer: 'arbiter verify --key KEY --match ID' checks the record against them and tells this match from any other, also one made with the same key file; a record re-made from its start under another key verifies without them)\n", match.HexBlocks(c.Fingerprint()))
	}
}

// controlsText is the match's time control for people ("time control
// 40/2h, 20/1h, 30m"), each player's when they differ: the default control
// (acm1996) is the 1996 match's, which a match made without --tc gets.
func controlsText(m *match.Match) string {
	a, b := m.Controls[m.Players[0]], m.Controls[m.Players[1]]
	if a.String() == b.String() {
		return "time control " + a.Readable()
	}
	return fmt.Sprintf("time controls %s %s / %s %s", m.Players[0], a.Readable(), m.Players[1], b.Readable())
}

func lotsText(l string) string {
	if l == "app" {
		return "lots drawn by Arbiter"
	}
	return "lots drawn at the board"
}

// gameNumber reads an optional game number argument.
func gameNumber(a *args) (int, error) {
	if len(a.pos) == 0 {
		return 0, nil
	}
	n, err := strconv.Atoi(a.pos[0])
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a game number", a.pos[0])
	}
	return n, nil
}

func parseGameSchedule(r *runner, a *args) (match.Command, error) {
	start, ok := a.take("start")
	if !ok {
		return nil, fmt.Errorf("game schedule needs --start TIME")
	}
	t, err := parseTime(start)
	if err != nil {
		return nil, err
	}
	n, err := gameNumber(a)
	if err != nil {
		return nil, err
	}
	return match.GameSchedule{Game: n, Start: t}, a.done("game schedule", 1)
}

func parseGameStart(r *runner, a *args) (match.Command, error) {
	var from match.StartPosition
	from.FEN, _ = a.take("fen")
	for _, x := range []struct {
		name string
		d    **time.Duration
	}{{"white", &from.White}, {"black", &from.Black}} {
		if v, ok := a.take(x.name); ok {
			d, err := match.ParseClockReading(v)
			if err != nil {
				return nil, err
			}
			*x.d = &d
		}
	}
	n, err := gameNumber(a)
	if err != nil {
		return nil, err
	}
	return match.GameStart{Game: n, StartPosition: from}, a.done("game start", 1)
}

// toldGameStart says which game started, the players' colours, the event
// and the clocks ("game 1 started as event 2: Deep Blue (White) vs Garry
// Kasparov (Black); White's clock runs (White 2:00:00, Black 2:00:00)").
func toldGameStart(r *runner, res match.Result) {
	e, ok := recordedEvent(res, match.KindGameStart, nil)
	if !ok || r.inPlay {
		return
	}
	if g := r.app.State().Game(e.game); g != nil {
		r.out("game %d started as event %d: %s (White) vs %s (Black)%s\n", g.Number, e.seq, g.White, g.Black, r.after(res, e))
	}
}

func parseGamePostpone(r *runner, a *args) (match.Command, error) {
	reason, _ := a.take("reason")
	n, err := gameNumber(a)
	if err != nil {
		return nil, err
	}
	return match.GamePostpone{Game: n, Reason: reason}, a.done("game postpone", 1)
}

func parseMove(r *runner, a *args) (match.Command, error) {
	pressed, notEngine := a.bool("pressed"), a.bool("not-engine")
	reason, _ := a.take("reason")
	if err := a.done("move", 1); err != nil {
		return nil, err
	}
	if len(a.pos) != 1 {
		return nil, fmt.Errorf("move needs the move, e.g. 'move Nf3' or 'move g1f3'")
	}
	return match.Move{Input: a.pos[0], Pressed: pressed, NotEngine: notEngine, Reason: reason}, nil
}

func parsePress(r *runner, a *args) (match.Command, error) {
	return match.Press{}, a.done("press", 0)
}

func parsePause(r *runner, a *args) (match.Command, error) {
	var p match.Pause
	p.Reason, _ = a.take("reason")
	p.Cause, _ = a.take("cause")
	p.Call = a.bool("call")
	if err := a.done("pause", 0); err != nil {
		return nil, err
	}
	if p.Cause == "" {
		p.Cause = match.CauseOther
	}
	return p, nil
}

func parseResume(r *runner, a *args) (match.Command, error) {
	return match.Resume{}, a.done("resume", 0)
}

func parseSideArg(a *args, command string) (clock.Side, error) {
	if len(a.pos) == 0 {
		return 0, fmt.Errorf("%s needs a side: white or black", command)
	}
	s, err := clock.ParseSide(a.pos[0])
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a side: use white or black", command, a.pos[0])
	}
	return s, nil
}

// ParseAdjustment reads "+5m", "-1m30s" or "=1:59:30.5" (service.ParseAdjustment).
func ParseAdjustment(s string) (match.Adjustment, error) { return service.ParseAdjustment(s) }

func parseAdjust(r *runner, a *args) (match.Command, error) {
	reason, _ := a.take("reason")
	var moves, period *int
	if _, ok := a.flags["moves"]; ok {
		n, err := a.int("moves", 0)
		if err != nil {
			return nil, err
		}
		moves = &n
	}
	if _, ok := a.flags["period"]; ok {
		n, err := a.int("period", 0)
		if err != nil {
			return nil, err
		}
		period = &n
	}
	if err := a.done("adjust", 2); err != nil {
		return nil, err
	}
	side, err := parseSideArg(a, "adjust")
	if err != nil {
		return nil, err
	}
	if len(a.pos) != 2 {
		return nil, fmt.Errorf("adjust needs the correction after the side: +5m, -1m30s or =1:59:30")
	}
	adj, err := ParseAdjustment(a.pos[1])
	if err != nil {
		return nil, err
	}
	adj.Moves, adj.Period = moves, period
	return match.Adjust{Side: side, Adjustment: adj, Reason: reason}, nil
}

func parseDrawOffer(r *runner, a *args) (match.Command, error) {
	if err := a.done("draw offer", 1); err != nil {
		return nil, err
	}
	var side *clock.Side
	if len(a.pos) == 1 {
		s, err := parseSideArg(a, "draw offer")
		if err != nil {
			return nil, err
		}
		side = &s
	}
	return match.DrawOffer{Side: side}, nil
}

func parseResign(r *runner, a *args) (match.Command, error) {
	if err := a.done("resign", 1); err != nil {
		return nil, err
	}
	side, err := parseSideArg(a, "resign")
	if err != nil {
		return nil, err
	}
	return match.Resign{Side: side}, nil
}

func parseResult(r *runner, a *args) (match.Command, error) {
	reason, _ := a.take("reason")
	if err := a.done("result", 1); err != nil {
		return nil, err
	}
	if len(a.pos) != 1 {
		return nil, fmt.Errorf("result needs 1-0, 0-1 or 1/2-1/2")
	}
	return match.Decide{Result: a.pos[0], Reason: reason}, nil
}

func parseIncident(r *runner, a *args) (match.Command, error) {
	var ia match.IncidentArgs
	ia.Text, _ = a.take("text")
	ia.Name, _ = a.take("name")
	ia.Result, _ = a.take("result")
	ia.InHall = a.bool("in-hall")
	ia.Remote = a.bool("remote")
	if v, ok := a.take("refers"); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--refers %q is not an event number", v)
		}
		ia.Refers = n
	}
	if err := a.done("incident", 1); err != nil {
		return nil, err
	}
	if len(a.pos) != 1 {
		return nil, fmt.Errorf("incident needs a kind: one of %s", strings.Join(match.IncidentKinds(), ", "))
	}
	return match.LogIncident{Incident: a.pos[0], IncidentArgs: ia}, nil
}

func parseFlag(r *runner, a *args) (match.Command, error) {
	unknown := a.bool("order-unknown")
	if err := a.done("flag", 1); err != nil {
		return nil, err
	}
	if len(a.pos) != 1 {
		return nil, fmt.Errorf("flag needs white, black or both")
	}
	return match.Flag{Side: a.pos[0], OrderUnknown: unknown}, nil
}

// toldFlag prints the verdict (6.9), in the command line's words,
// and then, as every writing command, the flag recorded and what follows.
func toldFlag(r *runner, res match.Result) {
	var p match.FlagPayload
	e, ok := recordedEvent(res, match.KindFlag, &p)
	if !ok || r.inPlay {
		return
	}
	if v, ok := res.Verdict(); ok && v.Reason != "" {
		r.out("%s\n", phrase.Translate(v.Why, say))
	}
	what := "flag of both sides"
	if p.Side != "both" {
		what = "flag of " + r.sideWho(e.game, p.Side)
	}
	r.out("%s %s%s\n", what, e.as(), r.after(res, e))
}

func runStatus(r *runner, a *args) error {
	asJSON := a.bool("json")
	if err := a.done("status", 0); err != nil {
		return err
	}
	if p := r.app.Problem(); p != "" {
		fmt.Fprintf(r.env.Stderr, "arbiter: warning: the record does not verify (%s): what follows stops before that event, and nothing more can be written; %s\n", p, brokenRecordAction)
	}
	st := r.app.State()
	if r.g.AtSet && r.g.At.Before(st.LastAt) {
		past, err := match.StateAt(r.ctx, r.db, r.g.At)
		if err != nil {
			return err
		}
		st = past
	}
	s := st.StatusAt(r.g.At)
	if asJSON {
		enc := json.NewEncoder(r.env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	r.out("%s", StatusText(s))
	return nil
}

// StatusText renders a status for people.
func StatusText(s match.Status) string {
	var b strings.Builder
	if s.Match == nil {
		return "No match yet: create one with 'arbiter match new'.\n"
	}
	fmt.Fprintf(&b, "%s — %s\n", s.Match.Title, s.Match.Result)
	for _, g := range s.Games {
		fmt.Fprintf(&b, "  game %d: %s – %s  %s (%s)\n", g.Number, g.White, g.Black, g.Result, g.State)
	}
	if g := s.Game; g != nil {
		fmt.Fprintf(&b, "Game %d (%s), ply %d, %s to move%s\n", g.Number, g.State, g.Ply, g.ToMove, ifs(g.LastMove != "", ", last move "+g.LastMove))
		zone := &match.Match{TimeZone: s.Match.TimeZone}
		fmt.Fprintf(&b, "  White %s: %s (%s)%s\n", g.White, g.Clock.White.Display, clockCount(g.Clock.White), flagText(g.Clock.White.Flag, zone))
		fmt.Fprintf(&b, "  Black %s: %s (%s)%s\n", g.Black, g.Clock.Black.Display, clockCount(g.Clock.Black), flagText(g.Clock.Black.Flag, zone))
		fmt.Fprintf(&b, "  running: %s; result %s%s\n", g.Clock.Running, g.Result, ifs(g.Termination != "", " "+g.Termination))
		if g.DrawOffer != "" {
			by := g.White
			if g.DrawOffer == "black" {
				by = g.Black
			}
			fmt.Fprintf(&b, "  draw offer by %s (%s): not yet answered\n", g.DrawOffer, by)
		}
	}
	if n := len(s.RecordedLate); n > 0 {
		l := s.RecordedLate[n-1]
		fmt.Fprintf(&b, "Recorded late (the arbiter's credential): %d event(s); the last, event %d (%s), claims %s and was received %s\n", n, l.Seq, l.Kind, millisecond(l.At), millisecond(l.Received))
	}
	return b.String()
}

// millisecond says an instant of status --json (RFC 3339 to the
// nanosecond) to the millisecond, as --at is written and as the refusals
// say instants: the text's recorded-late line said the receipt to the
// nanosecond of the machine's clock ("2026-12-06T07:51:27.580040525Z").
// The JSON keeps its nanoseconds.
func millisecond(rfc3339 string) string {
	t, err := time.Parse(time.RFC3339Nano, rfc3339)
	if err != nil {
		return rfc3339
	}
	return t.Truncate(time.Millisecond).Format("2006-01-02T15:04:05.999Z07:00")
}

func ifs(c bool, s string) string {
	if c {
		return s
	}
	return ""
}

// clockCount is a clock's period, the move its side is on and the moves
// still due before the next control, as the console's clock says them
// ("period 2, move 41, 20 to control"): the side's moves made are the JSON's
// "moves" (40 there); the text said "move 40" for them, one less than the
// console's "move 41" at the same instant.
func clockCount(c match.SideClock) string {
	s := fmt.Sprintf("period %d, move %d", c.Period, c.Moves+1)
	if c.MovesToControl != nil {
		s += fmt.Sprintf(", %d to control", *c.MovesToControl)
	}
	return s
}

// flagText says a fallen flag with its instant in the match's zone, as the
// flag command's verdict and the console say it ("15:01:00.000 EST"); it
// said UTC whatever the match's zone.
func flagText(f any, m *match.Match) string {
	fi, ok := f.(match.FlagInfo)
	if !ok {
		return ""
	}
	text := "  FLAG FALLEN"
	if t, err := time.Parse(time.RFC3339Nano, fi.At); err == nil {
		text += " at " + m.Instant(t)
	}
	switch {
	case fi.OrderUnknown:
		text += " (order unknown, 6.11: not claimable)"
	case fi.First:
		text += " (first)"
	}
	return text
}

func runVerify(r *runner, a *args) error {
	head, _ := a.take("head")
	key, _ := a.take("key")
	id, _ := a.take("match")
	ca, caGiven := a.take("ca")
	if err := a.done("verify", 0); err != nil {
		return err
	}
	head = strings.Join(strings.Fields(head), "") // the console prints it in blocks of eight
	if head != "" && (len(head) != 64 || strings.Trim(strings.ToLower(head), "0123456789abcdef") != "") {
		return fmt.Errorf("--head must be 64 hexadecimal digits as printed by 'arbiter verify' (spaces between them are ignored)")
	}
	key = strings.ToLower(strings.Join(strings.Fields(key), ""))
	if key != "" && (len(key) < 16 || len(key) > 64 || strings.Trim(key, "0123456789abcdef") != "") {
		return fmt.Errorf("--key must be the arbiter's key fingerprint as printed on the report: 16 to 64 hexadecimal digits (spaces between them are ignored)")
	}
	id = strings.ToLower(strings.Join(strings.Fields(id), ""))
	if id != "" && (len(id) != match.MatchIDDigits || strings.Trim(id, "0123456789abcdef") != "") {
		return fmt.Errorf("--match must be the match id as printed by 'arbiter match new' and on the report: %d hexadecimal digits (spaces between them are ignored)", match.MatchIDDigits)
	}
	if caGiven {
		fp, err := caAnchor(ca)
		if err != nil {
			return err
		}
		ca = fp
	}
	want := match.Anchors{Head: strings.ToLower(head), Key: key, MatchID: id, CA: ca}
	rep, evs, err := match.VerifyRecordRead(r.ctx, r.db, want)
	if err != nil {
		return err
	}
	if !rep.OK {
		return fmt.Errorf("the record does not verify (%s): %s", rep.Problem, brokenRecordAction)
	}
	moves, err := engine.Attestations(evs)
	if err != nil {
		return err
	}
	if problem, err := r.checkTranscripts(moves); err != nil {
		return err
	} else if problem != "" {
		return fmt.Errorf("the record verifies (its head is %s), but %s", rep.Head, problem)
	}
	r.out("%s\n", rep.Head)
	r.tell("%s verified; the chain is intact", count(int(rep.Events), "event", "events"))
	switch s := rep.Seal; {
	case !s.Protected:
		r.tell("unprotected match: the events are unsigned, so only the hash chain was checked; a rewritten chain is caught only with --head")
	case !s.Signed:
		r.tell("this older record has an arbiter PIN but no signatures: only the hash chain was checked")
	default:
		r.tell("%s verified; the arbiter's key is %s", count(rep.Signatures, "signature", "signatures"), match.HexBlocks(s.ArbiterKey))
		if s.HeadSeq == 0 {
			r.tell("the arbiter has signed no head yet (he signs at each game end and at an export given with --pin)")
		} else {
			r.tell("%s", signedHeadLine(s.HeadSeq, rep.Unsigned))
		}
		r.tell("%s", endLine(rep.Events))
		for _, line := range verifyKeyHistory(s.ArbiterKeys, s.ArbiterKey) {
			r.tell("%s", line)
		}
		claimed := false
		for _, e := range evs {
			claimed = claimed || e.Kind == match.KindStationClaim
		}
		if line := stationKeysLine(rep, claimed); line != "" {
			r.tell("%s", line)
		}
	}
	if rep.StationsCA != "" {
		r.tell("the match's CA, which anchors the stations' keys ('verify --ca' checks it): %s", match.HexBlocks(rep.StationsCA))
	}
	if s := rep.Seal; s.MatchID != "" {
		r.tell("the match id is %s ('verify --match' checks it)", match.HexBlocks(s.MatchID))
	} else if rep.Events > 0 {
		r.tell("this record has no match id (it was made before match ids were recorded), so 'verify --match' fails on it")
	}
	// what the file alone cannot prove, said when nothing from outside it
	// was given (branch htrust; docs/reliability.md, "What verify proves
	// from the file alone")
	if want.None() && rep.Events > 0 {
		r.tell("%s", unanchoredLine)
	}
	return nil
}

// stationKeysLine is what verify says of the stations' keys in a record
// served by stations (docs/stations.md, "Whose key a system event
// carries"): from which claim on the match's CA certifies them, or, when
// it holds claims (claimed) none of which certifies one, that it is a
// record made before stations certified their keys; "" for a record of
// one machine.
func stationKeysLine(rep match.RecordReport, claimed bool) string {
	switch {
	case rep.StationsCertifiedFrom > 0:
		return fmt.Sprintf("the stations' keys are certified by the match's CA from event %d, the first claim of authority that carries it: every later event without a command's signature is signed by the authority's certified key", rep.StationsCertifiedFrom)
	case claimed:
		return "the stations' keys are not certified in this record (its claims of authority carry no certificate of the match's CA: they were made before stations certified their keys), so an event without a command's signature was checked for its kind and its station's signature only"
	}
	return ""
}

// signedHeadLine says the last head the arbiter signed and the events
// after it. Before, a head signed at the last event read "…; 0 events
// after it are signed by their roles but not yet by a head".
func signedHeadLine(head, unsigned int64) string {
	switch unsigned {
	case 0:
		return fmt.Sprintf("the arbiter signed the head at event %d, the last event", head)
	case 1:
		return fmt.Sprintf("the arbiter signed the head at event %d; 1 event after it is signed by its role but not yet by a head", head)
	}
	return fmt.Sprintf("the arbiter signed the head at event %d; %d events after it are signed by their roles but not yet by a head", head, unsigned)
}

// endLine says plainly what no signature in the file covers (branch
// hanchor; docs/reliability.md, "The arbiter's latest head signature"):
// where the record ends. Its last events deleted with the heads signed
// over them leave an earlier record, which verifies; a head the arbiter
// signed with a command of his is found missing, one he signed alone is
// not.
func endLine(events int64) string {
	return fmt.Sprintf("nothing in the file vouches for where it ends: its last events deleted with the heads the arbiter signed over them, or a head he signed alone (at an export, or at another station) deleted, leave a record that verifies, so compare the head printed above (event %d) with one written down, printed on a report or shown at another station ('verify --head HEX')", events)
}

// unanchoredLine is the command line's words for match.Unanchored: what a
// record verified against nothing from outside it does not prove, naming
// the flags that check the rest (the console says the core's, without
// them).
const unanchoredLine = "nothing from outside the file was given to check it against, so this proves only that the file agrees with itself: a record cut short at its end together with its signatures, or made again from its start under other keys, verifies as well; to prove that it is the whole record and the arbiter's, check it against what was written down or printed away from this computer (a head with --head, the arbiter's first key with --key, the match id with --match, the match's CA with --ca), or compare it with another station's copy or the live feed's archive"

// keyHistory describes the arbiter's keys in the order registered: the
// first, which anchors the record, then each rotation (verify and
// credential list print it).
func keyHistory(keys []match.ArbiterKey) []string {
	var out []string
	for i, k := range keys {
		if i == 0 {
			out = append(out, fmt.Sprintf("the arbiter's first key, which anchors the record ('verify --key' checks it): %s (event %d, %s)", match.HexBlocks(k.Fingerprint()), k.Seq, k.Kind))
			continue
		}
		out = append(out, fmt.Sprintf("the arbiter's key replaced at event %d (%s), signed by the key it replaces: %s", k.Seq, k.Kind, match.HexBlocks(k.Fingerprint())))
	}
	return out
}

// verifyKeyHistory is keyHistory as verify says it, after the line that
// named the arbiter's key now (current): that key is not named again, where
// a key never replaced stood twice in verify's words, once as his key and
// once as his first.
func verifyKeyHistory(keys []match.ArbiterKey, current string) []string {
	out := keyHistory(keys)
	for i, k := range keys {
		if current == "" || k.Fingerprint() != current {
			continue
		}
		switch {
		case i == 0 && len(keys) == 1:
			out[i] = fmt.Sprintf("that key, never replaced, is the arbiter's first, which anchors the record ('verify --key' checks it) (event %d, %s)", k.Seq, k.Kind)
		case i == 0:
			out[i] = fmt.Sprintf("that key is the arbiter's first, which anchors the record ('verify --key' checks it) (event %d, %s)", k.Seq, k.Kind)
		default:
			out[i] = fmt.Sprintf("the arbiter's key replaced at event %d (%s), signed by the key it replaces: the key named above, his key now", k.Seq, k.Kind)
		}
	}
	return out
}

// readScript reads a script file ("-" is standard input is not supported: CI has none).
func readScript(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot read the script %s: %v", path, err)
	}
	if len(b) > 64<<20 {
		return "", fmt.Errorf("the script %s is larger than 64 MiB", path)
	}
	return string(b), nil
}
