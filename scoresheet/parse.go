package scoresheet

import (
	"regexp"
	"strings"

	"github.com/notnil/chess"

	"arbiter/internal/phrase"
)

// ParseMove reads one move as an arbiter types it, in position pos, and
// returns the legal move (with notnil's tags set, so it can be passed to
// pos.Update). Accepted:
//
//   - strict SAN: "Nf3", "exd5", "O-O", "e8=Q+";
//   - castling with zeros or lower case, with or without dashes: "0-0",
//     "o-o-o", "OO";
//   - over-disambiguation: "Ngf3", "Ng1f3";
//   - a wrong or missing "+" or "#", annotations "!", "?", "!?", "?!",
//     "e.p." and a missing or superfluous capture mark "x" (or ":");
//   - promotion without "=" or with a lower-case piece: "a8Q", "a8=q",
//     "e8=N", "e8n";
//   - piece letters in lower case where that is unambiguous: "nf3", "qxd7",
//     "kf1", "rd1". A lower-case "b" is always the b-file, never the bishop
//     ("bxc3" is the b-pawn capturing on c3): write "B" for the bishop;
//   - German piece letters in upper case, wherever a piece letter stands
//     (the moving piece, a promotion, a long algebraic move's piece):
//     S = N, L = B, T = R, D = Q, K = K, as German scoresheets and the
//     German console write them: "Sf3", "Lxb5+", "Tad1", "Dd1-h5", "e8=D",
//     "e8D". D, T, L and S are never files, so they mean nothing else; in
//     lower case they keep their meaning ("d" is the d-file) and "B" stays
//     the (English) bishop;
//   - UCI: "e2e4", "e7e8q", "e1g1" (castling as the king's move);
//   - long algebraic: "e2-e4", "Ng1-f3", "e4xd5", "Ng1xf3".
//
// A pawn move without a source file ("d5") only means a pawn advancing on
// that file; a pawn capture needs its file ("ed5" or "exd5"). A promotion
// must name its piece. Errors are one sentence naming the side and why the
// move cannot be played.
func ParseMove(pos *chess.Position, input string) (*chess.Move, error) {
	in := strings.TrimSpace(input)
	if in == "" {
		return nil, errEmpty
	}
	side := colorName(pos.Turn())
	legal := pos.ValidMoves()
	if len(legal) == 0 {
		if pos.Status() == chess.Checkmate {
			return nil, phrase.Errorf("%s is not legal: %s is checkmated and the game is over", in, side)
		}
		return nil, phrase.Errorf("%s is not legal: %s is stalemated and the game is over", in, side)
	}
	s := stripAnnotations(in)
	// the refusal is written only when the input is refused (it was
	// formatted for every move entered: docs/performance.md, "Commit and
	// move, tenth pass")
	notAMove := func() error { return phrase.Errorf("%q is not a move: write SAN like Nf3 or UCI like g1f3", in) }
	if s == "" {
		return nil, notAMove()
	}

	// Castling.
	if c := castleSide(s); c != 0 {
		for _, m := range legal {
			if (c == chess.KingSide && m.HasTag(chess.KingSideCastle)) || (c == chess.QueenSide && m.HasTag(chess.QueenSideCastle)) {
				return m, nil
			}
		}
		return nil, phrase.Errorf("%s is not legal for %s: %s", in, side, castleReason(pos, c))
	}

	// UCI and long algebraic: a from square and a to square.
	if g := longRe.FindStringSubmatch(s); g != nil {
		from, to := sq(g[2]), sq(g[3])
		p := pos.Board().Piece(from)
		if p == chess.NoPiece {
			return nil, phrase.Errorf("%s is not legal for %s: there is no piece on %s", in, side, from)
		}
		if p.Color() != pos.Turn() {
			return nil, phrase.Errorf("%s is not legal for %s: the piece on %s is %s's", in, side, from, colorName(p.Color()))
		}
		if g[1] != "" && pieceType(g[1]) != p.Type() {
			return nil, phrase.Errorf("%s is not legal for %s: the piece on %s is a %s, not a %s", in, side, from, typeName(p.Type()), typeName(pieceType(g[1])))
		}
		return pick(pos, legal, in, p.Type(), from.File(), true, from.Rank(), true, to, g[4])
	}

	// SAN.
	g, ok := sanFields(sanStrip.Replace(s))
	if !ok {
		return nil, notAMove()
	}
	pt := chess.Pawn
	if g[1] != "" {
		pt = pieceType(g[1])
	}
	var file chess.File
	var rank chess.Rank
	hasFile, hasRank := g[2] != "", g[3] != ""
	if hasFile {
		file = chess.File(g[2][0] - 'a')
	}
	if hasRank {
		rank = chess.Rank(g[3][0] - '1')
	}
	to := sq(g[4])
	if pt == chess.Pawn {
		if hasRank {
			return nil, notAMove()
		}
		if !hasFile { // a pawn push stays on its file
			file, hasFile = to.File(), true
		}
	}
	return pick(pos, legal, in, pt, file, hasFile, rank, hasRank, to, g[5])
}

var (
	longRe = regexp.MustCompile(`^([KQRBNDTLSkqrn]?)([a-h][1-8])[-x:]?([a-h][1-8])=?([QRBNDTLSqrbn]?)$`)
)

// sanFields is what the regular expression
//
//	^([KQRBNDTLSkqrn]?)([a-h]?)([1-8]?)([a-h][1-8])=?([QRBNDTLSqrbn]?)$
//
// finds in s (its submatches), without a regular expression:
// the same submatches, in an array (the regular expression's []string and
// its matcher's state were 216 bytes of every move entered:
// docs/performance.md, "Move and commit, thirteenth pass"). The match is
// unique, so it can be read from the end: a last letter is the promotion's
// piece, then an optional "=", then the target square, and before it an
// optional piece letter, file and rank, in that order, and nothing else.
// TestSANFieldsAreTheRegularExpressions compares the two.
func sanFields(s string) (g [6]string, ok bool) {
	rest := s
	if n := len(rest); n > 0 && strings.IndexByte("QRBNDTLSqrbn", rest[n-1]) >= 0 {
		g[5], rest = rest[n-1:], rest[:n-1]
	}
	if n := len(rest); n > 0 && rest[n-1] == '=' {
		rest = rest[:n-1]
	}
	n := len(rest)
	if n < 2 || !isFile(rest[n-2]) || !isRank(rest[n-1]) {
		return g, false
	}
	g[4], rest = rest[n-2:], rest[:n-2]
	if len(rest) > 0 && strings.IndexByte("KQRBNDTLSkqrn", rest[0]) >= 0 {
		g[1], rest = rest[:1], rest[1:]
	}
	if len(rest) > 0 && isFile(rest[0]) {
		g[2], rest = rest[:1], rest[1:]
	}
	if len(rest) > 0 && isRank(rest[0]) {
		g[3], rest = rest[:1], rest[1:]
	}
	if rest != "" {
		return g, false
	}
	g[0] = s
	return g, true
}

func isFile(c byte) bool { return 'a' <= c && c <= 'h' }
func isRank(c byte) bool { return '1' <= c && c <= '8' }

// stripAnnotations removes check and mate signs, "e.p." and move
// annotations from the end of s.
func stripAnnotations(s string) string {
	for {
		t := strings.TrimSpace(s)
		t = strings.TrimSuffix(t, "e.p.")
		t = strings.TrimRight(t, "+#!? ")
		if t == s {
			return t
		}
		s = t
	}
}

// sanStrip drops the capture and separator marks a SAN may carry;
// castleStrip reads a castling's zeros as letters O and drops its dashes.
var (
	sanStrip    = strings.NewReplacer("x", "", ":", "", "-", "")
	castleStrip = strings.NewReplacer("0", "O", "-", "")
)

func castleSide(s string) chess.Side {
	t := strings.ToUpper(castleStrip.Replace(s))
	switch t {
	case "OO":
		return chess.KingSide
	case "OOO":
		return chess.QueenSide
	}
	return 0
}

func castleReason(pos *chess.Position, side chess.Side) *phrase.Error {
	c := pos.Turn()
	switch {
	case !pos.CastleRights().CanCastle(c, side):
		return phrase.Errorf("%s no longer has the right to castle on that side", colorName(c))
	case pos.Status() == chess.NoMethod && inCheck(pos):
		return phrase.Errorf("%s is in check", colorName(c))
	}
	return phrase.Errorf("there are pieces between king and rook or the king would pass through or land on an attacked square")
}

// inCheck reports whether the side to move is in check.
func inCheck(pos *chess.Position) bool {
	b := pos.Board()
	var ksq chess.Square = chess.NoSquare
	for s, p := range b.SquareMap() {
		if p == chess.NewPiece(chess.King, pos.Turn()) {
			ksq = s
		}
	}
	if ksq == chess.NoSquare {
		return false
	}
	for s, p := range b.SquareMap() {
		if p.Color() != pos.Turn() && attacks(b, s, ksq) {
			return true
		}
	}
	return false
}

func sq(s string) chess.Square {
	return chess.NewSquare(chess.File(s[0]-'a'), chess.Rank(s[1]-'1'))
}

// pieceType reads a piece letter: English in either case, or German in
// upper case (D Dame, T Turm, L Läufer, S Springer; K König as in English).
// A lower-case d, t, l or s is no piece.
func pieceType(s string) chess.PieceType {
	switch s {
	case "K", "k":
		return chess.King
	case "Q", "q", "D":
		return chess.Queen
	case "R", "r", "T":
		return chess.Rook
	case "B", "b", "L":
		return chess.Bishop
	case "N", "n", "S":
		return chess.Knight
	}
	return chess.NoPieceType
}

func typeName(t chess.PieceType) phrase.Word {
	switch t {
	case chess.King:
		return "king"
	case chess.Queen:
		return "queen"
	case chess.Rook:
		return "rook"
	case chess.Bishop:
		return "bishop"
	case chess.Knight:
		return "knight"
	case chess.Pawn:
		return "pawn"
	}
	return "piece"
}

func plural(t chess.PieceType) phrase.Word { return typeName(t) + "s" }

// pick selects the one legal move matching the description, or explains why
// there is none or more than one.
func pick(pos *chess.Position, legal []*chess.Move, in string, pt chess.PieceType, file chess.File, hasFile bool, rank chess.Rank, hasRank bool, to chess.Square, promo string) (*chess.Move, error) {
	b := pos.Board()
	side := colorName(pos.Turn())
	want := chess.NoPieceType
	if promo != "" {
		want = pieceType(promo)
	}
	var found []*chess.Move
	for _, m := range legal {
		if m.S2() != to || b.Piece(m.S1()).Type() != pt {
			continue
		}
		if hasFile && m.S1().File() != file || hasRank && m.S1().Rank() != rank {
			continue
		}
		found = append(found, m)
	}
	if len(found) > 0 && found[0].Promo() != chess.NoPieceType {
		if want == chess.NoPieceType {
			return nil, phrase.Errorf("%s is not complete: a pawn reaching %s must be promoted; add the piece, e.g. %s=Q", in, to, strings.TrimRight(in, "+#!? "))
		}
		var keep []*chess.Move
		for _, m := range found {
			if m.Promo() == want {
				keep = append(keep, m)
			}
		}
		found = keep
	} else if len(found) > 0 && want != chess.NoPieceType {
		return nil, phrase.Errorf("%s is not legal for %s: only a pawn reaching the last rank is promoted", in, side)
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, whyNot(pos, in, pt, file, hasFile, rank, hasRank, to)
	}
	var from, sans []string
	for _, m := range found {
		from = append(from, m.S1().String())
		sans = append(sans, strings.TrimRight(chess.AlgebraicNotation{}.Encode(pos, m), "+#"))
	}
	both := phrase.Word("both")
	if len(found) > 2 {
		both = "all"
	}
	return nil, phrase.Errorf("%s is ambiguous: %s on %s can %s go there; write %s", in, plural(pt), joinOr(from, "and"), both, joinOr(sans, "or"))
}

// joinOr lists xs as "a, b and c" (conj "and") or "a, b or c" (conj "or"),
// as a phrase whose conjunction is translated.
func joinOr(xs []string, conj string) any {
	if len(xs) == 1 {
		return xs[0]
	}
	return phrase.Errorf("%s "+conj+" %s", strings.Join(xs[:len(xs)-1], ", "), xs[len(xs)-1])
}

// whyNot explains why no legal move matches.
func whyNot(pos *chess.Position, in string, pt chess.PieceType, file chess.File, hasFile bool, rank chess.Rank, hasRank bool, to chess.Square) error {
	b := pos.Board()
	side := colorName(pos.Turn())
	reach := false
	for s, p := range b.SquareMap() {
		if p != chess.NewPiece(pt, pos.Turn()) || hasFile && s.File() != file || hasRank && s.Rank() != rank {
			continue
		}
		if canGo(pos, s, to) {
			reach = true
		}
	}
	if occ := b.Piece(to); occ != chess.NoPiece && occ.Color() == pos.Turn() {
		return phrase.Errorf("%s is not legal for %s: %s is occupied by %s's own %s", in, side, to, side, typeName(occ.Type()))
	}
	if !reach {
		return phrase.Errorf("%s is not legal for %s: no %s can reach %s", in, side, typeName(pt), to)
	}
	if inCheck(pos) {
		return phrase.Errorf("%s is not legal: %s is in check", in, side)
	}
	king := phrase.Word("the white king")
	if pos.Turn() == chess.Black {
		king = "the black king"
	}
	return phrase.Errorf("%s is not legal for %s: it would leave %s in check", in, side, king)
}

// canGo reports whether the piece on from could move to to if king safety
// were ignored (pawn pushes, captures and en passant included).
func canGo(pos *chess.Position, from, to chess.Square) bool {
	b := pos.Board()
	p := b.Piece(from)
	if p.Type() != chess.Pawn {
		return attacks(b, from, to)
	}
	dir := 1
	home := chess.Rank2
	if p.Color() == chess.Black {
		dir, home = -1, chess.Rank7
	}
	df := int(to.File()) - int(from.File())
	dr := int(to.Rank()) - int(from.Rank())
	if df == 0 {
		if b.Piece(to) != chess.NoPiece {
			return false
		}
		if dr == dir {
			return true
		}
		mid := chess.NewSquare(from.File(), chess.Rank(int(from.Rank())+dir))
		return dr == 2*dir && from.Rank() == home && b.Piece(mid) == chess.NoPiece
	}
	if (df == 1 || df == -1) && dr == dir {
		t := b.Piece(to)
		return t != chess.NoPiece && t.Color() != p.Color() || to == pos.EnPassantSquare()
	}
	return false
}

// attacks reports whether the piece on from attacks to (line pieces need a
// clear path; pawns attack diagonally forward).
func attacks(b *chess.Board, from, to chess.Square) bool {
	p := b.Piece(from)
	if p == chess.NoPiece || from == to {
		return false
	}
	df := int(to.File()) - int(from.File())
	dr := int(to.Rank()) - int(from.Rank())
	adf, adr := abs(df), abs(dr)
	switch p.Type() {
	case chess.King:
		return adf <= 1 && adr <= 1
	case chess.Knight:
		return adf*adr == 2
	case chess.Pawn:
		dir := 1
		if p.Color() == chess.Black {
			dir = -1
		}
		return adf == 1 && dr == dir
	case chess.Bishop:
		return adf == adr && clear(b, from, to)
	case chess.Rook:
		return (adf == 0 || adr == 0) && clear(b, from, to)
	case chess.Queen:
		return (adf == adr || adf == 0 || adr == 0) && clear(b, from, to)
	}
	return false
}

func clear(b *chess.Board, from, to chess.Square) bool {
	sf, sr := sign(int(to.File())-int(from.File())), sign(int(to.Rank())-int(from.Rank()))
	f, r := int(from.File())+sf, int(from.Rank())+sr
	for f != int(to.File()) || r != int(to.Rank()) {
		if b.Piece(chess.NewSquare(chess.File(f), chess.Rank(r))) != chess.NoPiece {
			return false
		}
		f, r = f+sf, r+sr
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
