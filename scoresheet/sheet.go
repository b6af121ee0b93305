// Package scoresheet is the game record of an officiated chess game and every
// chess-rules helper the match layer needs.
//
// A Sheet holds the starting position and the list of moves as the arbiter
// recorded them. Rules state is kept here, not in chess.Game: the position
// after every ply is stored, legality comes from chess.Position.ValidMoves,
// and nothing ends a game automatically except checkmate, stalemate and a
// dead position (Outcome). In particular notnil/chess's automatic fivefold
// repetition and 75-move draws are not applied: under the Laws we follow a
// repetition or fifty-move draw must be claimed (ClaimRepetition,
// ClaimFiftyMoves).
//
// Moves are entered as text (ParseMove, Play); see ParseMove for the accepted
// notations. A move can be struck out (TakeBack, the struck moves stay
// visible through Struck) or corrected (Amend) as long as the rest of the
// game stays legal.
//
// Mating potential (Article 6.9: a player whose flag falls loses unless the
// opponent cannot checkmate by any series of legal moves) is judged by
// CanMate and DeadPosition. CanMate is sound: it never answers CannotMate
// when a mate is possible.
//
// PGN is written by WritePGN and read by ReadPGN; docs/pgn.md describes the
// output format and the reader's guarantees.
package scoresheet

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/notnil/chess"

	"arbiter/internal/phrase"
)

// Termination says how a game ended.
type Termination string

// Word lets a refusal's translation translate the termination.
func (t Termination) Word() phrase.Word { return phrase.Word(t) }

// The ways a game can end. TermNone means the game is still in progress.
const (
	TermNone         Termination = ""
	TermCheckmate    Termination = "checkmate"
	TermStalemate    Termination = "stalemate"
	TermResignation  Termination = "resignation"
	TermAgreement    Termination = "agreement"
	TermTimeForfeit  Termination = "time forfeit"
	TermDeadPosition Termination = "dead position"
	TermArbiter      Termination = "arbiter decision"
	TermForfeit      Termination = "forfeit"
	TermRepetition   Termination = "repetition"
	TermFiftyMoves   Termination = "fifty moves"
)

// StandardFEN is the FEN of the standard starting position.
const StandardFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Entry is one recorded move (one ply).
type Entry struct {
	Ply        int         // 1-based ply number in the game
	Number     int         // move number (correct after a black-to-move start FEN)
	Color      chess.Color // mover
	SAN, UCI   string
	FENAfter   string
	At         time.Time     // instant the move was completed (clock press) — set by the match layer
	Used       time.Duration // time the move took from the main time (charged) — set by the match layer
	Elapsed    time.Duration // running time of the mover's turn up to the press, delay included, stopped time excluded ([%emt]) — set by the match layer
	ClockWhite time.Duration // both clock readings after the move — set by the match layer
	ClockBlack time.Duration
	DrawOffer  bool     // the mover offered a draw with this move: written as "(=)"
	Notes      []string // incident/ruling texts that happened at this move (set by the match layer), exported into the move's one PGN comment
	Struck     bool     // the move was struck out by TakeBack (only in Struck() and TakeBack's result)
}

// Label is the move as a scoresheet shows it: "12. Nf3" or "12... Nf6".
func (e *Entry) Label() string {
	if e.Color == chess.Black {
		return fmt.Sprintf("%d... %s", e.Number, e.SAN)
	}
	return fmt.Sprintf("%d. %s", e.Number, e.SAN)
}

// NumberMark is the move's number as the outputs a person reads write it
// before the move (the PDF's incident log, the console's): "12." for
// White's, "12…" for Black's, with the ellipsis sign, where Label (and the
// PGN) writes "12...".
func (e *Entry) NumberMark() string {
	if e.Color == chess.Black {
		return fmt.Sprintf("%d…", e.Number)
	}
	return fmt.Sprintf("%d.", e.Number)
}

// Sheet is the record of one game. The zero value is not usable: call
// NewSheet. A Sheet is not safe for concurrent use; Clone it instead.
type Sheet struct {
	startFEN  string
	startNum  int
	positions []*chess.Position // positions[0] is the start, positions[i] follows ply i
	keys      []string          // repetition key of positions[i]
	entries   []*Entry
	struck    []Entry
	// room is shared by a sheet and its clones with the arrays behind
	// positions, keys and entries: the number of entries those arrays hold
	// for some sheet. A sheet appends into the arrays' free room only by
	// taking the next place (room from its own number of entries to one
	// more), so that no two sheets ever write the same place; a sheet that
	// cannot take it appends to copies (push).
	room *atomic.Int64
}

// NewSheet starts a record from startFEN ("" means the standard starting
// position). The FEN must have all six fields, exactly one king per side,
// no pawn on the first or last rank, castling rights that match the kings
// and rooks on their original squares, a plausible en-passant square, and
// the side not to move must not be in check.
func NewSheet(startFEN string) (*Sheet, error) {
	if strings.TrimSpace(startFEN) == "" {
		startFEN = StandardFEN
	}
	pos, err := ParseFEN(startFEN)
	if err != nil {
		return nil, err
	}
	fields := strings.Fields(pos.String())
	num, _ := strconv.Atoi(fields[5])
	s := &Sheet{startFEN: pos.String(), startNum: num}
	pos.ValidMoves() // fill notnil's lazy cache now: positions are shared between clones
	s.positions = []*chess.Position{pos}
	s.keys = []string{repetitionKey(pos)}
	s.room = new(atomic.Int64)
	return s, nil
}

// ParseFEN decodes and validates a FEN (see NewSheet for the checks). Errors
// are one sentence saying what is wrong with the FEN.
func ParseFEN(fen string) (*chess.Position, error) {
	fen = strings.Join(strings.Fields(fen), " ")
	f := strings.Fields(fen)
	if len(f) != 6 {
		return nil, phrase.Errorf("the FEN %q has %d fields but needs 6 (board, side to move, castling, en passant, halfmove clock, move number)", fen, len(f))
	}
	if err := fenFields(f); err != nil {
		return nil, err
	}
	pos := &chess.Position{}
	if err := pos.UnmarshalText([]byte(fen)); err != nil {
		return nil, phrase.Errorf("the FEN %q is not valid: %v", fen, strings.TrimPrefix(err.Error(), "chess: "))
	}
	b := pos.Board()
	var kings [3]int
	for sq, p := range b.SquareMap() {
		if p.Type() == chess.King {
			kings[p.Color()]++
		}
		if p.Type() == chess.Pawn && (sq.Rank() == chess.Rank1 || sq.Rank() == chess.Rank8) {
			return nil, phrase.Errorf("the FEN %q has a pawn on %s; pawns cannot stand on the first or last rank", fen, sq)
		}
	}
	if kings[chess.White] != 1 || kings[chess.Black] != 1 {
		return nil, phrase.Errorf("the FEN %q has %d white and %d black kings; each side needs exactly one", fen, kings[chess.White], kings[chess.Black])
	}
	cr := pos.CastleRights()
	type need struct {
		c    chess.Color
		side chess.Side
		k, r chess.Square
		name string
	}
	for _, n := range []need{
		{chess.White, chess.KingSide, chess.E1, chess.H1, "K"},
		{chess.White, chess.QueenSide, chess.E1, chess.A1, "Q"},
		{chess.Black, chess.KingSide, chess.E8, chess.H8, "k"},
		{chess.Black, chess.QueenSide, chess.E8, chess.A8, "q"},
	} {
		if cr.CanCastle(n.c, n.side) && (b.Piece(n.k) != chess.NewPiece(chess.King, n.c) || b.Piece(n.r) != chess.NewPiece(chess.Rook, n.c)) {
			return nil, phrase.Errorf("the FEN %q gives castling right %q but the %s king and rook are not on %s and %s; remove %q from the castling field", fen, n.name, colorName(n.c), n.k, n.r, n.name)
		}
	}
	if ep := pos.EnPassantSquare(); ep != chess.NoSquare {
		// The side that just moved pushed a pawn two squares: its pawn stands
		// in front of the en-passant square and the square itself is empty.
		mover := pos.Turn().Other()
		want, pawnRank := chess.Rank6, chess.Rank5
		if mover == chess.White {
			want, pawnRank = chess.Rank3, chess.Rank4
		}
		if ep.Rank() != want || b.Piece(ep) != chess.NoPiece || b.Piece(chess.NewSquare(ep.File(), pawnRank)) != chess.NewPiece(chess.Pawn, mover) {
			return nil, phrase.Errorf("the FEN %q has en-passant square %s but no %s pawn can just have moved two squares past it; write \"-\" instead", fen, ep, colorName(mover))
		}
	}
	// The side not to move must not be in check.
	if kingAttacked(pos) {
		return nil, phrase.Errorf("the FEN %q leaves %s in check although it is %s's move", fen, colorName(pos.Turn().Other()), colorName(pos.Turn()))
	}
	return pos, nil
}

// kingAttacked reports whether the side to move attacks the other king.
func kingAttacked(pos *chess.Position) bool {
	b := pos.Board()
	for sq, p := range b.SquareMap() {
		if p.Color() != pos.Turn() {
			continue
		}
		for to, q := range b.SquareMap() {
			if q.Type() == chess.King && q.Color() != pos.Turn() && attacks(b, sq, to) {
				return true
			}
		}
	}
	return false
}

func colorName(c chess.Color) phrase.Word {
	if c == chess.Black {
		return "Black"
	}
	return "White"
}

// StartFEN is the FEN the game started from.
func (s *Sheet) StartFEN() string { return s.startFEN }

// Position is (a copy of) the current position.
func (s *Sheet) Position() *chess.Position { return copyPos(s.cur()) }

func (s *Sheet) cur() *chess.Position { return s.positions[len(s.positions)-1] }

func copyPos(p *chess.Position) *chess.Position {
	c := &chess.Position{}
	if err := c.UnmarshalText([]byte(p.String())); err != nil {
		panic("scoresheet: position does not round-trip through FEN: " + err.Error())
	}
	return c
}

// FEN of the current position.
func (s *Sheet) FEN() string {
	if n := len(s.entries); n > 0 {
		return s.entries[n-1].FENAfter
	}
	return s.startFEN
}

// Ply is the number of recorded (not struck) moves.
func (s *Sheet) Ply() int { return len(s.entries) }

// ToMove is the side to move.
func (s *Sheet) ToMove() chess.Color { return s.cur().Turn() }

// Entries are the current moves in order. The entries are shared with the
// sheet's clones (Clone): read them, and change one only through Edit.
func (s *Sheet) Entries() []*Entry { return append([]*Entry(nil), s.entries...) }

// Edit changes the entry of ply (1-based) with f: on a copy, which takes
// the entry's place in this sheet only, so that the clones sharing the
// entry keep it as it was. It reports whether there is such a ply.
func (s *Sheet) Edit(ply int, f func(e *Entry)) bool {
	if ply < 1 || ply > len(s.entries) {
		return false
	}
	e := *s.entries[ply-1]
	f(&e)
	s.entries = slices.Clone(s.entries) // shared with clones (Clone)
	s.entries[ply-1] = &e
	return true
}

// Struck are the moves struck out by TakeBack, in the order they were struck,
// each with Struck set.
func (s *Sheet) Struck() []Entry { return append([]Entry(nil), s.struck...) }

// numbering gives the move number and mover of ply (1-based).
func (s *Sheet) numbering(ply int) (int, chess.Color) {
	startColor := s.positions[0].Turn()
	off := ply - 1
	if startColor == chess.Black {
		off++
	}
	c := chess.White
	if off%2 == 1 {
		c = chess.Black
	}
	return s.startNum + off/2, c
}

// Play parses input against the current position, appends the move and
// returns its entry. After checkmate, stalemate or a dead position no move
// is accepted. A move Try worked out in this position (in this sheet or a
// clone of it) is recorded as worked out, not worked out again.
//
// The entry returned is the sheet's own until the sheet is cloned: set its
// times and clocks at once (Edit changes an entry later).
func (s *Sheet) Play(input string) (*Entry, error) {
	if t, res := s.Outcome(); t != TermNone {
		return nil, phrase.Errorf("the game is over (%s, %s); no more moves can be recorded", t, res)
	}
	if t := triedIn(s.cur(), input); t != nil {
		return s.push(t), nil
	}
	m, err := s.ParseMove(input)
	if err != nil {
		return nil, err
	}
	return s.push(s.work(m)), nil
}

// Tried is a move worked out in a position without being recorded (Try):
// what Play records for it, and how the position after it ends the game.
type Tried struct {
	Move     *chess.Move
	SAN, UCI string
	// Term and Result are how the position after the move ends the game
	// by itself (OutcomeOf): TermNone and "*" when play goes on.
	Term   Termination
	Result string

	from, next *chess.Position
	fen        string // of next
}

// Try reads input in the current position as Play does and works the move
// out without recording it: its SAN and UCI and whether it ends the game.
// The sheet is not changed. Play of the same move in the same position
// then records it as worked out here, without parsing it, generating the
// next position's moves or writing its FEN again (the command that checks
// a move and the event that records it ask once).
func (s *Sheet) Try(input string) (*Tried, error) {
	if t, res := s.Outcome(); t != TermNone {
		return nil, phrase.Errorf("the game is over (%s, %s); no more moves can be recorded", t, res)
	}
	m, err := s.ParseMove(input)
	if err != nil {
		return nil, err
	}
	t := s.work(m)
	rememberTried(t)
	return t, nil
}

// work works out the legal move m in the current position.
func (s *Sheet) work(m *chess.Move) *Tried {
	pos := s.cur()
	next := pos.Update(m)
	fen := fenAfter(next, s.FEN())
	next.ValidMoves() // fill notnil's lazy cache now: positions are shared between clones
	term, res := outcomeFEN(next, fen)
	return &Tried{Move: m, SAN: chess.AlgebraicNotation{}.Encode(pos, m), UCI: chess.UCINotation{}.Encode(pos, m),
		Term: term, Result: res, from: pos, next: next, fen: fen}
}

// tried remembers the last moves Try worked out, by the position they were
// worked out in (positions are never changed once recorded, and a clone
// shares its sheet's, so the pointer names the position), so that Play
// records such a move without working it out again.
var tried struct {
	sync.Mutex
	last [4]*Tried
	next int
}

func rememberTried(t *Tried) {
	tried.Lock()
	tried.last[tried.next] = t
	tried.next = (tried.next + 1) % len(tried.last)
	tried.Unlock()
}

// triedIn is the move Try worked out in pos whose UCI is input, or nil.
func triedIn(pos *chess.Position, input string) *Tried {
	tried.Lock()
	defer tried.Unlock()
	for _, t := range tried.last {
		if t != nil && t.from == pos && t.UCI == input {
			return t
		}
	}
	return nil
}

func (s *Sheet) push(t *Tried) *Entry {
	ply := len(s.entries) + 1
	num, col := s.numbering(ply)
	e := &Entry{Ply: ply, Number: num, Color: col, SAN: t.SAN, UCI: t.UCI, FENAfter: t.fen}
	if s.room == nil || !s.room.CompareAndSwap(int64(ply-1), int64(ply)) {
		// Another sheet took the place (or took back, amended): this one
		// appends to copies, and has their free room to itself.
		s.entries, s.positions, s.keys = slices.Clip(s.entries), slices.Clip(s.positions), slices.Clip(s.keys)
		s.room = new(atomic.Int64)
		s.room.Store(int64(ply))
	}
	s.positions = append(s.positions, t.next)
	s.keys = append(s.keys, repetitionKeyFEN(t.next, t.fen))
	s.entries = append(s.entries, e)
	return e
}

// ParseMove reads input as a move in the current position; see the
// package-level ParseMove for the accepted notations and the errors.
func (s *Sheet) ParseMove(input string) (*chess.Move, error) {
	return ParseMove(s.cur(), input)
}

// TakeBack restores the position immediately before ply (1-based): plies
// ply and later are removed from the record and appended to Struck. The
// struck entries are returned.
func (s *Sheet) TakeBack(ply int) ([]Entry, error) {
	if ply < 1 || ply > len(s.entries) {
		return nil, phrase.Errorf("cannot take back ply %d: the game has %d recorded plies; choose a ply from 1 to %d", ply, len(s.entries), len(s.entries))
	}
	var out []Entry
	for _, e := range s.entries[ply-1:] {
		c := *e
		c.Notes = append([]string(nil), e.Notes...)
		c.Struck = true
		out = append(out, c)
	}
	s.struck = append(s.struck, out...)
	// capped (and the room is taken past them): the next move must not
	// overwrite what a clone still holds
	s.entries = slices.Clip(s.entries[:ply-1])
	s.positions = slices.Clip(s.positions[:ply])
	s.keys = slices.Clip(s.keys[:ply])
	return out, nil
}

// Amend replaces the move at ply with input, provided every later move stays
// legal. Later moves are replayed by their from and to squares and promotion
// piece, and their SAN, UCI and FEN are recomputed; times and notes are
// kept. On error nothing is changed and the error names the first later move
// that became illegal.
func (s *Sheet) Amend(ply int, input string) error {
	if ply < 1 || ply > len(s.entries) {
		return phrase.Errorf("cannot amend ply %d: the game has %d recorded plies; choose a ply from 1 to %d", ply, len(s.entries), len(s.entries))
	}
	t := s.Clone()
	old := append([]*Entry(nil), t.entries[ply-1:]...)
	// capped, as t shares s's slices: the moves replayed go to copies
	t.entries = t.entries[: ply-1 : ply-1]
	t.positions = t.positions[:ply:ply]
	t.keys = t.keys[:ply:ply]
	m, err := t.ParseMove(input)
	if err != nil {
		return phrase.Errorf("cannot amend %s: %v", old[0].Label(), err)
	}
	for i, e := range old {
		var mv *chess.Move
		if i == 0 {
			mv = m
		} else {
			mv = findUCI(t.cur(), e.UCI)
			if mv == nil {
				return phrase.Errorf("cannot amend %s to %s: the later move %s would no longer be legal; take back from there first", old[0].Label(), input, e.Label())
			}
		}
		ne := t.push(t.work(mv))
		ne.At, ne.Used, ne.Elapsed, ne.ClockWhite, ne.ClockBlack = e.At, e.Used, e.Elapsed, e.ClockWhite, e.ClockBlack
		ne.DrawOffer, ne.Notes = e.DrawOffer, e.Notes
	}
	// The new entries take the old ones' places (shared with clones, they
	// are never changed in place).
	s.entries, s.positions, s.keys, s.room = t.entries, t.positions, t.keys, t.room
	return nil
}

// findUCI finds the legal move with the given UCI text, or nil.
func findUCI(pos *chess.Position, uci string) *chess.Move {
	for _, m := range pos.ValidMoves() {
		if m.String() == uci {
			return m
		}
	}
	return nil
}

// OutcomeOf is how a position ends the game by itself: checkmate, stalemate
// or a dead position; TermNone and "*" when play goes on.
func OutcomeOf(pos *chess.Position) (Termination, string) { return outcomeFEN(pos, "") }

// Outcome judges the position after the last move: checkmate ("1-0" or
// "0-1"), stalemate or dead position ("1/2-1/2"); otherwise TermNone, "*".
// Results that need a claim, an agreement or a clock are not decided here.
func (s *Sheet) Outcome() (Termination, string) { return outcomeFEN(s.cur(), s.FEN()) }

// outcomeFEN is OutcomeOf for a position whose FEN is known ("": not known).
func outcomeFEN(pos *chess.Position, fen string) (Termination, string) {
	switch pos.Status() {
	case chess.Checkmate:
		if pos.Turn() == chess.White {
			return TermCheckmate, "0-1"
		}
		return TermCheckmate, "1-0"
	case chess.Stalemate:
		return TermStalemate, "1/2-1/2"
	}
	if fen == "" {
		fen = pos.String()
	}
	if deadFEN(fen) {
		return TermDeadPosition, "1/2-1/2"
	}
	return TermNone, "*"
}

// repetitionKey identifies a position for the repetition rule: placement,
// side to move, castling rights, and the en-passant square only when an
// en-passant capture is actually legal.
func repetitionKey(pos *chess.Position) string { return repetitionKeyFEN(pos, pos.String()) }

// repetitionKeyFEN is repetitionKey for a position whose FEN is known: the
// FEN's first four fields, the en-passant square as "-" when no en-passant
// capture is legal. It is a part of fen, not a copy, unless the en-passant
// square must be dropped (it is made at every move: issue 29).
func repetitionKeyFEN(pos *chess.Position, fen string) string {
	head, ep, ok := fenHead(fen)
	if !ok {
		return repetitionKeyFields(pos, fen)
	}
	if head[ep:] == "-" {
		return head
	}
	for _, m := range pos.ValidMoves() {
		if m.HasTag(chess.EnPassant) {
			return head
		}
	}
	return head[:ep] + "-"
}

// fenHead is the first four fields of a FEN written as notnil writes one
// (one space between fields): placement, side to move, castling and the
// en-passant square, which starts at ep. ok is false for any other
// spacing or fewer fields.
func fenHead(fen string) (head string, ep int, ok bool) {
	spaces := 0
	for i := 0; i < len(fen); i++ {
		if fen[i] != ' ' {
			continue
		}
		if i == 0 || fen[i-1] == ' ' {
			return "", 0, false
		}
		switch spaces++; spaces {
		case 3:
			ep = i + 1
		case 4:
			return fen[:i], ep, ep < i
		}
	}
	if spaces == 3 && ep < len(fen) {
		return fen, ep, true
	}
	return "", 0, false
}

// repetitionKeyFields is repetitionKeyFEN for a FEN in any spacing.
func repetitionKeyFields(pos *chess.Position, fen string) string {
	f := strings.Fields(fen)
	ep := "-"
	for _, m := range pos.ValidMoves() {
		if m.HasTag(chess.EnPassant) {
			ep = f[3]
			break
		}
	}
	return f[0] + " " + f[1] + " " + f[2] + " " + ep
}

// RepetitionCount is how many times the current position has occurred,
// counting the current occurrence.
func (s *Sheet) RepetitionCount() int {
	k := s.keys[len(s.keys)-1]
	n := 0
	for _, x := range s.keys {
		if x == k {
			n++
		}
	}
	return n
}

// occurrences lists where key occurred, as labels.
func (s *Sheet) occurrences(key string) []string {
	var at []string
	for i, x := range s.keys {
		if x != key {
			continue
		}
		if i == 0 {
			at = append(at, "the start position")
		} else {
			at = append(at, "after "+s.entries[i-1].Label())
		}
	}
	return at
}

// ClaimRepetition judges a claim of a draw by repetition (Article 9.2): it
// is valid if the current position has occurred at least three times, or
// would after the intended move (written on the scoresheet but not yet
// played; "" for none). The phrase explains the ruling in one sentence.
func (s *Sheet) ClaimRepetition(intended string) (bool, *phrase.Error) {
	k := s.keys[len(s.keys)-1]
	if occ := s.occurrences(k); len(occ) >= 3 {
		return true, phrase.Errorf("The claim is valid: the current position has occurred %d times (%s).", len(occ), strings.Join(occ, ", "))
	}
	if strings.TrimSpace(intended) == "" {
		return false, phrase.Errorf("The claim is not valid: the current position has occurred only %s.", times(s.RepetitionCount()))
	}
	m, err := s.ParseMove(intended)
	if err != nil {
		return false, phrase.Errorf("The claim is not valid: the intended move cannot be played (%v).", err)
	}
	next := s.cur().Update(m)
	nk := repetitionKey(next)
	occ := s.occurrences(nk)
	san := chess.AlgebraicNotation{}.Encode(s.cur(), m)
	if len(occ)+1 >= 3 {
		return true, phrase.Errorf("The claim is valid: after the intended move %s the position occurs for the %s time (before: %s).", san, phrase.Word(ordinal(len(occ)+1)), strings.Join(occ, ", "))
	}
	return false, phrase.Errorf("The claim is not valid: after the intended move %s the position would have occurred only %s.", san, times(len(occ)+1))
}

// ClaimFiftyMoves judges a claim under the fifty-move rule (Article 9.3):
// valid if each player has made at least 50 consecutive moves without a
// capture or pawn move, now or after the intended move ("" for none).
func (s *Sheet) ClaimFiftyMoves(intended string) (bool, *phrase.Error) {
	hm := s.cur().HalfMoveClock()
	if hm >= 100 {
		return true, phrase.Errorf("The claim is valid: the last %d moves by each player were made without a capture or a pawn move.", hm/2)
	}
	if strings.TrimSpace(intended) == "" {
		return false, phrase.Errorf("The claim is not valid: only %d plies (%d moves by each player needed: 100 plies) were made without a capture or a pawn move.", hm, 50)
	}
	m, err := s.ParseMove(intended)
	if err != nil {
		return false, phrase.Errorf("The claim is not valid: the intended move cannot be played (%v).", err)
	}
	next := s.cur().Update(m)
	san := chess.AlgebraicNotation{}.Encode(s.cur(), m)
	if next.HalfMoveClock() >= 100 {
		return true, phrase.Errorf("The claim is valid: with the intended move %s each player has made 50 moves without a capture or a pawn move.", san)
	}
	return false, phrase.Errorf("The claim is not valid: after the intended move %s only %d plies of the 100 needed are without a capture or a pawn move.", san, next.HalfMoveClock())
}

// times says how often a position occurred as a person counts it: "once",
// "twice", "3 times" (German "einmal", "zweimal", "3-mal"), not "1 time(s)".
// Claims recorded before keep their phrase "… only %d time(s)."; the
// dictionaries keep its words for them.
func times(n int) *phrase.Error {
	switch n {
	case 1:
		return phrase.Errorf("once")
	case 2:
		return phrase.Errorf("twice")
	}
	return phrase.Errorf("%d times", n)
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

// Clone is a copy on write: changes to the clone (moves, takebacks,
// amendments, entries changed with Edit) do not affect s, nor changes to s
// the clone, and cloning copies nothing of the game. The positions and
// entries recorded are never changed in place (a position's lazy move
// cache is filled when it is added; Edit and Amend replace an entry), and
// the clone shares s's slices and their free room: the first of the
// sheets sharing them to record the next move takes that place in the
// arrays (room), any other appends to copies; Edit copies the entries
// before replacing one, and TakeBack caps what it keeps, so that no sheet
// writes into a place another may hold. The command that clones the state
// to work on it and then keeps the clone so records a move without copying
// the game's moves (issue 29: they were copied at every move).
func (s *Sheet) Clone() *Sheet {
	c := &Sheet{startFEN: s.startFEN, startNum: s.startNum, room: s.room}
	c.positions = s.positions
	c.keys = s.keys
	c.entries = s.entries
	for _, e := range s.struck {
		e.Notes = append([]string(nil), e.Notes...)
		c.struck = append(c.struck, e)
	}
	return c
}

var errEmpty = errors.New("empty move")
