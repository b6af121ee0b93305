// Package demo writes demonstration data: "arbiter play" scripts that
// officiate real matches move by move.
//
// Script1996 turns the game scores of the 1996 ACM Chess Challenge (Garry
// Kasparov vs Deep Blue, Philadelphia; the project's own PGN of them in
// internal/games, embedded, or any PGN of them with Script1996From) into a
// script that creates the match and plays its six games: every move with an
// invented but plausible thinking time, the real results, and the incidents
// the record knows of — Kasparov's half-hour think after 13.Nb5 in game 1,
// Deep Blue's long 48th move in game 2, Deep Blue's system error after move 25
// of game 4 (its clock keeps running, rule 7), Kasparov's draw offers declined
// by the Deep Blue team (game 4 move 41, game 5 move 23) — plus a few
// invented ones (a pause for a disturbance, a clock correction, notes).
//
// The script is deterministic: the same PGN, options and seed give the same
// text. Thinking times are drawn from a pseudo-random source seeded by
// Options.Seed and always respect the time control (40 moves in 2 h, 20 in
// 1 h, 30 min for the rest): no flag falls. Offsets are relative to the
// script's start; the games keep the day spacing of the PGN's Date tags, so
//
//	arbiter --db demo.db --at 1996-02-10T20:00:00Z play demo1996.txt
//
// replays the match on its real dates, game 1 starting at 15:00 in
// Philadelphia.
package demo

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/internal/games"
	"arbiter/scoresheet"
)

// Options choose what Script1996 writes.
type Options struct {
	Games int   // how many games to play, from game 1; 0 = all of them
	Seed  int64 // seed of the thinking times
}

// The people of the 1996 match. Feng-hsiung Hsu operated Deep Blue and Mike
// Valvo was the arbiter; the appeals board members are invented.
const (
	Human    = "Garry Kasparov"
	Computer = "Deep Blue"
	Operator = "Feng-hsiung Hsu"
	Arbiter  = "Mike Valvo"
	Title    = "ACM Chess Challenge 1996"
	Site     = "Philadelphia, PA, USA"
)

// Appeals are the (invented) members of the appeals board.
var Appeals = []string{"Carol Whitfield", "Martin Okafor"}

// Start is the instant game 1 began: 15:00 in Philadelphia on 10 February 1996.
var Start = time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)

// game is one game read from the PGN.
type game struct {
	white, black string
	date         time.Time // zero if unknown
	sans         []string
	result       string
}

// Script1996 returns the play script of the 1996 match from the project's
// own game scores (internal/games, embedded: no file is needed).
func Script1996(opts Options) (string, error) {
	return scriptFrom(strings.NewReader(games.DeepBlue1996()), "the 1996 games", opts)
}

// Script1996From reads the 1996 match PGN at pgnPath instead and returns the
// play script.
func Script1996From(pgnPath string, opts Options) (string, error) {
	f, err := os.Open(pgnPath)
	if err != nil {
		return "", fmt.Errorf("demo: open the match PGN: %w", err)
	}
	defer f.Close()
	return scriptFrom(f, pgnPath, opts)
}

// scriptFrom writes the script of the games read from r (named name in
// errors).
func scriptFrom(r io.Reader, name string, opts Options) (string, error) {
	played, err := readGames(r)
	if err != nil {
		return "", fmt.Errorf("demo: read %s: %w", name, err)
	}
	if len(played) == 0 {
		return "", fmt.Errorf("demo: %s holds no games", name)
	}
	if opts.Games < 0 {
		return "", fmt.Errorf("demo: cannot play %d games: give 0 for all or a positive number", opts.Games)
	}
	planned := len(played)
	if opts.Games > 0 && opts.Games < len(played) {
		played = played[:opts.Games]
	}
	return script(played, planned, opts.Seed)
}

// personName turns "Kasparov, Garry" into "Garry Kasparov".
func personName(s string) string {
	if last, first, ok := strings.Cut(s, ","); ok {
		return strings.TrimSpace(first) + " " + strings.TrimSpace(last)
	}
	return strings.TrimSpace(s)
}

// writer accumulates script lines.
type writer struct {
	b   strings.Builder
	rng *rand.Rand
}

func (w *writer) line(at time.Duration, format string, a ...any) {
	fmt.Fprintf(&w.b, "%s %s\n", offset(at), fmt.Sprintf(format, a...))
}

func (w *writer) comment(format string, a ...any) {
	fmt.Fprintf(&w.b, "# %s\n", fmt.Sprintf(format, a...))
}

// offset writes H:MM:SS.fff.
func offset(d time.Duration) string {
	ms := int64(d / time.Millisecond)
	return fmt.Sprintf("%d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// quote writes s as one shell word in double quotes.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s) + `"`
}

// script writes the match of planned games and plays the given ones.
func script(games []game, planned int, seed int64) (string, error) {
	w := &writer{rng: rand.New(rand.NewPCG(uint64(seed), 0x1996))}
	ctl, err := clock.ParseSpec("acm1996")
	if err != nil {
		return "", err
	}
	w.comment("%s: %s vs %s, %d of %d games — generated by internal/demo (seed %d).", Title, Human, Computer, len(games), planned, seed)
	w.comment("Moves are the real game scores; thinking times are invented. Run it with")
	w.comment("  arbiter --db demo.db --at %s play THIS_FILE", Start.Format(time.RFC3339))
	first := personName(games[0].white)
	var operators []string
	operators = append(operators, "--operator "+quote(Operator))
	var appeals []string
	for _, a := range Appeals {
		appeals = append(appeals, "--appeals "+quote(a))
	}
	w.line(0, "match new --title %s --site %s --player %s --player %s --computer %s %s --arbiter %s %s --games %d --tc acm1996 --tz America/New_York --white %s",
		quote(Title), quote(Site), quote(Human), quote(Computer), quote(Computer), strings.Join(operators, " "), quote(Arbiter),
		strings.Join(appeals, " "), planned, quote(first))
	day0 := games[0].date
	for i, g := range games {
		n := i + 1
		start := time.Duration(i) * 24 * time.Hour
		if !day0.IsZero() && !g.date.IsZero() {
			start = g.date.Sub(day0)
		}
		if start == 0 && i > 0 {
			start = time.Duration(i) * 24 * time.Hour
		}
		start += time.Second // after "match new"
		if err := w.game(n, g, start, ctl); err != nil {
			return "", fmt.Errorf("demo: game %d: %w", n, err)
		}
	}
	return w.b.String(), nil
}

// side indexes: 0 White, 1 Black.
type player struct {
	name     string
	computer bool
	rem      time.Duration // remaining time
	moves    int
}

func (p *player) role(colour int, alt bool) string {
	if p.computer && !alt {
		return "--as operator"
	}
	if colour == 0 {
		return "--as white"
	}
	return "--as black"
}

func colourWord(c int) string {
	if c == 0 {
		return "white"
	}
	return "black"
}

func (w *writer) game(n int, g game, start time.Duration, ctl clock.Control) error {
	white, black := personName(g.white), personName(g.black)
	ps := [2]*player{
		{name: white, computer: white == Computer, rem: ctl.Allotment(0)},
		{name: black, computer: black == Computer, rem: ctl.Allotment(0)},
	}
	w.b.WriteString("\n")
	w.comment("Game %d: %s – %s, %s", n, white, black, g.result)
	at := start
	w.line(at, "game start")
	sheet, err := scoresheet.NewSheet("")
	if err != nil {
		return err
	}
	human := 0
	if ps[1].name == Human {
		human = 1
	}
	decline := false // the Deep Blue team declines a draw offer during its next turn
	for ply, san := range g.sans {
		c := ply % 2
		p := ps[c]
		moveNo := p.moves + 1
		think := w.think(p, ctl, moveNo)
		// Known long thinks and stoppages.
		switch {
		case n == 1 && !p.computer && moveNo == 13:
			think = 28*time.Minute + 40*time.Second // after 13.Nb5 (The Independent)
		case n == 2 && p.computer && moveNo == 48:
			think = 14*time.Minute + 35*time.Second // Moscow Times
		case n == 6 && !p.computer && moveNo == 1:
			think = 4*time.Minute + 12*time.Second
			w.line(at+3*time.Minute+5*time.Second, "incident note --text %s",
				quote(human1996(ps, human)+" reaches the board 3 minutes after the start; his clock has run since the start (6.5)"))
		}
		// Lines during this turn, before the move, at offsets from its start.
		type during struct {
			off  time.Duration
			text string
		}
		var ds []during
		if decline {
			ds = append(ds, during{47 * time.Second, "--as operator draw decline"})
			decline = false
		}
		pause := time.Duration(0)
		switch {
		case n == 1 && !p.computer && moveNo == 21:
			// A disturbance: the arbiter stops the clocks for two minutes.
			ds = append(ds, during{40 * time.Second, "pause --reason " + quote("photographers' flashes in the hall; the arbiter has the press area cleared")})
			pause = 2*time.Minute + 17*time.Second
			ds = append(ds, during{40*time.Second + pause, "resume"})
		case n == 4 && p.computer && moveNo == 25:
			// Deep Blue's system error right after 25.Re4; its clock keeps running.
			ds = append(ds, during{48 * time.Second, "--as operator incident technical-fault --text " +
				quote("Deep Blue's system stopped right after 25.Re4 and is being restarted")})
			ds = append(ds, during{14*time.Minute + 52*time.Second, "--as operator incident note --text " +
				quote("Deep Blue is running again after nearly 15 minutes; the operator re-entered the position and both clock times (rule 12)")})
			think = 16*time.Minute + 9*time.Second
		case n == 2 && p.computer && moveNo == 30:
			ds = append(ds, during{20 * time.Second, "adjust white -3s --reason " +
				quote("console brought in step with the board clock chosen by Kasparov (rule 2)")})
			ps[0].rem -= 3 * time.Second
		case n == 3 && p.computer && moveNo == 18:
			ds = append(ds, during{35 * time.Second, "incident note --text " +
				quote("Kasparov asks for the hall to be cooled; the air conditioning is turned up")})
		}
		// The move comes after everything logged during the turn.
		for _, d := range ds {
			if min := d.off + 5*time.Second - pause; think < min {
				think = min + time.Duration(w.rng.IntN(20000))*time.Millisecond
			}
		}
		think = w.safe(p, ctl, think)
		for _, d := range ds {
			w.line(at+d.off, "%s", d.text)
		}
		at += pause + think
		role := p.role(c, p.computer && moveNo%9 == 4)
		if _, err := sheet.Play(san); err != nil {
			return fmt.Errorf("move %s: %w", san, err)
		}
		w.line(at, "%s move %s", role, san)
		p.rem -= think
		p.moves++
		if ctl.PeriodFor(p.moves) != ctl.PeriodFor(p.moves-1) {
			p.rem += ctl.PeriodAt(ctl.PeriodFor(p.moves)).Duration
		}
		// Draw offers the Deep Blue team declined.
		if c == human && ((n == 5 && moveNo == 23) || (n == 4 && moveNo == 41)) {
			w.line(at+1500*time.Millisecond, "%s draw offer", ps[c].role(c, false))
			decline = true
		}
	}
	// The end of the game.
	if t, _ := sheet.Outcome(); t != scoresheet.TermNone {
		return nil
	}
	last := (len(g.sans) - 1) % 2
	if len(g.sans) == 0 {
		last = 1
	}
	switch g.result {
	case "1-0", "0-1":
		loser := 1
		if g.result == "0-1" {
			loser = 0
		}
		delay := 40 * time.Second
		if loser == last {
			delay = 25 * time.Second
		}
		w.line(at+delay, "%s resign %s", ps[loser].role(loser, false), colourWord(loser))
	case "1/2-1/2":
		offerer := last
		w.line(at+2*time.Second, "%s draw offer", ps[offerer].role(offerer, false))
		w.line(at+95*time.Second, "%s draw accept", ps[1-offerer].role(1-offerer, false))
	}
	return nil
}

func human1996(ps [2]*player, human int) string { return ps[human].name }

// think draws a thinking time for the player's move moveNo.
func (w *writer) think(p *player, ctl clock.Control, moveNo int) time.Duration {
	ms := func(lo, hi float64) time.Duration {
		return time.Duration((lo + w.rng.Float64()*(hi-lo)) * float64(time.Second))
	}
	book := 7
	if p.computer {
		book = 10
	}
	if moveNo <= book {
		if p.computer {
			return ms(6, 35) // relayed from the opening book
		}
		return ms(4, 90)
	}
	left := movesLeft(ctl, p.moves)
	mean := float64(p.rem) / float64(left) * 0.62
	f := math.Exp(w.rng.NormFloat64() * 0.65)
	f = math.Max(0.12, math.Min(f, 3.2))
	return time.Duration(mean * f).Round(time.Millisecond)
}

// safe caps a thinking time so that the player keeps at least 25 s for each
// move still due before the next control, and a minute to spare.
func (w *writer) safe(p *player, ctl clock.Control, think time.Duration) time.Duration {
	left := movesLeft(ctl, p.moves)
	limit := p.rem - time.Duration(left-1)*25*time.Second - time.Minute
	if think > limit {
		think = limit
	}
	if think < 2*time.Second {
		think = 2*time.Second + time.Duration(w.rng.IntN(900))*time.Millisecond
	}
	return think
}

// movesLeft is the number of moves (counting the next) to the next control;
// in the last period it assumes 25 more moves.
func movesLeft(ctl clock.Control, done int) int {
	k := ctl.PeriodFor(done)
	if end := ctl.MovesThrough(k); end > done {
		return end - done
	}
	return 25
}
