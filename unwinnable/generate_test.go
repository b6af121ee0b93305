package unwinnable

import (
	"bufio"
	"flag"
	"fmt"
	"math/bits"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The generator of hard positions (issue 29): positions of the kinds the
// analyser found hardest, each legal (ParseFEN's checks, neither king in
// check, no mate or stalemate on the board) and reachable-looking (no more
// promoted men than missing pawns, no more pawn captures than missing
// enemy men). They are labelled by CHA-Solver outside the tests
// (scripts/unwinnable-generated.sh); the rows the analyser did not decide
// are kept in testdata/generated.tsv with their labels.
//
//	go test ./unwinnable -run TestTheGeneratorMakesLegalPositions -args \
//	    -generate FILE -generate.seed 29 -generate.n 20000
//
// writes FILE, one 'FEN COLOUR' line a position (CHA-Solver's input and
// arbiter unwinnable's), the same file for the same seed and count.
var (
	generateOut  = flag.String("generate", "", "write generated hard positions to this file (TestTheGeneratorMakesLegalPositions)")
	generateSeed = flag.Int64("generate.seed", 29, "the generator's seed")
	generateN    = flag.Int("generate.n", 20000, "how many positions to generate")
)

// The kinds of generated positions, in the order they take turns.
const (
	// genChains: blocked pawn chains (one wall or two) with many bishops
	// behind them, several promoted, a few other men at times.
	genChains = iota
	// genComposed: a published composition of bishops and pawns
	// (testdata/generator-seeds.txt) changed in one to three ways — a
	// bishop moved to another square of its colour, a promoted bishop
	// added, a man taken off, a knight, rook or queen made a bishop, a king
	// moved — and mirrored at times.
	genComposed
	// genRace: a lone pawn (or two) and its king against a king with two
	// bishops or a bishop pair and a knight, sparse; the pawn's side to
	// mate, at times the other.
	genRace
	// genCrowd: one side's bishops (mostly of one colour) crowded round
	// its king against a queen and rooks, with pawns at times.
	genCrowd
	genKinds
)

var genKindNames = [genKinds]string{"chains", "composed", "race", "crowd"}

// genPos is a position being built: a mailbox of piece letters.
type genPos struct {
	sq  [64]byte // 0 empty, else a letter of pieceLetters
	stm int
}

func (p *genPos) free(s int) bool { return p.sq[s] == 0 }

// place puts letter on a random free square of mask (all squares where
// mask is 0) and reports whether one was free.
func (p *genPos) place(rng *rand.Rand, letter byte, mask uint64) bool {
	var free []int
	for s := 0; s < 64; s++ {
		if p.sq[s] == 0 && (mask == 0 || mask&(1<<s) != 0) {
			if (letter == 'P' || letter == 'p') && (s < 8 || s >= 56) {
				continue
			}
			free = append(free, s)
		}
	}
	if len(free) == 0 {
		return false
	}
	p.sq[free[rng.Intn(len(free))]] = letter
	return true
}

func (p *genPos) fen() string {
	sq := make([]byte, 64) // from a8, as packSquares reads them
	for q, c := range p.sq {
		if c == 0 {
			c = '.'
		}
		sq[(7-q/8)*8+q%8] = c
	}
	return packSquares(sq) + []string{" w - - 0 1", " b - - 0 1"}[p.stm]
}

// letter is the piece letter of colour c and type t.
func letter(c, t int) byte { return pieceLetters[c*6+t] }

// Square colour masks.
const (
	darkSquares  uint64 = 0xAA55AA55AA55AA55
	lightSquares        = ^darkSquares
)

// ranksBetween is the mask of ranks lo..hi (0-based, inclusive).
func ranksBetween(lo, hi int) uint64 {
	var m uint64
	for r := max(lo, 0); r <= min(hi, 7); r++ {
		m |= 0xFF << (8 * r)
	}
	return m
}

// genChainsPos builds a blocked structure as compositions have it: a wall
// of pawns head to head across the board, the ranks of neighbouring files
// one apart (so no pawn can take another) or at times equal, a file or two
// left open at times, sometimes a second wall; kings on either side of it
// (at times inside a pocket of the wall), and many bishops (several
// promoted), some in the wall's pockets, at times a knight, rook or queen.
func genChainsPos(rng *rand.Rand, p *genPos) {
	// The wall: White's pawn on rank r, Black's on r+1.
	r := 1 + rng.Intn(5)
	var below, above, wall uint64 // squares below White's pawns and above Black's, by file
	holes := 0
	if rng.Intn(5) == 0 {
		holes = 1 + rng.Intn(2)
	}
	open := map[int]bool{}
	for len(open) < holes {
		open[rng.Intn(8)] = true
	}
	file := uint64(0x0101010101010101)
	for f := 0; f < 8; f++ {
		if f > 0 {
			step := 1 - 2*rng.Intn(2)
			if rng.Intn(12) == 0 {
				step = 0
			}
			if r+step < 1 || r+step > 5 {
				step = -step
			}
			r += step
		}
		if open[f] {
			below |= ranksBetween(0, r) & (file << f)
			above |= ranksBetween(r+1, 7) & (file << f)
			continue
		}
		p.sq[r*8+f], p.sq[(r+1)*8+f] = 'P', 'p'
		wall |= 1<<(r*8+f) | 1<<((r+1)*8+f)
		below |= ranksBetween(0, r-1) & (file << f)
		above |= ranksBetween(r+2, 7) & (file << f)
	}
	// A second wall at times, two ranks below the first where it fits.
	if rng.Intn(4) == 0 {
		for f := 0; f < 8; f++ {
			for r := 3; r <= 5; r++ {
				if p.sq[r*8+f] == 'P' && rng.Intn(3) > 0 && p.free((r-2)*8+f) && p.free((r-1)*8+f) {
					p.sq[(r-2)*8+f], p.sq[(r-1)*8+f] = 'P', 'p'
				}
			}
		}
	}
	// Pockets: the free squares beside the wall.
	var near uint64
	for f := wall; f != 0; f &= f - 1 {
		near |= kingAttacks[bits.TrailingZeros64(f)]
	}
	near &^= wall
	// Kings: White's below the wall and Black's above, at times in a
	// pocket, at times anywhere.
	wk, bk := below, above
	switch rng.Intn(6) {
	case 0:
		wk, bk = 0, 0
	case 1:
		wk &= near
	case 2:
		bk &= near
	}
	p.place(rng, 'K', wk)
	p.place(rng, 'k', bk)
	// Bishops: each side up to eight, mostly behind its pawns or in the
	// pockets. In a wall whose neighbouring files' ranks differ by one,
	// White's pawns all stand on squares of one colour and Black's on the
	// other: a bishop of the colour of its own pawns can never take an
	// enemy pawn, and most bishops are of that colour (the compositions'
	// "locked" bishops), a few of the other.
	whiteColour := darkSquares
	if p.sq[bits.TrailingZeros64(wall)] == 'P' && lightSquares&(1<<bits.TrailingZeros64(wall)) != 0 ||
		p.sq[bits.TrailingZeros64(wall)] == 'p' && darkSquares&(1<<bits.TrailingZeros64(wall)) != 0 {
		whiteColour = lightSquares
	}
	for c := 0; c < 2; c++ {
		home, away := below, above
		locked := whiteColour
		if c == Black {
			home, away = above, below
			locked = ^whiteColour
		}
		n := rng.Intn(9)
		for i := 0; i < n; i++ {
			var mask uint64
			switch rng.Intn(8) {
			case 0:
				mask = away
			case 1, 2, 3:
				mask = near
			default:
				mask = home
			}
			colour := locked
			if rng.Intn(4) == 0 {
				colour = ^locked
			}
			if mask&colour != 0 {
				mask &= colour
			}
			if mask == 0 {
				mask = home
			}
			p.place(rng, letter(c, Bishop), mask)
		}
		// A few other men at times.
		for _, t := range []int{Knight, Rook, Queen, Pawn} {
			if rng.Intn(16) == 0 {
				p.place(rng, letter(c, t), home)
			}
		}
	}
}

// genRacePos: a lone pawn (at times two, or a loser's pawn too) and its
// king against a king with two bishops, or a bishop pair and a knight.
func genRacePos(rng *rand.Rand, p *genPos, winner int) {
	loser := 1 - winner
	p.place(rng, letter(winner, King), 0)
	p.place(rng, letter(loser, King), 0)
	// The winner's pawn, on any rank it can stand on, more often far back.
	rank := 1 + rng.Intn(6)
	if winner == Black {
		rank = 7 - rank
	}
	p.place(rng, letter(winner, Pawn), ranksBetween(rank, rank))
	if rng.Intn(5) == 0 {
		p.place(rng, letter(winner, Pawn), 0)
	}
	switch rng.Intn(4) {
	case 0: // two bishops of one colour
		m := lightSquares
		if rng.Intn(2) == 0 {
			m = darkSquares
		}
		p.place(rng, letter(loser, Bishop), m)
		p.place(rng, letter(loser, Bishop), m)
	case 1, 2: // the bishop pair
		p.place(rng, letter(loser, Bishop), lightSquares)
		p.place(rng, letter(loser, Bishop), darkSquares)
	default: // the bishop pair and a knight
		p.place(rng, letter(loser, Bishop), lightSquares)
		p.place(rng, letter(loser, Bishop), darkSquares)
		p.place(rng, letter(loser, Knight), 0)
	}
	if rng.Intn(3) == 0 {
		p.place(rng, letter(loser, Knight), 0)
	}
	if rng.Intn(4) == 0 {
		p.place(rng, letter(loser, Pawn), 0)
	}
}

// genCrowdPos: one side's bishops (mostly of one colour) crowded in a
// corner region round its king, against a king, a queen and rooks (and at
// times bishops, a knight, pawns).
func genCrowdPos(rng *rand.Rand, p *genPos, bishops int) {
	other := 1 - bishops
	// The crowd's region: a quarter or a half of the board.
	var region uint64
	switch rng.Intn(3) {
	case 0:
		region = ranksBetween(0, 3)
	case 1:
		region = ranksBetween(4, 7)
	default:
		region = 0x0F0F0F0F0F0F0F0F
		if rng.Intn(2) == 0 {
			region = ^region
		}
	}
	p.place(rng, letter(bishops, King), region)
	colour := lightSquares
	if rng.Intn(2) == 0 {
		colour = darkSquares
	}
	n := 4 + rng.Intn(7)
	for i := 0; i < n; i++ {
		m := region & colour
		if rng.Intn(6) == 0 {
			m = region
		}
		p.place(rng, letter(bishops, Bishop), m)
	}
	if rng.Intn(3) == 0 {
		for i := rng.Intn(4); i > 0; i-- {
			p.place(rng, letter(bishops, Pawn), region)
		}
	}
	p.place(rng, letter(other, King), ^region)
	p.place(rng, letter(other, Queen), 0)
	for i := 1 + rng.Intn(2); i > 0; i-- {
		p.place(rng, letter(other, Rook), 0)
	}
	for _, t := range []int{Bishop, Knight, Queen, Rook} {
		if rng.Intn(4) == 0 {
			p.place(rng, letter(other, t), 0)
		}
	}
	for i := rng.Intn(4); i > 0; i-- {
		p.place(rng, letter(other, Pawn), 0)
	}
}

// genSeeds are the compositions genComposed changes.
var genSeeds = sync.OnceValue(func() []string {
	data, err := os.ReadFile(filepath.Join("testdata", "generator-seeds.txt"))
	if err != nil {
		panic(err)
	}
	var seeds []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			seeds = append(seeds, line)
		}
	}
	return seeds
})

// genComposedPos changes a composition of genSeeds.
func genComposedPos(rng *rand.Rand, p *genPos) {
	seed := genSeeds()[rng.Intn(len(genSeeds()))]
	f := strings.Fields(seed)
	sq := fenSquares(f[0])
	if f[1] == "b" {
		p.stm = Black
	} else {
		p.stm = White
	}
	colourOf := func(q int) int { return (q/8 + q%8) % 2 }
	for k := 1 + rng.Intn(3); k > 0; k-- {
		q := rng.Intn(64)
		switch rng.Intn(5) {
		case 0: // a bishop moved to a free square of its colour
			if t := rng.Intn(64); (sq[q] == 'b' || sq[q] == 'B') && sq[t] == '.' && colourOf(t) == colourOf(q) {
				sq[t], sq[q] = sq[q], '.'
			}
		case 1: // a promoted bishop added
			if sq[q] == '.' {
				sq[q] = "bB"[rng.Intn(2)]
			}
		case 2: // a man taken off
			if sq[q] != 'k' && sq[q] != 'K' {
				sq[q] = '.'
			}
		case 3: // a knight, rook or queen made a bishop
			if strings.IndexByte("nrq", sq[q]) >= 0 {
				sq[q] = 'b'
			} else if strings.IndexByte("NRQ", sq[q]) >= 0 {
				sq[q] = 'B'
			}
		default: // a king moved
			if t := rng.Intn(64); (sq[q] == 'k' || sq[q] == 'K') && sq[t] == '.' {
				sq[t], sq[q] = sq[q], '.'
			}
		}
	}
	mirror := rng.Intn(2) == 0
	for q := range sq {
		t := q
		if mirror {
			t = q/8*8 + 7 - q%8
		}
		// fenSquares runs from a8; genPos from a1.
		if sq[q] != '.' {
			p.sq[(7-t/8)*8+t%8] = sq[q]
		}
	}
}

// genReachable reports whether the men of p look reachable from the
// initial position: at most 16 men and 8 pawns a side, no more promoted
// pieces than missing pawns, and no more captures by a side's pawns (each
// pawn from a file of its own, a file a capture) than the enemy men
// missing.
func genReachable(p *genPos) bool {
	var n [2][6]int
	var light, dark [2]int
	var pawnFiles [2][]int
	for s, c := range p.sq {
		if c == 0 {
			continue
		}
		k := strings.IndexByte(pieceLetters, c)
		col, t := k/6, k%6
		n[col][t]++
		if t == Bishop {
			if darkSquares&(1<<s) != 0 {
				dark[col]++
			} else {
				light[col]++
			}
		}
		if t == Pawn {
			pawnFiles[col] = append(pawnFiles[col], s&7)
		}
	}
	var men [2]int
	for c := 0; c < 2; c++ {
		for t := 0; t < 6; t++ {
			men[c] += n[c][t]
		}
	}
	for c := 0; c < 2; c++ {
		promoted := max(0, n[c][Knight]-2) + max(0, light[c]-1) + max(0, dark[c]-1) + max(0, n[c][Rook]-2) + max(0, n[c][Queen]-1)
		if men[c] > 16 || n[c][Pawn] > 8 || promoted > 8-n[c][Pawn] {
			return false
		}
		if pawnCaptures(pawnFiles[c]) > 16-men[1-c] {
			return false
		}
	}
	return true
}

// pawnCaptures is the fewest captures that bring pawns from distinct
// starting files to the files given: the pawns in file order matched to
// starting files in order (a matching that crosses is never cheaper).
func pawnCaptures(files []int) int {
	sorted := append([]int(nil), files...)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	// best[i][g]: the cost of the first i pawns on starting files < g.
	const inf = 1 << 20
	k := len(sorted)
	best := make([][9]int, k+1)
	for i := 1; i <= k; i++ {
		for g := 0; g <= 8; g++ {
			best[i][g] = inf
		}
	}
	for i := 1; i <= k; i++ {
		for g := 1; g <= 8; g++ {
			d := sorted[i-1] - (g - 1)
			if d < 0 {
				d = -d
			}
			best[i][g] = min(best[i][g-1], best[i-1][g-1]+d)
		}
	}
	return best[k][8]
}

// generatePosition makes one position of the given kind, with the colour
// to mate: legal, reachable-looking, neither side in check, the side to
// move with a legal move.
func generatePosition(rng *rand.Rand, kind int) (string, int) {
	for {
		var p genPos
		p.stm = rng.Intn(2)
		winner := rng.Intn(2)
		switch kind {
		case genChains:
			genChainsPos(rng, &p)
			if strings.Count(string(p.sq[:]), "P") < 3 || strings.Count(string(p.sq[:]), "p") < 3 {
				continue // a wall of fewer than three files
			}
		case genComposed:
			genComposedPos(rng, &p)
		case genRace:
			genRacePos(rng, &p, winner)
			if rng.Intn(5) == 0 {
				winner = 1 - winner // the bishops' side to mate, at times
			}
		case genCrowd:
			genCrowdPos(rng, &p, winner)
			if rng.Intn(3) == 0 {
				winner = 1 - winner
			}
		}
		if !genReachable(&p) {
			continue
		}
		fen := p.fen()
		b, err := ParseFEN(fen)
		if err != nil || b.InCheck() {
			continue
		}
		var l MoveList
		b.Legal(&l)
		if l.N == 0 {
			continue
		}
		return fen, winner
	}
}

// generateRows makes n positions from seed, the kinds in turn.
func generateRows(seed int64, n int) []row {
	rng := rand.New(rand.NewSource(seed))
	rows := make([]row, n)
	for i := range rows {
		kind := i % genKinds
		fen, w := generatePosition(rng, kind)
		rows[i] = row{fen: fen, colour: strings.ToLower(colourName(w)), source: "generated " + genKindNames[kind]}
	}
	return rows
}

// TestTheGeneratorMakesLegalPositions: every generated position parses,
// neither king is in check, the side to move can move, the men look
// reachable, each kind has its men, and the same seed gives the same rows.
// With -generate FILE it writes -generate.n positions of -generate.seed.
func TestTheGeneratorMakesLegalPositions(t *testing.T) {
	rows := generateRows(1, 3000)
	again := generateRows(1, 3000)
	seen := map[string]bool{}
	for i, r := range rows {
		if r != again[i] {
			t.Fatalf("row %d: %v, then %v from the same seed", i, r, again[i])
		}
		b, err := ParseFEN(r.fen)
		if err != nil {
			t.Fatalf("%s: %v", r.fen, err)
		}
		if b.InCheck() {
			t.Fatalf("%s: the side to move is in check", r.fen)
		}
		var l MoveList
		b.Legal(&l)
		if l.N == 0 {
			t.Fatalf("%s: the side to move has no move", r.fen)
		}
		bishops := bits.OnesCount64(b.bb[White][Bishop] | b.bb[Black][Bishop])
		switch i % genKinds {
		case genChains:
			if b.bb[White][Pawn] == 0 || b.bb[Black][Pawn] == 0 {
				t.Fatalf("%s: a chain without pawns", r.fen)
			}
		case genComposed:
			if bishops < 2 {
				t.Fatalf("%s: a composition without its bishops", r.fen)
			}
		case genRace:
			if bishops < 2 {
				t.Fatalf("%s: a race without two bishops", r.fen)
			}
		case genCrowd:
			if bishops < 3 || b.bb[White][Queen]|b.bb[Black][Queen] == 0 {
				t.Fatalf("%s: a crowd without its bishops or the queen", r.fen)
			}
		}
		seen[r.fen+r.colour] = true
	}
	if len(seen) < len(rows)*9/10 {
		t.Fatalf("only %d distinct rows of %d", len(seen), len(rows))
	}
	if *generateOut == "" {
		return
	}
	f, err := os.Create(*generateOut)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, r := range generateRows(*generateSeed, *generateN) {
		fmt.Fprintf(w, "%s %s\n", r.fen, r.colour)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions of seed %d written to %s", *generateN, *generateSeed, *generateOut)
}
