package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/store"
)

// The command line reads a move written with German piece letters (S L T D
// K) as the console does, through the core's one parser; the record keeps
// the move as typed (input) beside its English SAN (san).
func TestTheCommandLineReadsGermanPieceLettersAndRecordsTheInputAsTyped(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start",
		"0:00:10 move e4", "0:00:20 move e5", "0:00:30 move Sf3", "0:00:40 move Sc6", "0:00:50 move Lb5"))
	t.Run("a lower-case s is no knight: refused, and nothing is recorded", func(t *testing.T) {
		before := fileHash(t, db)
		_, errs, code := arb(t, db, "--at", at(time.Minute), "move", "sf6")
		if code == 0 || !strings.Contains(errs, `"sf6" is not a move`) {
			t.Errorf("move sf6: exit %d, stderr %q; want a refusal saying it is not a move", code, errs)
		}
		if fileHash(t, db) != before {
			t.Error("the refused move changed the file")
		}
	})
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	evs, err := s.EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		if e.Kind != match.KindMove {
			continue
		}
		var p match.MovePayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		got = append(got, p.Input+"="+p.SAN)
	}
	if want := "e4=e4 e5=e5 Sf3=Nf3 Sc6=Nc6 Lb5=Bb5"; strings.Join(got, " ") != want {
		t.Errorf("move events (input=san): %q, want %q", strings.Join(got, " "), want)
	}
}
