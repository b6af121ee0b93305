package station

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// The alarm's sentences as they were before they were phrases (the old
// AlarmError.Error and HeadError.Error): the English the command line, the
// log and the tests read must not change by a word.
const (
	oldStreamAlarm = "event %d from the stream does not fit this record (%s): this station stopped applying; keep both records for the appeals board and join again with a new invitation"
	oldFileAlarm   = "this station's record file was changed behind it (%s): this station stopped applying; keep the file for the appeals board and join again with a new invitation"
	oldHeadError   = "the head signature of event %d from the heads stream is not taken: %s"
)

// codesIn lists the codes of p and of every phrase among its arguments.
func codesIn(p *phrase.Error) []match.Code {
	if p == nil {
		return nil
	}
	cs := []match.Code{match.Code(p.Code)}
	for _, a := range p.Args {
		var q *phrase.Error
		if e, ok := a.(error); ok && errors.As(e, &q) {
			cs = append(cs, codesIn(q)...)
		}
	}
	return cs
}

// TestEveryAlarmHasItsWordsInBothDictionaries: the alarm a station raises
// (AlarmError) and a head signature its record does not take (HeadError)
// are phrases (Why: a code, the reason a phrase of its own), worded by the
// shared dictionary — in English word for word the sentence they said
// before, in German whole — and so is each reason, raised here where the
// station raises it; a phrase read back from the status file (JSON) says
// the same.
func TestEveryAlarmHasItsWordsInBothDictionaries(t *testing.T) {
	en, de := assets.Dictionary("en"), assets.Dictionary("de")
	phrase.CheckTable(t, en, de, alarms)

	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	newProtectedRecord(t, path)
	db := openDB(t, path)
	protected, err := NewReplica(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	protected.heads = map[int64]bool{} // as if no head were signed yet: each is checked
	evs, _ := db.EventsAfter(ctx, 0)
	first := evs[0]
	key := hex.EncodeToString(testKey.Public().(ed25519.PublicKey))
	// fresh is a replica that has applied 3 events, the last with hash "y".
	fresh := func() *Replica {
		return &Replica{changed: make(chan struct{}), ids: map[string]cmdSeqs{}, members: map[string]MemberInfo{}, seq: 3, head: "y"}
	}
	// headRefused is the head signature note refused by the protected record.
	headRefused := func(note HeadNote) error {
		err := protected.ApplyHead(ctx, note)
		var he *HeadError
		if !errors.As(err, &he) {
			t.Fatalf("ApplyHead(%+v) = %v, want a HeadError", note, err)
		}
		return he
	}
	// keyring is a head signature's check by the record's keyring alone,
	// as its refusal by ApplyHead words it.
	keyring := func(s store.Signature) error {
		p := match.CheckHeadSignature(evs, s)
		if p == nil {
			t.Fatalf("the head signature %+v holds", s)
		}
		return &HeadError{Seq: s.Seq, Reason: p.Error(), Why: why(CodeHeadNotTaken, s.Seq, p)}
	}
	stream := func(seq uint64, code match.Code, args ...any) error { return streamAlarm(seq, why(code, args...)) }

	tests := []struct {
		name    string
		err     error
		english string // the old sentence
		german  string
	}{
		{"an event after the record's end", stream(7, CodeAlarmRecordEnds, int64(5)),
			fmt.Sprintf(oldStreamAlarm, 7, "the record ends at event 5"),
			"Ereignis 7 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (die Aufzeichnung endet bei Ereignis 5): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"an event whose prev is not the head", stream(4, CodeAlarmPrev),
			fmt.Sprintf(oldStreamAlarm, 4, "its prev is not the record's head"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (sein Vorgänger-Hash (prev) ist nicht der Kopf der Aufzeichnung): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"another event where the record holds one", stream(4, CodeAlarmAnotherEvent, int64(4)),
			fmt.Sprintf(oldStreamAlarm, 4, "the record holds another event 4"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (die Aufzeichnung enthält ein anderes Ereignis 4): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"an event the record computes otherwise", stream(4, CodeAlarmComputes, int64(4), "0123456789ab"),
			fmt.Sprintf(oldStreamAlarm, 4, "the record computes event 4 with hash 0123456789ab…"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (die Aufzeichnung berechnet Ereignis 4 mit dem Hash 0123456789ab…): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"signatures the record does not take keep the store's words", stream(4, CodeAlarmSignaturesUnfit, errors.New("store: put head signature of event 4: constraint failed")),
			fmt.Sprintf(oldStreamAlarm, 4, "its signatures do not fit the record: store: put head signature of event 4: constraint failed"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (seine Signaturen passen nicht zur Aufzeichnung: store: put head signature of event 4: constraint failed): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a signature that does not hold says the record's problem", stream(4, CodeAlarmSignatureFails, match.CheckHeadSignature(evs, store.Signature{Seq: 1, Kind: store.SigHead, Key: key, Sig: "00"})),
			fmt.Sprintf(oldStreamAlarm, 4, "its signature does not hold: the head signature of event 1 does not match that event's hash"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (seine Signatur ist ungültig: die Kopfsignatur von Ereignis 1 passt nicht zum Hash dieses Ereignisses): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"an unreadable message", func() error {
			err := fresh().Apply(ctx, StreamMsg{Seq: 4, Data: []byte("{")})
			return err
		}(),
			fmt.Sprintf(oldStreamAlarm, 4, "unreadable event message: unexpected end of JSON input"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (unlesbare Ereignisnachricht: unexpected end of JSON input): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a message of no part", func() error {
			return fresh().Apply(ctx, StreamMsg{Seq: 4, Data: []byte(`{"seq":4,"part":3,"parts":2}`)})
		}(),
			fmt.Sprintf(oldStreamAlarm, 4, "event 4: part 3 of 2"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (Ereignis 4: Teil 3 von 2): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"an event under another stream sequence", stream(4, CodeAlarmSaysEvent, int64(5)),
			fmt.Sprintf(oldStreamAlarm, 4, "it says it is event 5"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (es gibt sich als Ereignis 5 aus): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"an edited event", stream(4, CodeAlarmHash),
			fmt.Sprintf(oldStreamAlarm, 4, "its hash is not its own"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (sein Hash ist nicht sein eigener): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a command broken off", stream(4, CodeAlarmBreaksOff, "c-17", 1, 3),
			fmt.Sprintf(oldStreamAlarm, 4, "it breaks off command c-17 after part 1 of 3"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (es bricht Befehl c-17 nach Teil 1 von 3 ab): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a command without its start", stream(4, CodeAlarmStartMissing, 2),
			fmt.Sprintf(oldStreamAlarm, 4, "it is part 2 of a command whose start is missing"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (es ist Teil 2 eines Befehls, dessen Anfang fehlt): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a command placed elsewhere by the stream", stream(9, CodeAlarmPlaced, int64(9), int64(8)),
			fmt.Sprintf(oldStreamAlarm, 9, "the stream placed the command at event 9, the record at 8"),
			"Ereignis 9 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (der Datenstrom hat den Befehl als Ereignis 9 eingereiht, die Aufzeichnung als Ereignis 8): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"the record's own event off the chain", stream(4, CodeAlarmOwnEvent),
			fmt.Sprintf(oldStreamAlarm, 4, "the record's own event does not continue the chain"),
			"Ereignis 4 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (ein eigenes Ereignis der Aufzeichnung setzt die Kette nicht fort): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"an event that does not play on the match", stream(5, CodeAlarmNotPlayable, errors.New("match: replay event 5 (move): illegal move")),
			fmt.Sprintf(oldStreamAlarm, 5, "it cannot be played on the match: match: replay event 5 (move): illegal move"),
			"Ereignis 5 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (es lässt sich in der Partie nicht nachspielen: match: replay event 5 (move): illegal move): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a file that lost the station's last event", fresh().CheckFileHead(store.Event{}, false),
			fmt.Sprintf(oldFileAlarm, "it no longer holds event 3, the last this station wrote"),
			"die Aufzeichnungsdatei dieser Station wurde ohne ihr Zutun verändert (sie enthält Ereignis 3 nicht mehr, das letzte, das diese Station geschrieben hat): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie die Datei für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a file whose last event is another", fresh().CheckFileHead(store.Event{Seq: 3, Hash: "x"}, true),
			fmt.Sprintf(oldFileAlarm, "its event 3 is not the one this station wrote"),
			"die Aufzeichnungsdatei dieser Station wurde ohne ihr Zutun verändert (ihr Ereignis 3 ist nicht das, das diese Station geschrieben hat): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie die Datei für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a file whose event was edited", fresh().CheckFileHead(store.Event{Seq: 4, Kind: "move", Hash: "x"}, true),
			fmt.Sprintf(oldFileAlarm, "its event 4 (move) was edited: the hash recomputed from what the file holds is not the event's"),
			"die Aufzeichnungsdatei dieser Station wurde ohne ihr Zutun verändert (ihr Ereignis 4 (move) wurde verändert: der aus dem Inhalt der Datei neu berechnete Hash ist nicht der des Ereignisses): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie die Datei für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a damaged file", fileAlarm(4, why(CodeFileDamaged)),
			fmt.Sprintf(oldFileAlarm, "SQLite finds it damaged"),
			"die Aufzeichnungsdatei dieser Station wurde ohne ihr Zutun verändert (SQLite meldet sie als beschädigt): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie die Datei für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei"},
		{"a head signature of an event beyond the record", headRefused(HeadNote{Seq: 99, Hash: first.Hash}),
			fmt.Sprintf(oldHeadError, 99, fmt.Sprintf("the record holds %d events, not event 99", len(evs))),
			fmt.Sprintf("die Kopfsignatur von Ereignis 99 aus dem Datenstrom der Kopfsignaturen wird nicht übernommen: die Aufzeichnung enthält %d Ereignisse, nicht Ereignis 99", len(evs))},
		{"a head signature of another hash", headRefused(HeadNote{Seq: 1, Hash: "ab"}),
			fmt.Sprintf(oldHeadError, 1, "it signs another hash than the record's event 1"),
			"die Kopfsignatur von Ereignis 1 aus dem Datenstrom der Kopfsignaturen wird nicht übernommen: sie signiert einen anderen Hash als den von Ereignis 1 der Aufzeichnung"},
		{"a head signature by another key", headRefused(HeadNote{Seq: 1, Hash: first.Hash, Key: strings.Repeat("ab", 32), Sig: "00"}),
			fmt.Sprintf(oldHeadError, 1, "the head signature of event 1 is not by the arbiter's key there"),
			"die Kopfsignatur von Ereignis 1 aus dem Datenstrom der Kopfsignaturen wird nicht übernommen: die Kopfsignatur von Ereignis 1 stammt nicht von dem Schlüssel, den der Schiedsrichter dort hatte"},
		{"a head signature of another hash by the arbiter's key", headRefused(HeadNote{Seq: 1, Hash: first.Hash, Key: key,
			Sig: hex.EncodeToString(ed25519.Sign(testKey, match.HeadMessage(1, "another")))}),
			fmt.Sprintf(oldHeadError, 1, "the head signature of event 1 does not match that event's hash"),
			"die Kopfsignatur von Ereignis 1 aus dem Datenstrom der Kopfsignaturen wird nicht übernommen: die Kopfsignatur von Ereignis 1 passt nicht zum Hash dieses Ereignisses"},
		{"a head signature a station sends is refused with the record's reason", refuse(CodeHeadRefused, protected.CheckHead(HeadNote{Seq: 1, Hash: first.Hash, Key: strings.Repeat("ab", 32), Sig: "00"})),
			"the arbiter's head signature is refused: the head signature of event 1 is not by the arbiter's key there",
			"die Kopfsignatur des Schiedsrichters wird abgelehnt: die Kopfsignatur von Ereignis 1 stammt nicht von dem Schlüssel, den der Schiedsrichter dort hatte"},
		{"a signature of another kind offered as a head", keyring(store.Signature{Seq: 1, Kind: store.SigCommand}),
			fmt.Sprintf(oldHeadError, 1, "a command signature is not a head signature"),
			"die Kopfsignatur von Ereignis 1 aus dem Datenstrom der Kopfsignaturen wird nicht übernommen: eine Signatur der Art command ist keine Kopfsignatur"},
		{"a head signature of an event the keyring has not read", keyring(store.Signature{Seq: 99, Kind: store.SigHead}),
			fmt.Sprintf(oldHeadError, 99, "the head signature names event 99, which is not in the record"),
			"die Kopfsignatur von Ereignis 99 aus dem Datenstrom der Kopfsignaturen wird nicht übernommen: die Kopfsignatur nennt Ereignis 99, das nicht in der Aufzeichnung steht"},
	}
	said := map[match.Code]bool{}
	for _, tt := range tests {
		t.Run(tt.name+" is said in German", func(t *testing.T) {
			var p *phrase.Error
			if !errors.As(tt.err, &p) {
				t.Fatalf("%v carries no phrase: the console could say it only in English", tt.err)
			}
			for _, c := range codesIn(p) {
				said[c] = true
			}
			if tt.err.Error() != tt.english {
				t.Errorf("English %q,\n want the old sentence %q", tt.err.Error(), tt.english)
			}
			if p.Error() != tt.english {
				t.Errorf("the phrase's English %q is not the alarm's %q", p.Error(), tt.english)
			}
			if got := en.Say(tt.err); got != tt.english {
				t.Errorf("the English dictionary says %q", got)
			}
			if got := de.Say(tt.err); got != tt.german {
				t.Errorf("German %q,\n want %q", got, tt.german)
			}
			b, err := json.Marshal(p)
			var back phrase.Error
			if err != nil || json.Unmarshal(b, &back) != nil {
				t.Fatalf("the phrase does not go through JSON: %s %v", b, err)
			}
			if got := de.Say(&back); got != tt.german {
				t.Errorf("read back from JSON, German %q,\n want %q", got, tt.german)
			}
		})
	}
	want := append(AlarmCodes(), match.CodeHeadNotHead, match.CodeHeadNotInRecord, match.CodeHeadNotArbiters, match.CodeHeadNotHash)
	for _, c := range want {
		if !said[c] {
			t.Errorf("no case says %s", c)
		}
	}
}
