package scoresheet

import (
	"strconv"
	"strings"

	"arbiter/internal/phrase"
)

// fenFields checks the six fields of a FEN one by one and says which field
// or rank is wrong and why, before the chess library reads it (whose
// refusal, "fen invalid board …", names neither).
func fenFields(f []string) error {
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 8 {
		return phrase.Errorf("the FEN's board %q has %d ranks: it needs 8, from rank 8 to rank 1, separated by /", f[0], len(ranks))
	}
	for i, r := range ranks {
		n := 8 - i // the board lists rank 8 first
		squares := 0
		for _, c := range r {
			switch {
			case c >= '1' && c <= '8':
				squares += int(c - '0')
			case strings.ContainsRune("pnbrqkPNBRQK", c):
				squares++
			default:
				return phrase.Errorf("rank %d of the FEN's board (%q) has %q, which is neither a piece nor a count of empty squares: write PNBRQK for White's pieces, pnbrqk for Black's and 1 to 8 for empty squares", n, r, string(c))
			}
		}
		if squares != 8 {
			return phrase.Errorf("rank %d of the FEN's board (%q) covers %d squares: each rank needs 8 (a piece is one square, a digit that many empty squares)", n, r, squares)
		}
	}
	if f[1] != "w" && f[1] != "b" {
		return phrase.Errorf("the FEN's side to move is %q: write w for White or b for Black", f[1])
	}
	if f[2] != "-" {
		seen := map[rune]bool{}
		for _, c := range f[2] {
			if !strings.ContainsRune("KQkq", c) || seen[c] {
				return phrase.Errorf("the FEN's castling field %q is not valid: write - for none, or each of K, Q, k, q at most once", f[2])
			}
			seen[c] = true
		}
	}
	if ep := f[3]; ep != "-" && (len(ep) != 2 || ep[0] < 'a' || ep[0] > 'h' || (ep[1] != '3' && ep[1] != '6')) {
		return phrase.Errorf("the FEN's en-passant field %q is not valid: write - or the square a pawn just passed, on rank 3 or 6 (e.g. e3)", ep)
	}
	if n, err := strconv.Atoi(f[4]); err != nil || n < 0 {
		return phrase.Errorf("the FEN's halfmove clock %q is not valid: write the plies since the last capture or pawn move, 0 or more", f[4])
	}
	if n, err := strconv.Atoi(f[5]); err != nil || n < 1 {
		return phrase.Errorf("the FEN's move number %q is not valid: write the number of the next move, 1 or more", f[5])
	}
	return nil
}
