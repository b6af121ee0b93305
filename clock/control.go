package clock

import (
	"strconv"
	"strings"
	"time"

	"arbiter/internal/phrase"
)

// Limits of what ParseTimeControl and Validate accept. They keep every sum the
// package computes far away from time.Duration overflow.
const (
	maxSeconds     = 10_000_000 // per duration field, about 115 days
	maxMoves       = 10_000     // per period
	maxDescriptors = 100        // periods per control
)

// ParseTimeControl parses the PGN TimeControl tag syntax (PGN standard 9.6.1)
// plus this project's delay extension:
//
//	?                   unknown control                 (Mode Unknown)
//	-                   no time control                 (Mode Untimed)
//	moves/seconds       a period with a move count
//	seconds             sudden death: all remaining moves
//	...+inc             Fischer increment of inc seconds after each move
//	...dN               simple (US) delay of N seconds  (extension)
//	...bN               Bronstein delay of N seconds     (extension)
//
// Descriptors are separated by ':'; when the last one has a move count it
// repeats. Only the last descriptor may be sudden death. Numbers are whole
// seconds. An increment or delay of 0 means none. The sandclock form "*N" is
// refused. Surrounding spaces are ignored; nothing else is.
func ParseTimeControl(s string) (Control, error) {
	bad := func(code Code, a ...any) (Control, error) {
		return Control{}, refuse(CodeTimeControl, s, refuse(code, a...))
	}
	t := strings.TrimSpace(s)
	switch t {
	case "":
		return bad(CodeEmpty)
	case "?":
		return Control{Mode: Unknown}, nil
	case "-":
		return Control{Mode: Untimed}, nil
	}
	descs := strings.Split(t, ":")
	if len(descs) > maxDescriptors {
		return bad(CodeTooManyPeriods, len(descs), maxDescriptors)
	}
	periods := make([]Period, 0, len(descs))
	for i, d := range descs {
		p, err := parseDescriptor(d)
		if err != nil {
			return Control{}, refuse(CodeTimeControl, s, err)
		}
		if p.Moves == 0 && i != len(descs)-1 {
			return bad(CodeNothingAfterAll, i+1, d, d)
		}
		if i == 0 && p.Duration == 0 {
			return bad(CodeFirstNoTime)
		}
		periods = append(periods, p)
	}
	return Control{Mode: Timed, Periods: periods}, nil
}

// parseDescriptor parses one "[moves/]seconds[(+|d|b)n]" descriptor.
func parseDescriptor(d string) (Period, error) {
	var p Period
	switch {
	case d == "":
		return p, refuse(CodeEmptyPeriod)
	case d == "?" || d == "-":
		return p, refuse(CodePeriodMustStandAlone, d)
	case d[0] == '*':
		return p, refuse(CodeSandclock)
	}
	rest := d
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		n, err := number(rest[:i], maxMoves)
		if err != nil {
			return p, refuse(CodeMoveCountBad, d, err)
		}
		if n == 0 {
			return p, refuse(CodeMoveCountZero, d)
		}
		p.Moves = n
		rest = rest[i+1:]
	}
	secs := rest
	if i := strings.IndexAny(rest, "+db"); i >= 0 {
		secs = rest[:i]
		switch rest[i] {
		case '+':
			p.Method = Fischer
		case 'd':
			p.Method = SimpleDelay
		case 'b':
			p.Method = Bronstein
		}
		n, err := number(rest[i+1:], maxSeconds)
		if err != nil {
			return p, refuse(CodePerMoveBad, d, phrase.Word(perMoveWord(p.Method)), rest[i], err)
		}
		p.PerMove = time.Duration(n) * time.Second
		if n == 0 {
			p.Method = MethodNone
		}
	}
	n, err := number(secs, maxSeconds)
	if err != nil {
		return p, refuse(CodeSecondsBad, d, err)
	}
	p.Duration = time.Duration(n) * time.Second
	return p, nil
}

func perMoveWord(m Method) string {
	if m == Fischer {
		return "increment"
	}
	return "delay"
}

// number parses a non-empty run of ASCII digits no larger than max.
func number(s string, max int) (int, error) {
	if s == "" {
		return 0, refuse(CodeMissing)
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, refuse(CodeNotAWholeNumber, s)
		}
		n = n*10 + int(c-'0')
		if n > max {
			return 0, refuse(CodeNumberTooLarge, s, max)
		}
	}
	return n, nil
}

// Validate reports whether c is a control ParseTimeControl could have
// produced, which is exactly the set for which ParseTimeControl(c.String())
// returns c again.
func (c Control) Validate() error {
	switch c.Mode {
	case Untimed, Unknown:
		if c.Periods != nil {
			return refuse(CodeUntimedPeriods)
		}
		return nil
	case Timed:
	default:
		return refuse(CodeControlMode, c.Mode)
	}
	if len(c.Periods) == 0 || len(c.Periods) > maxDescriptors {
		return refuse(CodePeriodCount, maxDescriptors)
	}
	for i, p := range c.Periods {
		switch {
		case p.Moves < 0 || p.Moves > maxMoves:
			return refuse(CodeMovesOutOfRange, i+1, p.Moves)
		case p.Moves == 0 && i != len(c.Periods)-1:
			return refuse(CodeAllMovesNotLast, i+1)
		case !wholeSeconds(p.Duration) || (i == 0 && p.Duration == 0):
			return refuse(CodePeriodTime, i+1, p.Duration)
		case p.Method > SimpleDelay:
			return refuse(CodeMethodInvalid, i+1, p.Method)
		case (p.Method == MethodNone) != (p.PerMove == 0) || !wholeSeconds(p.PerMove):
			return refuse(CodePerMoveInvalid, i+1, p.Method, p.PerMove)
		}
	}
	return nil
}

func wholeSeconds(d time.Duration) bool {
	return d >= 0 && d%time.Second == 0 && d <= maxSeconds*time.Second
}

// String returns the PGN TimeControl form of c (with the delay extension);
// ParseTimeControl(c.String()) returns c for every c that passes Validate.
func (c Control) String() string {
	switch c.Mode {
	case Untimed:
		return "-"
	case Unknown:
		return "?"
	}
	if len(c.Periods) == 0 {
		return "?"
	}
	var b strings.Builder
	for i, p := range c.Periods {
		if i > 0 {
			b.WriteByte(':')
		}
		if p.Moves > 0 {
			b.WriteString(strconv.Itoa(p.Moves))
			b.WriteByte('/')
		}
		b.WriteString(strconv.FormatInt(int64(p.Duration/time.Second), 10))
		switch p.Method {
		case Fischer:
			b.WriteByte('+')
		case SimpleDelay:
			b.WriteByte('d')
		case Bronstein:
			b.WriteByte('b')
		default:
			continue
		}
		b.WriteString(strconv.FormatInt(int64(p.PerMove/time.Second), 10))
	}
	return b.String()
}

// Readable describes c for people:
//
//	40/7200:20/3600:1800  →  "40/2h, 20/1h, 30m"
//	40/5400+30:1800+30    →  "90m/40 + 30m, +30s per move from move 1"
//	7200d5                →  "2h, 5s delay (simple)"
//
// When every period has the same increment or delay, the periods are written
// time-first and joined by " + " (the FIDE phrasing) and the per-move rule is
// said once at the end. Otherwise periods are written moves-first, separated
// by ", ", each followed by its own per-move rule and the move it starts at.
// A final period with a move count is marked "repeating".
func (c Control) Readable() string {
	switch c.Mode {
	case Untimed:
		return "no time control"
	case Unknown:
		return "unknown time control"
	}
	if len(c.Periods) == 0 {
		return "unknown time control"
	}
	last := len(c.Periods) - 1
	first := c.Periods[0]
	uniform := first.Method != MethodNone
	for _, p := range c.Periods {
		if p.Method != first.Method || p.PerMove != first.PerMove {
			uniform = false
		}
	}
	var b strings.Builder
	for i, p := range c.Periods {
		if uniform {
			if i > 0 {
				b.WriteString(" + ")
			}
			b.WriteString(FormatLength(p.Duration))
			if p.Moves > 0 {
				b.WriteString("/" + strconv.Itoa(p.Moves))
			}
		} else {
			if i > 0 {
				b.WriteString(", ")
			}
			if p.Moves > 0 {
				b.WriteString(strconv.Itoa(p.Moves) + "/")
			}
			b.WriteString(FormatLength(p.Duration))
			if p.Method != MethodNone {
				b.WriteString(" " + perMoveRule(p) + " from move " + strconv.Itoa(c.MovesThrough(i-1)+1))
			}
		}
		if i == last && p.Moves > 0 {
			b.WriteString(" repeating")
		}
	}
	if uniform {
		b.WriteString(", " + perMoveRule(first))
		if first.Method == Fischer {
			b.WriteString(" from move 1")
		}
	}
	return b.String()
}

func perMoveRule(p Period) string {
	switch p.Method {
	case Fischer:
		return "+" + FormatLength(p.PerMove) + " per move"
	case SimpleDelay:
		return FormatLength(p.PerMove) + " delay (simple)"
	case Bronstein:
		return FormatLength(p.PerMove) + " delay (Bronstein)"
	}
	return ""
}

// Preset is a named time control.
type Preset struct {
	Name, Description string
	Control           Control
}

// Presets returns the built-in time controls in a stable order. Each call
// returns fresh values.
func Presets() []Preset {
	return []Preset{
		{"acm1996", "ACM Chess Challenge 1996 and 1997 (Kasparov vs Deep Blue): 40 moves in 2 hours, 20 moves in 1 hour, then 30 minutes for the rest",
			Control{Mode: Timed, Periods: []Period{{Moves: 40, Duration: 2 * time.Hour}, {Moves: 20, Duration: time.Hour}, {Duration: 30 * time.Minute}}}},
		{"fide-classical", "FIDE classical: 90 minutes for 40 moves, then 30 minutes, with 30 seconds added per move from move 1",
			Control{Mode: Timed, Periods: []Period{{Moves: 40, Duration: 90 * time.Minute, Method: Fischer, PerMove: 30 * time.Second}, {Duration: 30 * time.Minute, Method: Fischer, PerMove: 30 * time.Second}}}},
		{"rapid", "Rapid: 15 minutes with 10 seconds added per move",
			Control{Mode: Timed, Periods: []Period{{Duration: 15 * time.Minute, Method: Fischer, PerMove: 10 * time.Second}}}},
		{"blitz", "Blitz: 3 minutes with 2 seconds added per move",
			Control{Mode: Timed, Periods: []Period{{Duration: 3 * time.Minute, Method: Fischer, PerMove: 2 * time.Second}}}},
	}
}

// ParseSpec accepts a preset name (any letter case) or a TimeControl string.
func ParseSpec(s string) (Control, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	names := make([]string, 0, 4)
	for _, p := range Presets() {
		if p.Name == name {
			return p.Control, nil
		}
		names = append(names, p.Name)
	}
	if word(name) {
		return Control{}, refuse(CodeNotAPreset, s, strings.Join(names, ", "))
	}
	c, err := ParseTimeControl(s)
	if err != nil {
		return Control{}, refuse(CodeOrPreset, err, strings.Join(names, ", "))
	}
	return c, nil
}

// word reports whether s looks like a name rather than a control: letters
// (and '-', '_'), no digits. "?" and "-" are controls.
func word(s string) bool {
	letters := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			letters = true
		case r == '-' || r == '_' || r == ' ':
		default:
			return false
		}
	}
	return letters
}

// timed reports whether the control runs a countdown at all.
func (c Control) timed() bool { return c.Mode == Timed && len(c.Periods) > 0 }

// PeriodAt returns period i (0-based). Beyond the list the last period
// repeats; a control without periods returns the zero Period.
func (c Control) PeriodAt(i int) Period {
	n := len(c.Periods)
	switch {
	case n == 0 || i < 0:
		return Period{}
	case i >= n:
		return c.Periods[n-1]
	}
	return c.Periods[i]
}

// MovesThrough returns the cumulative number of moves required by the end of
// period i, or 0 when period i is for all remaining moves (or i < 0).
func (c Control) MovesThrough(i int) int {
	n := len(c.Periods)
	if n == 0 || i < 0 {
		return 0
	}
	sum := 0
	for k := 0; k < n && k <= i; k++ {
		m := c.Periods[k].Moves
		if m == 0 {
			return 0
		}
		sum += m
	}
	if i >= n {
		sum += (i - n + 1) * c.Periods[n-1].Moves
	}
	return sum
}

// PeriodFor returns the index of the period a player is in after completing
// moves moves: period k ends as the player completes move MovesThrough(k).
func (c Control) PeriodFor(moves int) int {
	n := len(c.Periods)
	if n == 0 || moves <= 0 {
		return 0
	}
	sum := 0
	for k := 0; k < n-1; k++ {
		m := c.Periods[k].Moves
		if m == 0 || moves < sum+m {
			return k
		}
		sum += m
	}
	m := c.Periods[n-1].Moves
	if m == 0 {
		return n - 1
	}
	return n - 1 + (moves-sum)/m
}

// Allotment returns all the time a player has been credited automatically
// after completing moves moves: the Duration of every period begun so far plus
// the Fischer increment of every completed move (the increment of the period
// in which the move was made). Bonuses and corrections are not included.
func (c Control) Allotment(moves int) time.Duration {
	if !c.timed() {
		return 0
	}
	if moves < 0 {
		moves = 0
	}
	last := c.PeriodFor(moves)
	n := len(c.Periods)
	var total time.Duration
	done := 0 // moves accounted for
	for k := 0; k <= last && k < n; k++ {
		p := c.Periods[k]
		total += p.Duration
		in := moves - done // moves made in this period
		if p.Moves > 0 && in > p.Moves {
			in = p.Moves
		}
		if p.Method == Fischer {
			total += time.Duration(in) * p.PerMove
		}
		done += in
	}
	if last >= n { // repetitions of the last period beyond the list
		p := c.Periods[n-1]
		reps := last - n + 1
		total += time.Duration(reps) * p.Duration
		if p.Method == Fischer {
			total += time.Duration(moves-done) * p.PerMove
		}
	}
	return total
}
