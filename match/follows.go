package match

import (
	"sort"

	"arbiter/scoresheet"
)

// Follows is the move incident in followed: the last move on the scoresheet
// when it happened. That is the move played last, at or before the
// incident's instant, at the highest ply the sheet held then (in.Ply, or
// lower when the incident's instant lies before the moves that followed, as
// a flag's fall recorded later does) — whether that move stands now or was
// struck out by a correction since (Entry.Struck says which). The pause that
// opened a rule 10 correction after a struck 14…O-O follows 14…O-O, not
// the 14…Bxe2 played a minute later in its place. nil when the incident
// happened before the first move.
func (g *Game) Follows(in Incident) *scoresheet.Entry {
	if g == nil || g.Sheet == nil {
		return nil
	}
	byPly := map[int][]scoresheet.Entry{}
	for _, e := range g.Sheet.Struck() {
		byPly[e.Ply] = append(byPly[e.Ply], e)
	}
	for _, e := range g.Sheet.Entries() {
		byPly[e.Ply] = append(byPly[e.Ply], *e) // last: the standing move wins a tie of instants
	}
	// the sheet held in.Ply plies when the incident was recorded: none
	// beyond them can be what it followed
	for p := in.Ply; p >= 1; p-- {
		var best *scoresheet.Entry
		for i, e := range byPly[p] {
			if e.At.After(in.At) {
				continue
			}
			if best == nil || !e.At.Before(best.At) {
				best = &byPly[p][i]
			}
		}
		if best != nil {
			return best
		}
	}
	return nil
}

// ByInstant are the game's incidents in the order they happened: by their
// instants (a flag's fall stands where it fell, not where it was recorded),
// the record's order between incidents of the same instant.
func (g *Game) ByInstant() []Incident {
	if g == nil {
		return nil
	}
	out := append([]Incident(nil), g.Incidents...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}
