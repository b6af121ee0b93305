package match

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"arbiter/internal/phrase"
	"arbiter/store"
)

// requestV1Golden is a record written before requests were signed as
// canonical JSON (issue 25): a protected match whose five commands were
// sent from a station, each signed over arbiter-request-v1 and the command
// line's words — a credential handed out (its record form a JSON word), the
// game's start, the operator's move, the arbiter's move for a player, a
// pause with a reason — exactly as the authority kept them then.
const (
	requestV1Golden = "testdata/request-v1.db"
	requestV1Head   = "259dbd8d1aeb6c5e6911bc1bff4d2d563e3f9c9c0cce17700701cd1dcdb031cb"
)

// copyGolden copies a golden record into a temporary folder.
func copyGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestARecordWhoseRequestsWereSignedOverWordsStillVerifies(t *testing.T) {
	ctx := context.Background()
	t.Run("the record of before verifies, every request signature checked", func(t *testing.T) {
		db, err := store.OpenReadOnly(ctx, copyGolden(t, requestV1Golden))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		sigs, err := db.Signatures(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, s := range sigs {
			if s.Kind == store.SigRequest {
				n++
				if !strings.Contains(s.Request, `"words":[`) || strings.Contains(s.Request, `"command"`) {
					t.Fatalf("request row %s is not one signed over words", s.Request)
				}
			}
		}
		if n != 5 {
			t.Fatalf("%d request rows, want 5", n)
		}
		rep, err := VerifyRecord(ctx, db, requestV1Head, "")
		if err != nil || !rep.OK {
			t.Fatalf("verify: %v %+v", err, rep)
		}
		if rep.Head != requestV1Head {
			t.Fatalf("head %s, want %s", rep.Head, requestV1Head)
		}
	})
	t.Run("a word changed in a request of before is caught", func(t *testing.T) {
		path := copyGolden(t, requestV1Golden)
		w := raw(t, path)
		exec(t, w, `UPDATE signatures SET request = replace(request, '"e4"', '"d4"') WHERE kind = 'request'`)
		w.Close()
		db, err := store.OpenReadOnly(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rep, err := VerifyRecord(ctx, db, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK || rep.BadSeq != 4 {
			t.Fatalf("verify: %+v, want event 4, the move whose request was edited", rep)
		}
	})
}

// germanDictionary is the shared German dictionary (assets/translations).
func germanDictionary(t *testing.T) phrase.Dictionary {
	t.Helper()
	b, err := os.ReadFile("../assets/translations/de.json")
	if err != nil {
		t.Fatal(err)
	}
	var de phrase.Dictionary
	if err := json.Unmarshal(b, &de); err != nil {
		t.Fatal(err)
	}
	return de
}

// TestTheSetupCardIsWrittenInTheFacesLanguage: the setup card (rule 12) a
// command's result gives is in the words of the face's dictionary — the
// German console's in German, its figures as they are, its labels in one
// column — and in English without one (the command line's, as before:
// setup_card.golden).
func TestTheSetupCardIsWrittenInTheFacesLanguage(t *testing.T) {
	r := newRig(t)
	r.start()
	r.move(m, "e4")
	r.move(m, "c5")
	r.move(0, "Nf3")
	res, err := r.app.Do(r.ctx, r.as(RoleOperator, m), LogIncident{Incident: IncidentSetup, IncidentArgs: IncidentArgs{Text: "Deep Blue restarted"}})
	r.ok(err)
	english, _ := res.SetupCard(r.app.State(), nil)
	german, ok := res.SetupCard(r.app.State(), germanDictionary(t).T)
	if !ok || !strings.HasPrefix(german, "AUFBAUKARTE — Partie 1") || strings.Contains(german, "to move") || !strings.Contains(german, "2/PPPP1PPP/RNBQKB1R b KQkq - 1 2") {
		t.Fatalf("the German card:\n%s", german)
	}
	column := -1
	for _, l := range strings.Split(german, "\n")[1:9] {
		i := strings.Index(l, ": ")
		for i+2 < len(l) && l[i+2] == ' ' {
			i++
		}
		if col := utf8.RuneCountInString(l[:i+2]); column >= 0 && col != column {
			t.Errorf("the German card's values do not start in one column:\n%s", german)
			break
		} else {
			column = col
		}
	}
	if english == german || !strings.HasPrefix(english, "SETUP CARD") {
		t.Fatalf("the English card:\n%s", english)
	}
}

// TestAClaimsRulingIsKeptAsAPhraseForEveryFace: the ruling on a claim is
// recorded as its English (the record's text, as before) and as a phrase,
// which a station's copy of the events gives back (ResultOf), so that each
// face says it in its own language (issue 25: the German console showed it
// in English).
func TestAClaimsRulingIsKeptAsAPhraseForEveryFace(t *testing.T) {
	de := germanDictionary(t)
	r := newRig(t)
	r.start()
	r.shuffle(2, m, m)
	for _, tc := range []struct {
		name    string
		claim   Claim
		english string
		german  string
	}{
		{"an invalid claim of repetition: the game continues", Claim{Draw: ClaimRepetition}, "The game continues.", "Die Partie geht weiter."},
		{"an invalid claim under the fifty-move rule", Claim{Draw: ClaimFiftyMoves}, "without a capture or a pawn move", "ohne Schlagen und ohne Bauernzug"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := r.app.Do(r.ctx, r.as(RoleWhite, 0), tc.claim)
			r.ok(err)
			for _, got := range []Result{res, ResultOf(res.Events)} {
				ruling, ok := got.Ruling()
				if !ok || ruling.Why == nil || ruling.Why.Error() != ruling.Ruling || !strings.Contains(ruling.Ruling, tc.english) {
					t.Fatalf("ruling %+v", ruling)
				}
				if said := de.Say(ruling.Why); !strings.Contains(said, tc.german) || strings.Contains(said, "claim") {
					t.Errorf("in German: %q", said)
				}
			}
		})
	}
}
