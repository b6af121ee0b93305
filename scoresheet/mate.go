package scoresheet

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"arbiter/internal/phrase"
	"arbiter/unwinnable"

	"github.com/notnil/chess"
)

// Verdict answers "can this side still checkmate?".
type Verdict int

// Verdicts of CanMate.
const (
	// Undetermined: neither proven nor ruled out; the arbiter decides.
	Undetermined Verdict = iota
	// CannotMate: no series of legal moves ends in a checkmate by the side.
	CannotMate
	// MatePossible: some series of legal moves ends in a checkmate by the
	// side. (The brief called this constant CanMate; Go does not allow a
	// constant and the function CanMate to share the name.)
	MatePossible
)

func (v Verdict) String() string {
	switch v {
	case CannotMate:
		return "cannot mate"
	case MatePossible:
		return "can mate"
	}
	return "undetermined"
}

// MateVerdict is a Verdict with its reason, one sentence such as "White has
// only the king".
type MateVerdict struct {
	Verdict Verdict
	Reason  string
	Line    []string // MatePossible: the helpmate, UCI moves from the position
	// Why is Reason as a code (its English format) and arguments
	// (unwinnable.Result.Why), for a face to say in its language.
	Why *phrase.Error
}

// mateVerdict is a verdict whose reason is why.
func mateVerdict(v Verdict, why *phrase.Error, line []string) MateVerdict {
	return MateVerdict{Verdict: v, Reason: why.Error(), Line: line, Why: why}
}

// searchLimit bounds the analysis of CanMate (positions visited): about a
// second at most on this machine; almost every real position is decided in
// far fewer.
const searchLimit = 300_000

// deadLimit bounds the full-width search of the per-move dead-position
// check (DeadPosition), which must stay well under a millisecond.
const deadLimit = 32

// CanMate judges whether side could checkmate the opponent by any series of
// legal moves, however unskilled the opponent's counterplay (a helpmate),
// with the analyser of package unwinnable.
//
// The answer is a proof either way: MatePossible comes with Line, a helpmate
// (UCI moves from pos ending in a mate by side; empty when the opponent is
// already checkmated), and a Reason that writes it out in SAN; CannotMate
// with the one-sentence reason why no mate exists. Undetermined only when
// the node limit was reached: the arbiter decides.
func CanMate(pos *chess.Position, side chess.Color) MateVerdict {
	return canMate(pos, side, searchLimit)
}

func canMate(pos *chess.Position, side chess.Color, limit int) MateVerdict {
	b, err := unwinnable.ParseFEN(pos.String())
	if err != nil {
		return mateVerdict(Undetermined, phrase.Errorf("the position cannot be analysed (%v)", err), nil)
	}
	r := unwinnable.Analyse(b, winnerOf(side), limit)
	switch r.Verdict {
	case unwinnable.Unwinnable:
		return MateVerdict{CannotMate, strings.TrimSuffix(r.Reason, "."), nil, r.Why}
	case unwinnable.Winnable:
		if len(r.Line) == 0 {
			return mateVerdict(MatePossible, phrase.Errorf("%s is already checkmated", colorName(side.Other())), nil)
		}
		return mateVerdict(MatePossible, phrase.Errorf(HelpmateFormat, colorName(side), helpmateSAN(pos, r.Line)), r.Line)
	}
	return MateVerdict{Undetermined, strings.TrimSuffix(r.Reason, "."), nil, r.Why}
}

func winnerOf(side chess.Color) int {
	if side == chess.Black {
		return unwinnable.Black
	}
	return unwinnable.White
}

// helpmateSAN writes a line of UCI moves from pos as numbered SAN
// ("45…Kh8 46.Qg7#"); the UCI itself if notnil refuses a move.
// tagged is m as the position's own legal move, which carries the check and
// mate tags that SAN's "+" and "#" come from (a move decoded from UCI has none).
func tagged(p *chess.Position, m *chess.Move) *chess.Move {
	for _, v := range p.ValidMoves() {
		if v.S1() == m.S1() && v.S2() == m.S2() && v.Promo() == m.Promo() {
			return v
		}
	}
	return m
}

// HelpmateFormat is the verdict that side can still checkmate, with its
// helpmate line in SAN ("White can still checkmate, e.g. 1…Nc6 2.Qh5 …").
// The record stores the line as a plain string; match marks it as moves
// when the record is read, so that a face says it with its own piece
// letters (German "2.Dh5").
const HelpmateFormat = "%s can still checkmate, e.g. %s"

func helpmateSAN(pos *chess.Position, line []string) string {
	var sb strings.Builder
	num := 1
	if f := strings.Fields(pos.String()); len(f) == 6 {
		if n, err := strconv.Atoi(f[5]); err == nil {
			num = n
		}
	}
	p := pos
	for i, u := range line {
		m, err := chess.UCINotation{}.Decode(p, u)
		if err != nil {
			return strings.Join(line, " ")
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		if p.Turn() == chess.White {
			fmt.Fprintf(&sb, "%d.", num)
		} else if i == 0 {
			fmt.Fprintf(&sb, "%d…", num) // as the command line and the reports number a move of Black's
		}
		sb.WriteString(chess.AlgebraicNotation{}.Encode(p, tagged(p, m)))
		if p.Turn() == chess.Black {
			num++
		}
		p = p.Update(m)
	}
	return sb.String()
}

// DeadPosition reports whether neither side can checkmate (Article 6.9 and
// the dead-position draw), judged by the cheap stages of the analyser
// (unwinnable.Dead) within a budget fit for every move.
func DeadPosition(pos *chess.Position) bool { return deadFEN(pos.String()) }

// deadCache remembers the last positions judged, so that a move's new
// position is analysed once although both the move command and the
// scoresheet ask.
var deadCache struct {
	sync.Mutex
	keys [8]string
	dead [8]bool
	next int
}

func deadFEN(fen string) bool {
	key, _, ok := fenHead(fen)
	if !ok {
		f := strings.Fields(fen)
		if len(f) < 4 {
			return false
		}
		key = strings.Join(f[:4], " ")
	}
	deadCache.Lock()
	for i, k := range deadCache.keys {
		if k == key {
			d := deadCache.dead[i]
			deadCache.Unlock()
			return d
		}
	}
	deadCache.Unlock()
	b, err := unwinnable.ParseFEN(fen)
	if err != nil {
		return false
	}
	d := unwinnable.Dead(b, deadLimit)
	deadCache.Lock()
	deadCache.keys[deadCache.next], deadCache.dead[deadCache.next] = key, d
	deadCache.next = (deadCache.next + 1) % len(deadCache.keys)
	deadCache.Unlock()
	return d
}

type counts struct {
	pawns, knights, light, dark, rooks, queens int
}

func (c counts) pieces() int       { return c.knights + c.light + c.dark + c.rooks + c.queens }
func (c counts) onlyBishops() bool { return c.pawns+c.knights+c.rooks+c.queens == 0 }

func material(pos *chess.Position, c chess.Color) counts {
	var n counts
	for s, p := range pos.Board().SquareMap() {
		if p.Color() != c {
			continue
		}
		switch p.Type() {
		case chess.Pawn:
			n.pawns++
		case chess.Knight:
			n.knights++
		case chess.Bishop:
			if (int(s.File())+int(s.Rank()))%2 == 0 {
				n.dark++
			} else {
				n.light++
			}
		case chess.Rook:
			n.rooks++
		case chess.Queen:
			n.queens++
		}
	}
	return n
}
