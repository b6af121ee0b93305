package games

import _ "embed"

//go:embed deepblue1996.pgn
var deepBlue1996 string

//go:embed deepblue1997.pgn
var deepBlue1997 string

// DeepBlue1996 returns the PGN of the six games of the 1996 ACM Chess
// Challenge, Garry Kasparov vs Deep Blue, Philadelphia (Kasparov won 4–2).
func DeepBlue1996() string { return deepBlue1996 }

// DeepBlue1997 returns the PGN of the six games of the 1997 rematch in New
// York (Deep Blue won 3½–2½).
func DeepBlue1997() string { return deepBlue1997 }
