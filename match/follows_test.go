package match

import (
	"testing"
	"time"

	"arbiter/scoresheet"
)

// An incident follows the last move on the scoresheet when it happened,
// whether that move stands now or was struck out since.
func TestIncidentFollowsTheMoveOnTheSheetAtItsInstant(t *testing.T) {
	t0 := time.Date(1996, 2, 10, 15, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	s, err := scoresheet.NewSheet("")
	if err != nil {
		t.Fatal(err)
	}
	play := func(san string, sec int) {
		e, err := s.Play(san)
		if err != nil {
			t.Fatal(err)
		}
		e.At = at(sec)
	}
	play("e4", 10)
	play("e5", 20)
	play("Nf3", 30)
	// 40 s: the arbiter stops the clocks after 2. Nf3; 50 s: 2. Nf3 is
	// struck out (rule 10); 60 s: 2. Bc4 is played in its place
	if _, err := s.TakeBack(3); err != nil {
		t.Fatal(err)
	}
	play("Bc4", 60)
	g := &Game{Sheet: s}
	tests := []struct {
		name string
		in   Incident
		want string // the label of the move followed; "" none
		gone bool   // the move followed was struck out since
	}{
		{"an incident before the first move follows none", Incident{Ply: 0, At: at(5)}, "", false},
		{"an incident after a standing move follows it", Incident{Ply: 2, At: at(25)}, "1... e5", false},
		{"the stop after a move struck out since follows the struck move, not its replacement", Incident{Ply: 3, At: at(40)}, "2. Nf3", true},
		{"the correction follows the last move left standing", Incident{Ply: 2, At: at(50)}, "1... e5", false},
		{"an incident after the replacement follows the replacement", Incident{Ply: 3, At: at(70)}, "2. Bc4", false},
		{"a flag that fell before a move, recorded after it, follows the move before the fall", Incident{Ply: 3, At: at(15)}, "1. e4", false},
		{"an incident at the instant of a move follows that move", Incident{Ply: 3, At: at(60)}, "2. Bc4", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := g.Follows(tc.in)
			got, gone := "", false
			if e != nil {
				got, gone = e.Label(), e.Struck
			}
			if got != tc.want || gone != tc.gone {
				t.Errorf("Follows = %q (struck %v), want %q (struck %v)", got, gone, tc.want, tc.gone)
			}
		})
	}
}

// The incidents stand in the order they happened: a flag recorded after a
// pause but fallen before it comes first; the record's order between
// incidents of one instant.
func TestIncidentsByInstant(t *testing.T) {
	t0 := time.Date(1996, 2, 10, 15, 0, 0, 0, time.UTC)
	g := &Game{Incidents: []Incident{
		{Seq: 1, At: t0.Add(20 * time.Second), Kind: "pause"},
		{Seq: 2, At: t0.Add(10 * time.Second), Kind: "flag"},
		{Seq: 3, At: t0.Add(20 * time.Second), Kind: "note"},
	}}
	var got []int64
	for _, in := range g.ByInstant() {
		got = append(got, in.Seq)
	}
	if len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 3 {
		t.Errorf("ByInstant = %v, want [2 1 3]", got)
	}
}
