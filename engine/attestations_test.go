package engine

import (
	"reflect"
	"strings"
	"testing"

	"arbiter/match"
	"arbiter/store"
)

func TestAttestationsAreTheEngineMoveEventsOfTheRecordInOrder(t *testing.T) {
	mark := `{"game":1,"ply":1,"fen":"x","uci":"e2e4","transcript":"game-1.log","lines":20,"bytes":900,"sha256":"` + strings.Repeat("0f", 32) + `"}`
	mark3 := strings.Replace(mark, `"lines":20`, `"lines":31`, 1)
	for _, tc := range []struct {
		name string
		evs  []store.Event
		want []int64 // the events attested, by seq
		err  string
	}{
		{"a record without engine moves attests nothing", []store.Event{{Seq: 1, Kind: match.KindMatchNew, Payload: []byte(`{}`)}}, nil, ""},
		{"each engine.move event is taken, in the record's order, others are not", []store.Event{
			{Seq: 1, Kind: match.KindMatchNew, Payload: []byte(`{}`)},
			{Seq: 2, Game: 1, Kind: match.KindEngineMove, Payload: []byte(mark)},
			{Seq: 3, Game: 1, Kind: match.KindMove, Payload: []byte(`{}`)},
			{Seq: 4, Game: 1, Kind: match.KindEngineMove, Payload: []byte(mark3)},
		}, []int64{2, 4}, ""},
		{"an engine.move event that cannot be read is named", []store.Event{{Seq: 7, Kind: match.KindEngineMove, Payload: []byte(`{`)}}, nil, "engine.move event 7 cannot be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Attestations(tc.evs)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var seqs []int64
			for _, a := range got {
				seqs = append(seqs, a.Seq)
				if a.File != "game-1.log" || a.Game != 1 {
					t.Errorf("event %d attests %+v", a.Seq, a)
				}
			}
			if !reflect.DeepEqual(seqs, tc.want) {
				t.Fatalf("attested events %v, want %v", seqs, tc.want)
			}
		})
	}
}
