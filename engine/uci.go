package engine

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/scoresheet"
)

// What the bridge reads of the engine's lines (the UCI protocol: the
// engine's "id", "option", "uciok", "readyok", "info" and "bestmove").

// search is what an "info" line tells of the search: the latest score (as
// UCI says it, from the engine's side: "cp 34", "mate -3"), depth and
// nodes.
type searchInfo struct {
	eval  string
	depth int
	nodes int64
}

// readInfo updates si from an "info" line's fields.
func (si *searchInfo) readInfo(f []string) {
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "depth":
			if i+1 < len(f) {
				si.depth, _ = strconv.Atoi(f[i+1])
			}
		case "nodes":
			if i+1 < len(f) {
				si.nodes, _ = strconv.ParseInt(f[i+1], 10, 64)
			}
		case "score":
			// score cp N | mate N, possibly followed by lowerbound/upperbound
			if i+2 < len(f) && (f[i+1] == "cp" || f[i+1] == "mate") {
				if _, err := strconv.Atoi(f[i+2]); err == nil {
					si.eval = f[i+1] + " " + f[i+2]
				}
			}
		case "pv", "string":
			return // the rest is moves or text
		}
	}
}

// Below reports whether the evaluation eval (as UCI says it, from the
// engine's side: "cp -612", "mate -3") is at or below pawns: a mate
// against the engine is below any threshold, a mate for it above any; no
// evaluation is not below.
func Below(eval string, pawns float64) bool {
	f := strings.Fields(eval)
	if len(f) != 2 {
		return false
	}
	n, err := strconv.Atoi(f[1])
	switch {
	case err != nil:
		return false
	case f[0] == "mate":
		return n <= 0
	case f[0] == "cp":
		return float64(n) <= pawns*100
	}
	return false
}

// bestmove reads "bestmove MOVE [ponder MOVE]".
func bestmove(f []string) (best, ponder string) {
	if len(f) > 1 {
		best = f[1]
	}
	if len(f) > 3 && f[2] == "ponder" {
		ponder = f[3]
	}
	return best, ponder
}

// Sent is what the bridge told the engine of the clocks in its last go
// line (engine status's "sent").
type Sent struct {
	At        string `json:"at"`
	WTime     int64  `json:"wtime"`
	BTime     int64  `json:"btime"`
	WInc      int64  `json:"winc,omitempty"`
	BInc      int64  `json:"binc,omitempty"`
	MovesToGo *int   `json:"movestogo"`
}

// goLine is the go line for the computer (side) in game g at the instant
// at (rules 8 and 11): each side's remaining time as the record reads it
// at that instant, exactly as 'status --at' does, in whole milliseconds
// (the computer's less overhead, never below 0); each side's increment,
// the Fischer increment of its current period or, for a delay control,
// the delay, sent only when one is not 0; and movestogo, the moves the
// computer must still make before its next control, omitted in a period
// for all remaining moves (and when it is 0). With ponder it is "go
// ponder …".
func goLine(g *match.Game, side clock.Side, at time.Time, overhead time.Duration, ponder bool) (string, Sent) {
	c := g.Clock
	ms := func(s clock.Side) int64 {
		r := c.Remaining(s, at)
		if s == side {
			r = max(0, r-overhead)
		}
		return int64(r / time.Millisecond)
	}
	inc := func(s clock.Side) int64 {
		p := c.Control(s).PeriodAt(c.Period(s))
		if p.Method == clock.MethodNone {
			return 0
		}
		return int64(p.PerMove / time.Millisecond)
	}
	s := Sent{At: at.UTC().Format(InstantLayout), WTime: ms(clock.White), BTime: ms(clock.Black), WInc: inc(clock.White), BInc: inc(clock.Black)}
	var b strings.Builder
	b.WriteString("go ")
	if ponder {
		b.WriteString("ponder ")
	}
	b.WriteString("wtime " + strconv.FormatInt(s.WTime, 10) + " btime " + strconv.FormatInt(s.BTime, 10))
	if s.WInc > 0 || s.BInc > 0 {
		b.WriteString(" winc " + strconv.FormatInt(s.WInc, 10) + " binc " + strconv.FormatInt(s.BInc, 10))
	}
	if n, ok := c.MovesToControl(side); ok && n > 0 {
		b.WriteString(" movestogo " + strconv.Itoa(n))
		s.MovesToGo = &n
	}
	return b.String(), s
}

// positionLine is the position command for g as the record holds it: the
// standard start as "startpos", a game started from a FEN as "fen FEN",
// then the moves played (UCI), and extra moves after them (a ponder move).
func positionLine(g *match.Game, extra ...string) string {
	var b strings.Builder
	b.WriteString("position ")
	if fen := g.Sheet.StartFEN(); fen == "" || fen == scoresheet.StandardFEN {
		b.WriteString("startpos")
	} else {
		b.WriteString("fen " + fen)
	}
	es := g.Sheet.Entries()
	if len(es) > 0 || len(extra) > 0 {
		b.WriteString(" moves")
		for _, e := range es {
			b.WriteString(" " + e.UCI)
		}
		for _, m := range extra {
			b.WriteString(" " + m)
		}
	}
	return b.String()
}

// uciOption is an option the engine declared after "uci" ("option name N
// type T [default D] [min M] [max X] [var V]..."): its name as declared,
// its type and, for a spin, its bounds, for a combo, its values.
type uciOption struct {
	name     string
	typ      string
	min, max int64
	vars     []string
}

// readOption reads an "option" line's fields; the name and a value may
// hold spaces ("option name Skill Level type spin …").
func readOption(f []string) (uciOption, bool) {
	var o uciOption
	var key string
	var cur []string
	flush := func() {
		v := strings.Join(cur, " ")
		switch key {
		case "name":
			o.name = v
		case "type":
			o.typ = strings.ToLower(v)
		case "min":
			o.min, _ = strconv.ParseInt(v, 10, 64)
		case "max":
			o.max, _ = strconv.ParseInt(v, 10, 64)
		case "var":
			o.vars = append(o.vars, v)
		}
		cur = nil
	}
	for _, w := range f[1:] {
		switch w {
		case "name", "type", "default", "min", "max", "var":
			if key != "name" || w == "type" {
				flush()
				key = w
				continue
			}
		}
		if key == "" {
			return o, false
		}
		cur = append(cur, w)
	}
	flush()
	return o, o.name != ""
}

// checkOption says what is wrong with the operator's option name=value
// for the engine (its name and the options it declared, by lower-case
// name), or nil: an option the engine does not declare, a spin's value
// that is not a whole number within its bounds, a check's that is neither
// true nor false, a combo's that is none of its values. Stockfish answers
// the first with "No such option", ignores the second without a word when
// it is out of bounds, and ends (std::invalid_argument) when it is no
// number: the operator believed the engine ran as he set it.
func checkOption(engine string, declared map[string]uciOption, name, value string) error {
	o, ok := declared[strings.ToLower(name)]
	if !ok {
		names := make([]string, 0, len(declared))
		for _, d := range declared {
			names = append(names, d.name)
		}
		sort.Strings(names)
		list := strings.Join(names, ", ")
		if list == "" {
			list = "none" // a minimal engine declares none
		}
		return refuse(CodeOptionUnknown, engine, name, list)
	}
	switch o.typ {
	case "spin":
		if n, err := strconv.ParseInt(value, 10, 64); err != nil || n < o.min || n > o.max {
			return refuse(CodeOptionOutOfBounds, engine, o.name, o.min, o.max, value)
		}
	case "check":
		if value != "true" && value != "false" {
			return refuse(CodeOptionNotCheck, engine, o.name, value)
		}
	case "combo":
		for _, v := range o.vars {
			if strings.EqualFold(v, value) {
				return nil
			}
		}
		return refuse(CodeOptionNotOneOf, engine, o.name, strings.Join(o.vars, ", "), value)
	}
	return nil
}
