package match

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter/assets"
)

// servedRecord is a protected match whose first station claimed authority
// with its certificate of ca (as 'station serve' does with the CA it made):
// the record's path, the claim's seq and the CA's fingerprint.
func servedRecord(t *testing.T, ca testCA) (string, int64, string) {
	t.Helper()
	f, _, _ := operatorMatch(t)
	k, c := ca.station(t, "arbiter", "organiser")
	f.app.UseStationKey(k)
	claim := f.system(KindStationClaim, claimOf("arbiter", c))
	f.system("station.member", `{"name":"arbiter","role":"organiser"}`)
	return f.db.Path(), claim.Seq, CertFingerprint(ca.cert.Raw)
}

// TestARecordReMadeUnderAnotherCAIsRefusedAgainstTheCAWrittenDown
// (principle 1, branch hanchor): the match's CA is taken from the record's
// first claim that carries one, so a record re-made from its start under a
// CA (and an arbiter key) of the forger's own verifies by itself; checked
// against the CA's fingerprint written down when the first station made it
// (verify --ca), it is refused at the claim that anchors the other CA, in
// English and in German; the genuine record passes, and a record that
// carries no CA is refused against any.
func TestARecordReMadeUnderAnotherCAIsRefusedAgainstTheCAWrittenDown(t *testing.T) {
	genuine, _, fp := servedRecord(t, newTestCA(t))
	forged, claim, forgedFP := servedRecord(t, newTestCA(t))
	t.Run("the record re-made under another CA verifies by itself, its CA its own", func(t *testing.T) {
		r := checkFile(t, forged, Anchors{})
		if !r.OK || r.StationsCA != forgedFP || r.StationsCertifiedFrom != claim {
			t.Fatalf("verify: %v %q, CA %s from %d", r.OK, r.Problem, r.StationsCA, r.StationsCertifiedFrom)
		}
	})
	t.Run("checked against the genuine CA's fingerprint it is refused at its anchoring claim, in English and German", func(t *testing.T) {
		r := checkFile(t, forged, Anchors{CA: HexBlocks(fp)})
		want := fmt.Sprintf("event %d (station.claim) anchors the stations' keys to the CA %s, not to the CA %s it is checked against (the record was re-made under another CA)", claim, HexBlocks(forgedFP), HexBlocks(fp))
		if r.OK || r.Why.Code != string(CodeOtherCA) || r.BadSeq != claim || r.Problem != want {
			t.Fatalf("verify --ca: %v at %d: %q\nwant %q", r.OK, r.BadSeq, r.Problem, want)
		}
		de := assets.Dictionary("de").Say(r.Why)
		if wantDE := fmt.Sprintf("Ereignis %d (station.claim) bindet die Schlüssel der Stationen an die CA %s, nicht an die CA %s, gegen die geprüft wird", claim, HexBlocks(forgedFP), HexBlocks(fp)); !strings.HasPrefix(de, wantDE) {
			t.Errorf("German: %q", de)
		}
	})
	t.Run("the genuine record passes its CA's fingerprint, whole or its first 16 digits", func(t *testing.T) {
		for _, want := range []string{fp, HexBlocks(fp), fp[:16]} {
			if r := checkFile(t, genuine, Anchors{CA: want}); !r.OK || r.StationsCA != fp {
				t.Errorf("verify --ca %s: %q", want, r.Problem)
			}
		}
		if r := checkFile(t, genuine, Anchors{CA: fp[:15]}); r.OK {
			t.Error("15 digits of the fingerprint passed")
		}
	})
	t.Run("a record that carries no CA is refused against any", func(t *testing.T) {
		p, _ := protectedRecord(t)
		r := checkFile(t, p, Anchors{CA: fp})
		if r.OK || r.Why.Code != string(CodeNoCA) {
			t.Fatalf("verify --ca of a record of one machine: %v %q", r.OK, r.Problem)
		}
		if de := assets.Dictionary("de").Say(r.Why); !strings.Contains(de, "keine CA der Stationen") {
			t.Errorf("German: %q", de)
		}
	})
}

// TestDeletingAHeadTheArbiterSignedWithHisCommandIsFound (principle 1,
// branch hanchor): a command given with the arbiter's credential is
// committed with his signature of the head at its last event, in one
// transaction, so a record that holds the command without that head had
// the signature deleted. Before, deleting his latest head signature with
// sqlite3 left a record that verified to his head before it (only
// 'verify --head' or the head printed elsewhere told); now verify names
// the command's last event, in English and German. A head he signed
// alone (an export's, App.SignHead) deleted is not found: the record then
// verifies to the head before, which verify's words say plainly (cli).
func TestDeletingAHeadTheArbiterSignedWithHisCommandIsFound(t *testing.T) {
	for _, tc := range []struct {
		name   string
		delete string // the head row deleted: its seq, as SQL
		last   bool   // the seq is the record's last event
	}{
		{"his latest head, at the record's last event, deleted", `(SELECT max(seq) FROM signatures WHERE kind = 'head')`, true},
		{"an earlier head of his, at a move of game 2, deleted", `(SELECT min(seq) FROM signatures WHERE kind = 'head' AND seq > (SELECT min(seq) FROM events WHERE game = 2))`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, evs := protectedRecord(t)
			if r := verifyFile(t, p, "", ""); !r.OK || r.Seal.HeadSeq != evs[len(evs)-1].Seq {
				t.Fatalf("the record before: %q, head at %d", r.Problem, r.Seal.HeadSeq)
			}
			db := raw(t, p)
			var seq int64
			if err := db.QueryRow(`SELECT ` + tc.delete).Scan(&seq); err != nil {
				t.Fatal(err)
			}
			exec(t, db, `DELETE FROM signatures WHERE kind = 'head' AND seq = ?`, seq)
			db.Close()
			if tc.last != (seq == evs[len(evs)-1].Seq) {
				t.Fatalf("deleted the head at %d of %d events", seq, len(evs))
			}
			r := verifyFile(t, p, "", "")
			e := evs[seq-1]
			want := fmt.Sprintf("event %d (%s) ends a command the arbiter signed, and the head he signed with it is not in the record (his head signature was deleted)", seq, e.Kind)
			if r.OK || r.Why.Code != string(CodeHeadRemoved) || r.BadSeq != seq || r.Problem != want {
				t.Fatalf("verify: %v at %d: %q\nwant %q", r.OK, r.BadSeq, r.Problem, want)
			}
			if de, wantDE := assets.Dictionary("de").Say(r.Why), fmt.Sprintf("Ereignis %d (%s) beendet einen Befehl, den der Schiedsrichter signiert hat", seq, e.Kind); !strings.HasPrefix(de, wantDE) {
				t.Errorf("German: %q", de)
			}
		})
	}
	t.Run("a head he signed alone, at an export, deleted leaves the record verifying to his head before", func(t *testing.T) {
		f, _, _ := operatorMatch(t)
		before := f.app.Seal().HeadSeq
		c := f.as(RoleOperator, 10*time.Second)
		c.Secret = operatorPass
		if _, err := f.app.Move(f.ctx, c, "e4", false); err != nil {
			t.Fatal(err)
		}
		seal, err := f.app.SignHead(f.ctx, Cmd{At: f.now, Actor: Actor{Role: RoleArbiter, PIN: arbiterPass}})
		f.ok(err)
		if seal.HeadSeq <= before {
			t.Fatalf("the export signed the head at %d, his command's at %d", seal.HeadSeq, before)
		}
		db := raw(t, f.db.Path())
		exec(t, db, `DELETE FROM signatures WHERE kind = 'head' AND seq = ?`, seal.HeadSeq)
		putBack(t, db)
		if r := checkFile(t, f.db.Path(), Anchors{}); !r.OK || r.Seal.HeadSeq != before {
			t.Fatalf("verify: %q, head at %d, want %d", r.Problem, r.Seal.HeadSeq, before)
		}
	})
}

// TestASignatureRowEditedInAFieldItsKindDoesNotCarryIsFound (principle 1,
// branch hanchor, found in the attacker's pass with sqlite3): a station's
// or a head signature's row names no command, signer, station or request
// and covers one event, a command's names no request. Nothing reads those
// fields, so verify passed a row edited in them (exit 0); now it names the
// row's event and kind, in English and German.
func TestASignatureRowEditedInAFieldItsKindDoesNotCarryIsFound(t *testing.T) {
	for _, tc := range []struct {
		name, kind, set string
	}{
		{"a head signature's signer set", "head", "signer = 'operator'"},
		{"a head signature's command id set", "head", "cmd = 'x'"},
		{"a head signature's count set", "head", "count = 3"},
		{"a station signature's station set", "station", "station = key"},
		{"a station signature's count set", "station", "count = 2"},
		{"a command signature's request set", "command", "request = '{}'"},
	} {
		t.Run(tc.name+" is found", func(t *testing.T) {
			p, evs := protectedRecord(t)
			seq := evs[len(evs)-2].Seq // an event of an arbiter's command, before the last
			if tc.kind == "head" {
				seq = evs[len(evs)-1].Seq
			}
			exec(t, raw(t, p), `UPDATE signatures SET `+tc.set+` WHERE seq = ? AND kind = ?`, seq, tc.kind)
			r := verifyFile(t, p, "", "")
			want := fmt.Sprintf("event %d (%s) has a %s signature row with a field a row of its kind does not carry (the row was edited)", seq, evs[seq-1].Kind, tc.kind)
			if r.OK || r.Why.Code != string(CodeSignatureFields) || r.Problem != want {
				t.Fatalf("verify: %v %q\nwant %q", r.OK, r.Problem, want)
			}
			if de := assets.Dictionary("de").Say(r.Why); !strings.Contains(de, "Signaturzeile der Art "+tc.kind) {
				t.Errorf("German: %q", de)
			}
		})
	}
}

// TestARunningCoreSaysWhatTheAttackersPassDidToItsRecord (branch hanchor,
// the attacker's pass with sqlite3 on a record a core has open): at its
// next watch, the arbiter's latest head deleted and a signature row edited
// in a field its kind does not carry are named as verify names them, and
// the last event deleted with its signatures is the record cut short
// (record-check-shorter), where the watch said "event 4 () has a command
// signature that is not the one checked before", the event named gone.
func TestARunningCoreSaysWhatTheAttackersPassDidToItsRecord(t *testing.T) {
	for _, tc := range []struct {
		name string
		sql  []string
		want Code
	}{
		{"the arbiter's latest head deleted", []string{`DELETE FROM signatures WHERE kind = 'head' AND seq = (SELECT max(seq) FROM signatures WHERE kind = 'head')`}, CodeHeadRemoved},
		{"his latest head's signer set", []string{`UPDATE signatures SET signer = 'x' WHERE kind = 'head' AND seq = (SELECT max(seq) FROM signatures WHERE kind = 'head')`}, CodeSignatureFields},
		{"the last event deleted with its signatures", []string{`DELETE FROM signatures WHERE seq = (SELECT max(seq) FROM events)`, `DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)`}, CodeShorter},
	} {
		t.Run(tc.name+" is said at the next watch", func(t *testing.T) {
			f, pin, _ := operatorMatch(t)
			if _, err := f.app.Move(f.ctx, pin(f.at(30*time.Second)), "e4", false); err != nil {
				t.Fatal(err)
			}
			f.ok(f.app.Watch(f.ctx))
			db := raw(t, f.db.Path())
			for _, q := range tc.sql {
				exec(t, db, q)
			}
			db.Close()
			f.ok(f.app.Watch(f.ctx))
			if why := f.app.Why(); why == nil || why.Code != string(tc.want) {
				t.Fatalf("the watch says %v, want %s", why, tc.want)
			}
		})
	}
}

// TestAnAppOpenedOnARecordWithAHeadDeletedOrARowEditedWritesNothing
// (principle 1, branch hanchor, the attacker's pass: a -wal put beside the
// closed record with the arbiter's latest head deleted, or its row edited,
// and a command given): the App's open finds what verify finds, keeps the
// problem and refuses to append; before, the command was committed onto
// the record (exit 0), the open checking neither.
func TestAnAppOpenedOnARecordWithAHeadDeletedOrARowEditedWritesNothing(t *testing.T) {
	for _, tc := range []struct {
		name, sql string
		want      Code
	}{
		{"the arbiter's latest head deleted", `DELETE FROM signatures WHERE kind = 'head' AND seq = (SELECT max(seq) FROM signatures WHERE kind = 'head')`, CodeHeadRemoved},
		{"his latest head's signer set", `UPDATE signatures SET signer = 'x' WHERE kind = 'head' AND seq = (SELECT max(seq) FROM signatures WHERE kind = 'head')`, CodeSignatureFields},
	} {
		t.Run(tc.name+": the open says it and nothing is appended", func(t *testing.T) {
			p, evs := protectedRecord(t)
			exec(t, raw(t, p), tc.sql)
			app, db := openAppAt(t, p)
			if why := app.Why(); why == nil || why.Code != string(tc.want) {
				t.Fatalf("the open says %v, want %s", why, tc.want)
			}
			now := evs[len(evs)-1].At.Add(time.Minute)
			if _, err := app.Incident(context.Background(), Cmd{At: now, Actor: Actor{Role: RoleArbiter, PIN: arbiterPass}}, "note", IncidentArgs{Text: "after the edit"}); err == nil {
				t.Error("a note was appended to the record")
			}
			if got, err := db.EventsAfter(context.Background(), 0); err != nil || len(got) != len(evs) {
				t.Errorf("the record holds %d events, had %d (%v)", len(got), len(evs), err)
			}
		})
	}
}
