package match

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"arbiter/assets"
	"arbiter/internal/forgery"
	"arbiter/internal/phrase"
	"arbiter/store"
)

// checkSaid fails unless r, when the record does not hold, carries its
// problem as a phrase (Why) whose English is Problem word for word and
// whose German keeps no English format: every broken record the tests
// verify (verifyFile, checkFile) passes through it.
func checkSaid(t *testing.T, r RecordReport) {
	t.Helper()
	if r.OK {
		if r.Why != nil || r.Problem != "" {
			t.Errorf("a record that holds has the problem %q (%v)", r.Problem, r.Why)
		}
		return
	}
	if r.Why == nil {
		t.Fatalf("the problem %q carries no phrase: the console could say it only in English", r.Problem)
	}
	if r.Why.Error() != r.Problem {
		t.Errorf("the phrase's English %q is not Problem %q", r.Why.Error(), r.Problem)
	}
	if german := assets.Dictionary("de").Say(r.Why); strings.Contains(german, "%") || strings.Contains(german, "event") || german == r.Problem {
		t.Errorf("the German of %q is %q: an English format is left in it", r.Problem, german)
	}
}

// TestEveryRecordProblemHasItsWordsInBothDictionaries: each problem a
// record's check can report beyond its chain is a code (RecordReport.Why),
// worded by the shared dictionary — in English exactly as Problem says it,
// in German with the same arguments — and a broken record of each kind
// below is said in German whole, its event kind as recorded.
func TestEveryRecordProblemHasItsWordsInBothDictionaries(t *testing.T) {
	en, de := assets.Dictionary("en"), assets.Dictionary("de")
	phrase.CheckTable(t, en, de, problems)

	path, evs := protectedRecord(t)
	other, _ := protectedRecord(t) // same play, another arbiter key
	fp := verifyFile(t, path, "", "").Seal.ArbiterKey
	move := seqOf(t, evs, KindMove, 2)
	end := seqOf(t, evs, KindGameEnd, 0)
	last := evs[len(evs)-1] // the same seq in every protectedRecord
	tests := []struct {
		name   string
		report func(t *testing.T) RecordReport
		code   string
		german string
	}{
		{"an edited move is said with the chain's words", func(t *testing.T) RecordReport {
			p, _ := protectedRecord(t)
			exec(t, raw(t, p), `UPDATE events SET payload = replace(payload, 'c3', 'c4') WHERE seq = ?`, move)
			return verifyFile(t, p, "", "")
		}, string(store.CodeEdited), fmt.Sprintf("Ereignis %d (move) wurde verändert (Hash stimmt nicht)", move)},
		{"a forged event without a credential's signature", func(t *testing.T) RecordReport {
			p, evs := protectedRecord(t)
			last := evs[len(evs)-1]
			e := store.Event{Seq: last.Seq + 1, Match: 1, Game: 2, At: last.At, Role: "arbiter", Actor: "Mike Valvo",
				Kind: KindGameEnd, Payload: []byte(`{"result":"0-1","termination":"adjudication","reason":"forged"}`), Prev: last.Hash}
			e.Hash = store.EventHash(e)
			exec(t, raw(t, p), `INSERT INTO events (seq, match, game, at_ns, role, actor, kind, payload, prev, hash) VALUES (?, 1, 2, ?, 'arbiter', 'Mike Valvo', ?, ?, ?, ?)`,
				e.Seq, e.At.UnixNano(), e.Kind, string(e.Payload), e.Prev, e.Hash)
			return verifyFile(t, p, "", "")
		}, string(CodeUnsigned), fmt.Sprintf("Ereignis %d (game.end) trägt keine Signatur eines Zugangsschlüssels (es wurde ohne einen hinzugefügt oder geändert)", last.Seq+1)},
		{"a game's end under the system's role, signed by a station key of the forger's", func(t *testing.T) RecordReport {
			p, evs := protectedRecord(t)
			last := evs[len(evs)-1]
			e := last
			e.Seq, e.Prev, e.Role, e.Actor, e.Kind = last.Seq+1, last.Hash, string(RoleSystem), "Arbiter", KindGameEnd
			e.Payload = []byte(`{"result":"0-1","termination":"adjudication","reason":"forged"}`)
			e.Hash = store.EventHash(e)
			k := forgery.NewKey()
			insertRows(t, p, []store.Event{e}, []store.Signature{{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: forgery.PublicHex(k),
				Sig: hex.EncodeToString(ed25519.Sign(k, StationMessage(e.Hash)))}})
			return verifyFile(t, p, "", "")
		}, string(CodeSystemKind), fmt.Sprintf("Ereignis %d (game.end) ist unter der Rolle des Systems aufgezeichnet, die nur die Ereignisse der Stationen, Wiederaufnahmevermerke und Unterbrechungen aufzeichnet, und trägt keine Signatur eines Zugangsschlüssels (es wurde ohne einen hinzugefügt oder geändert)", last.Seq+1)},
		{"a station signature deleted", func(t *testing.T) RecordReport {
			p, _ := protectedRecord(t)
			exec(t, raw(t, p), `DELETE FROM signatures WHERE seq = ? AND kind = 'station'`, move)
			return verifyFile(t, p, "", "")
		}, string(CodeStationUnsigned), fmt.Sprintf("Ereignis %d (move) hat keine Signatur einer Station (es wurde nachträglich hinzugefügt oder geändert)", move)},
		{"a command signed with another key names the arbiter's credential in German", func(t *testing.T) RecordReport {
			p, _ := protectedRecord(t)
			exec(t, raw(t, p), `UPDATE signatures SET key = ? WHERE seq = ? AND kind = 'command'`, strings.Repeat("ab", 32), move)
			return verifyFile(t, p, "", "")
		}, string(CodeWrongKey), fmt.Sprintf("Ereignis %d (move) ist mit einem Schlüssel signiert, der nicht der Zugangsschlüssel der Rolle Schiedsrichter ist", move)},
		{"a head signature of a cut-off event", func(t *testing.T) RecordReport {
			p, _ := protectedRecord(t)
			db := raw(t, p)
			exec(t, db, `DELETE FROM events WHERE seq >= ?`, end)
			exec(t, db, `DELETE FROM signatures WHERE seq >= ? AND kind <> 'head'`, end)
			exec(t, db, `DELETE FROM signatures WHERE seq > ? AND kind = 'head'`, end)
			return verifyFile(t, p, "", "")
		}, string(CodeHeadCut), fmt.Sprintf("eine Kopfsignatur nennt Ereignis %d, das nicht in der Aufzeichnung steht (die Aufzeichnung wurde abgeschnitten)", end)},
		{"a record checked against another arbiter's key", func(t *testing.T) RecordReport {
			return verifyFile(t, other, "", fp)
		}, string(CodeRekeyed), "Ereignis 1 (match.new) trägt den Schlüssel des Schiedsrichters " + HexBlocks(verifyFile(t, other, "", "").Seal.ArbiterKey) +
			" ein, nicht den Schlüssel " + HexBlocks(fp) + ", gegen den geprüft wird (die Aufzeichnung wurde auf einen anderen Schlüssel umgestellt)"},
		{"a record checked against another match's id", func(t *testing.T) RecordReport {
			return checkFile(t, path, Anchors{MatchID: verifyFile(t, other, "", "").Seal.MatchID})
		}, string(CodeOtherMatch), "Ereignis 1 (match.new) verzeichnet die Kennung des Wettkampfs " + HexBlocks(verifyFile(t, path, "", "").Seal.MatchID) +
			", nicht " + HexBlocks(verifyFile(t, other, "", "").Seal.MatchID) + ", gegen die geprüft wird (es ist ein anderer Wettkampf)"},
		{"a record stripped of its credentials, checked against the key", func(t *testing.T) RecordReport {
			p, _ := protectedRecord(t)
			db := raw(t, p)
			exec(t, db, `UPDATE events SET payload = json_remove(payload, '$.credential') WHERE seq = 1`)
			exec(t, db, `DELETE FROM signatures`)
			rehash(t, db)
			return verifyFile(t, p, "", fp)
		}, string(CodeNoArbiterKey), "die Aufzeichnung trägt keinen Schlüssel des Schiedsrichters, ist also nicht mit dem Schlüssel signiert, gegen den sie geprüft wird (sie ist ungeschützt, oder ihre Zugangsschlüssel wurden entfernt)"},
		{"a tail that does not follow the state's head", func(t *testing.T) RecordReport {
			var r RecordReport
			r.broken(move, KindMove, checkTail(move-1, evs[0].Hash, evs[move-1:]))
			return r
		}, string(CodeNotFollowing), fmt.Sprintf("Ereignis %d (move) folgt in der Kette nicht auf Ereignis %d (die Aufzeichnung wurde umgeschrieben)", move, move-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is said in German", func(t *testing.T) {
			r := tt.report(t)
			checkSaid(t, r)
			if r.Why == nil {
				return
			}
			if r.Why.Code != tt.code {
				t.Errorf("code %q (%s), want %q", r.Why.Code, r.Problem, tt.code)
			}
			if got := de.Say(r.Why); got != tt.german {
				t.Errorf("German %q,\n want %q", got, tt.german)
			}
			if got := en.Say(r.Why); got != r.Problem {
				t.Errorf("the English dictionary says %q, Problem %q", got, r.Problem)
			}
		})
	}
}

// TestASignerIsNamedInTheGenitiveGermanNeeds: a problem names a signer or a
// credential in its English as before ("the arbiter's credential", "the
// player:Deep Blue's credential"), and in German in the genitive its
// sentence needs — a role as "der Rolle Schiedsrichter", a player as "des
// Spielers Deep Blue" — never "der Zugangsschlüssel von Schiedsrichter".
func TestASignerIsNamedInTheGenitiveGermanNeeds(t *testing.T) {
	en, de := assets.Dictionary("en"), assets.Dictionary("de")
	for _, tc := range []struct {
		name            string
		why             *phrase.Error
		english, german string
	}{
		{"a role whose key did not sign", problem(CodeWrongKey, int64(7), "move", signerWord("arbiter")),
			"event 7 (move) is signed with a key that is not the arbiter's credential",
			"Ereignis 7 (move) ist mit einem Schlüssel signiert, der nicht der Zugangsschlüssel der Rolle Schiedsrichter ist"},
		{"a player whose key did not sign", problem(CodeWrongKey, int64(7), "move", signerWord("player:Deep Blue")),
			"event 7 (move) is signed with a key that is not the player:Deep Blue's credential",
			"Ereignis 7 (move) ist mit einem Schlüssel signiert, der nicht der Zugangsschlüssel des Spielers Deep Blue ist"},
		{"a role recorded for another's signature", problem(CodeRoleSigner, int64(7), "move", Role("white"), signerWord("operator")),
			"event 7 (move) was recorded for the white but signed with the operator's credential",
			"Ereignis 7 (move) wurde für die Rolle Weiß aufgezeichnet, aber mit dem Zugangsschlüssel der Rolle Operator signiert"},
		{"a player's credential registered under another's signature", problem(CodeRegisteredByOther, int64(3), "credential.new", credentialWord("player:Garry Kasparov"), signerWord("operator")),
			"event 3 (credential.new) registers the player Garry Kasparov's credential under the operator's signature (only the arbiter hands out credentials)",
			"Ereignis 3 (credential.new) trägt den Zugangsschlüssel des Spielers Garry Kasparov mit der Signatur der Rolle Operator ein (nur der Schiedsrichter vergibt Zugangsschlüssel)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.why.Error(); got != tc.english {
				t.Errorf("English %q, want %q", got, tc.english)
			}
			if got := en.Say(tc.why); got != tc.english {
				t.Errorf("the English dictionary says %q", got)
			}
			if got := de.Say(tc.why); got != tc.german {
				t.Errorf("German %q,\n want %q", got, tc.german)
			}
		})
	}
}

// TestTheNeedForACredentialIsSaidInGermanWithTheRole: the refusal of a
// command given without the credential its role needs names it "der Rolle
// Operator" in German, "the operator's credential" in English as before.
func TestTheNeedForACredentialIsSaidInGermanWithTheRole(t *testing.T) {
	err := forbidAs(CodeNeedCredential, RoleOperator, credentialWord("operator"))
	var p *phrase.Error
	if !errors.As(err, &p) {
		t.Fatalf("%v carries no phrase", err)
	}
	if want := "this match is protected: commands given as operator need the operator's credential (passphrase or key file) or the arbiter PIN"; assets.Dictionary("en").Say(err) != want {
		t.Errorf("English %q, want %q", assets.Dictionary("en").Say(err), want)
	}
	if got, want := assets.Dictionary("de").Say(err), "dieser Wettkampf ist geschützt: Befehle als Operator brauchen den Zugangsschlüssel der Rolle Operator (Passphrase oder Schlüsseldatei) oder die Schiedsrichter-PIN"; got != want {
		t.Errorf("German %q,\n want %q", got, want)
	}
}
