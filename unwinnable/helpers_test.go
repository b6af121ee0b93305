package unwinnable

import "math/rand"

// randomPlies plays n random legal moves from b (fewer where the game
// ends first) and returns the position reached: the random walks of the
// soundness tests, which check a proof a few moves away from the rows it
// was made for.
func randomPlies(rng *rand.Rand, b Board, n int) Board {
	for ; n > 0; n-- {
		var l MoveList
		b.Legal(&l)
		if l.N == 0 {
			break
		}
		b, _ = b.Make(l.Moves[rng.Intn(l.N)])
	}
	return b
}
