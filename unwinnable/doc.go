// Package unwinnable decides Article 6.9 of the Laws of Chess: can a given
// side still checkmate by any series of legal moves (a helpmate), however
// the opponent plays? The answer is a proof either way: a helpmate line, or
// a sentence saying why no mate exists; "undetermined" only when the node
// limit is reached.
//
// Mechanism. The package has its own bitboard move generator (Board, Move,
// MoveList): pieces as 64-bit sets, slider attacks by hyperbola
// quintessence (a byte swap for files and diagonals, a table for ranks),
// copy-make (a move is made on a copy of the board, never undone) and
// Zobrist keys. It is checked against github.com/notnil/chess, which stays
// the rules engine of the game, by perft and by a fuzz target.
//
// Analyse then works in stages, each one sound on its own: forced moves
// are played out; a material rule (lone king, king and knight or bishops
// against what cannot be mated by them, bishops all on one colour) is
// applied at every node; a static analysis of blocked pawns computes the
// squares every piece can ever reach, so a king region no enemy piece can
// ever attack proves the position unwinnable; the progress search follows
// the pawns that can still move through every pawn move and capture of a
// pawn (abstract states: the pawns and the region each piece type can
// stand on) with the same test in each state; a greedy best-first search
// over positions (each once, by Zobrist key; partial expansion, moves
// ordered towards the mate), scored towards a mate in a corner, finds the
// helpmate; where the winner has only a king and a knight or bishops of
// one colour (or only such men can come near the loser's king behind
// blocked pawns, fixed alone or with the pieces and kings that hold them,
// or by the stalemate that taking them would be),
// the shapes of its mates are listed — none is a proof, the nearest are
// targets of best-first searches steered to them; an iterative-deepening
// full-width search with a transposition table, in which captures, pawn
// moves and forced moves cost no depth, and an exhaustive search of closed
// positions prove the rest. The fixed men (pawns, and the pieces and kings
// that hold them) also prove positions alone: a man next to a square along
// its line guards it for good, as does a group of pieces shut in a cage
// that every placement of them guards; the kings' squares there are those
// of their pairs (two kings never stand side by side, so one can bar the
// other's way: kingPairs); a man stays among them when taking
// or moving it ends the game without a mate by the winner (a stalemate, the
// winner left without a move or mated: held.go), when it can only be taken
// (immobilePieces), or when the winner's last piece can take it only into
// being taken. Where all the winner's pawns are blocked, a search of the
// rounds draws the loser's pieces onto their capture squares (the offer
// search); where none can promote nor take a pawn as the pawns stand, one
// steers to a capture onto a file clear ahead, a piece offered to a pawn
// of the loser included (the change search). With
// Options.Short (Analyse: the flag verdict) a helpmate found is made short
// before it is shown: the shortest of at most 6 plies by a full-width
// search, else the greedy search again counting the plies played, then
// shortcuts along the line; otherwise it is the line as found. See
// docs/unwinnable.md.
package unwinnable
