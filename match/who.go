package match

import (
	"arbiter/clock"
	"arbiter/internal/phrase"
)

// Refusals name people by their role and their name (issue 27): "result
// must be given by the arbiter, not by Garry Kasparov (White)", never "not
// the white".

// who names the person giving the command: a player with the colour he
// has in the game the command is about ("Garry Kasparov (White)"), the
// operator or the arbiter with the role ("Feng-hsiung Hsu (operator)").
func (t *tx) who() any {
	return t.st.person(t.cmd.Role, t.st.gameAbout())
}

// whoPlays names the player of side in g: "Deep Blue (Black)".
func (s *State) whoPlays(g *Game, side clock.Side) any {
	return phrase.Errorf("%s (%s)", g.Name(side), colour(side))
}

// gameAbout is the number of the game a command is about: the current
// game, else the next one to be started (0 before the match).
func (s *State) gameAbout() int {
	if g := s.CurrentGame(); g != nil && !g.Over() {
		return g.Number
	}
	if g := s.nextGame(); g != nil {
		return g.Number
	}
	if g := s.CurrentGame(); g != nil {
		return g.Number
	}
	return 0
}

// person names who holds role r in game n, with the role (a colour for a
// player); the role alone when nobody is named for it.
func (s *State) person(r Role, n int) any {
	var role any = r
	switch r {
	case RoleWhite:
		role = colour(clock.White)
	case RoleBlack:
		role = colour(clock.Black)
	}
	name := s.actorName(r, n)
	if name == "" {
		if r == RoleWhite || r == RoleBlack {
			return role
		}
		return phrase.Errorf("the %s", role)
	}
	return phrase.Errorf("%s (%s)", name, role)
}

// NextGame is the game 'game start' starts next (nil when all are played).
func (s *State) NextGame() *Game { return s.nextGame() }

// ErrorFor is the refusal code with its arguments, for a face that refuses
// before it gives a command, in the words every face has for the code.
func ErrorFor(code Code, args ...any) error { return refuseAs(code, args...) }
