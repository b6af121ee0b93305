package scoresheet

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

func TestRepetitionPositions(t *testing.T) {
	tests := []struct {
		name   string
		moves  []string
		counts []int
		where0 []string
	}{
		{"the start position counts until a pawn moves", []string{"Nf3", "Nf6", "Ng1", "Ng8"}, []int{2, 1, 1, 1}, []string{"the start position", "after 2... Ng8"}},
		{"a pawn move starts the list afresh", []string{"e4", "e5", "Nf3"}, []int{1, 1}, []string{"after 1... e5"}},
		{"a capture starts the list afresh", []string{"e4", "d5", "exd5", "Nf6"}, []int{1, 1}, []string{"after 2. exd5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSheet("")
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tt.moves {
				if _, err := s.Play(m); err != nil {
					t.Fatalf("Play(%s): %v", m, err)
				}
			}
			got := s.RepetitionPositions()
			var counts []int
			for _, p := range got {
				counts = append(counts, p.Count)
			}
			if !reflect.DeepEqual(counts, tt.counts) {
				t.Errorf("counts = %v, want %v", counts, tt.counts)
			}
			if !reflect.DeepEqual(got[0].Where, tt.where0) {
				t.Errorf("first position occurred %v, want %v", got[0].Where, tt.where0)
			}
		})
	}
}

func TestCastlingAndEnPassantFields(t *testing.T) {
	s, err := NewSheet("")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.CastlingRights(); got != "KQkq" {
		t.Errorf("CastlingRights at the start = %q, want KQkq", got)
	}
	for _, m := range []string{"e4"} {
		if _, err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.EnPassant(); got != "e3" && got != "-" {
		t.Errorf("EnPassant after 1. e4 = %q, want e3 or -", got)
	}
}

func TestMatingMaterial(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		side chess.Color
		want bool
	}{
		{"the full army has mating material", StandardFEN, chess.White, true},
		{"a lone pawn is mating material", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", chess.White, true},
		{"a bare king has none", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", chess.Black, false},
		{"a lone knight against a bare king has none", "8/8/8/4k3/8/8/8/4KN2 w - - 0 1", chess.White, false},
		{"a lone knight against a pawn has some", "8/8/8/4k3/4p3/8/8/4KN2 w - - 0 1", chess.White, true},
		{"bishops of one colour against a bare king have none", "8/8/8/4k3/8/8/3B4/2B1K3 w - - 0 1", chess.White, false},
		{"bishops of both colours have some", "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", chess.White, true},
		{"knight and bishop have some", "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1", chess.White, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MatingMaterial(mustPos(t, tt.fen), tt.side); got != tt.want {
				t.Errorf("MatingMaterial(%s, %s) = %v, want %v", tt.fen, tt.side, got, tt.want)
			}
		})
	}
}

// A false MatingMaterial must never hide a mate: check it against the
// reference positions the reference tool calls winnable.
func TestMatingMaterialNeverHidesAWinnablePosition(t *testing.T) {
	for _, path := range unwinnableFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			checked := 0
			forEachRow(t, path, func(line int, fen, colour, verdict string) {
				pos := &chess.Position{}
				if verdict != "winnable" || pos.UnmarshalText([]byte(fen)) != nil {
					return
				}
				side := chess.White
				if strings.HasPrefix(strings.ToLower(colour), "b") {
					side = chess.Black
				}
				checked++
				if !MatingMaterial(pos, side) {
					t.Errorf("line %d: MatingMaterial false but %s can win: %s", line, colour, fen)
				}
			})
			if checked == 0 {
				t.Fatal("no winnable positions read")
			}
		})
	}
}
