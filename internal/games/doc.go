// Package games holds the game scores of the two Kasparov–Deep Blue matches
// as the project's own PGN files, embedded in the program: the 1996 ACM
// Chess Challenge in Philadelphia ([DeepBlue1996], the reference case of the
// whole project and the source of 'arbiter demo 1996') and the 1997 rematch
// in New York ([DeepBlue1997]).
//
// The moves and the facts in the tags (event, place, dates, players,
// results, the time control of both matches, 40 moves in 2 hours, 20 in
// 1 hour, then 30 minutes) are the historical record; the files were written
// for this project by its own PGN writer (scoresheet.WritePGN), with a few
// comments of its own on what happened at the board: Deep Blue's system
// failure after move 25 of 1996 game 4, the draw offer the Deep Blue team
// declined in 1996 game 5, and the operator's reach for the wrong bishop in
// 1997 game 6. Tests of every package read them from here (or from the
// files beside this one), so that a fresh clone tests everything with
// nothing beside it.
package games
