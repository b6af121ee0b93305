package match

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"arbiter/clock"
)

// commandSamples are commands of every kind with their fields filled in,
// as the faces build them.
func commandSamples() []Command {
	white, black := clock.White, clock.Black
	two, h := 2, 90*time.Minute
	arrived := time.Date(1996, 2, 10, 20, 12, 30, 250_000_000, time.UTC)
	return []Command{
		MatchNew{Title: "ACM Chess Challenge", Site: "Philadelphia", Arbiter: "Mike Valvo", Players: [2]string{kasparov, deepBlue},
			Computer: deepBlue, Operators: []string{"Feng-hsiung Hsu"}, Appeals: []string{"Monty Newborn"}, Games: 6,
			Control: "acm1996", Controls: map[string]string{deepBlue: "5400+30"}, White: kasparov, ForfeitAfter: time.Hour,
			TimeZone: "America/New_York"},
		GameSchedule{Game: 2, Start: time.Date(1996, 2, 11, 20, 0, 0, 0, time.UTC)},
		GameStart{},
		GameStart{Game: 3, StartPosition: StartPosition{FEN: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 45", White: &h}},
		GamePostpone{Game: 4, Reason: "the computer is not ready"},
		Move{Input: "Nf3"},
		Move{Input: "e7e5", Pressed: true},
		Press{},
		Pause{Cause: CauseFault, Reason: "the board's cable", Call: true},
		Resume{},
		Adjust{Side: black, Adjustment: Adjustment{Set: true, D: h, Moves: &two, Period: &two}, Reason: "keep in step"},
		DrawOffer{},
		DrawOffer{Side: &white},
		DrawAccept{},
		DrawDecline{},
		Resign{Side: black},
		Decide{Result: "1/2-1/2", Reason: "the hall was evacuated"},
		LogIncident{Incident: "appeal-decision", IncidentArgs: IncidentArgs{Text: "upheld", Name: "x", InHall: true, Result: "1-0", Refers: 7}},
		Flag{Side: "both", OrderUnknown: true},
		Correct{Ply: 31, Method: MethodSet, White: time.Hour, Black: h, Cause: CauseIrregularity, NoBonus: true, Reason: "wrong move"},
		Amend{Ply: 12, Input: "Nf3", Reason: "entered Nd2"},
		Claim{Draw: ClaimRepetition, Move: "Nf3"},
		Forfeit{Side: white, Reason: "absent"},
		Arrive{Player: kasparov},
		Arrive{Player: deepBlue, At: &arrived},
		CredentialAdd{Role: RoleOperator, Made: &Credential{Role: "operator", Kind: "key", PublicKey: strings.Repeat("ab", 32)}},
		CredentialCheck{},
		EngineMove{Game: 1, Ply: 3, FEN: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", UCI: "g1f3",
			Received: time.Date(1996, 2, 10, 20, 3, 1, 250e6, time.UTC), Eval: "cp 34", Depth: 18, Nodes: 123456, Pondered: true,
			EngineTranscript: EngineTranscript{File: "game-1.log", Lines: 40, Bytes: 2000, SHA256: strings.Repeat("ab", 32), From: 38,
				LineHashes: []string{"0123abcd", "89abcdef"}}, Play: true, Bridge: "0123456789ab"},
		EngineStart{Bridge: "0123456789ab", Station: "laptop", Host: "hsu-thinkpad", PID: 4170, Cmd: "/usr/games/stockfish",
			Replaces: "ba9876543210", Reason: "the arbiter's station died"},
		EngineStop{Bridge: "0123456789ab"},
	}
}

func TestEveryCommandKindHasOneTypeAndOneCanonicalEncoding(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range commandSamples() {
		seen[c.Kind()] = true
	}
	for _, k := range CommandKinds() {
		if !seen[k] {
			t.Errorf("no sample of the command kind %q", k)
		}
	}
	for _, c := range commandSamples() {
		t.Run(c.Kind()+" decodes to the same value and encodes to the same bytes again", func(t *testing.T) {
			b, err := EncodeCommand(c)
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"kind":"` + c.Kind() + `"`; !bytes.HasPrefix(b, []byte(want)) {
				t.Fatalf("encoding %s does not begin with %s", b, want)
			}
			back, err := DecodeCommand(b)
			if err != nil {
				t.Fatalf("DecodeCommand(%s): %v", b, err)
			}
			if !reflect.DeepEqual(back, c) {
				t.Fatalf("DecodeCommand(%s) = %#v, want %#v", b, back, c)
			}
			again, _ := EncodeCommand(back)
			if !bytes.Equal(again, b) {
				t.Fatalf("encoded again as %s, first %s", again, b)
			}
		})
	}
}

func TestACommandsEncodingHoldsNoSecret(t *testing.T) {
	for _, c := range []Command{
		MatchNew{Title: "t", Players: [2]string{"A", "B"}, PIN: "correct horse battery"},
		CredentialAdd{Role: RoleOperator, Secret: "correct horse battery"},
	} {
		b, err := EncodeCommand(c)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("horse")) {
			t.Errorf("the encoding of %s holds the passphrase: %s", c.Kind(), b)
		}
	}
}

func TestDecodeCommandRefusesWhatIsNoCommand(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     Code
	}{
		{"not JSON", `move e4`, CodeNotAnObject},
		{"not an object", `["move"]`, CodeNotAnObject},
		{"null", `null`, CodeNotAnObject},
		{"no kind", `{"input":"e4"}`, CodeNoCommandKind},
		{"a kind that is no command", `{"kind":"castle","input":"e4"}`, CodeNotACommandKind},
		{"a kind that only reads", `{"kind":"status"}`, CodeNotACommandKind},
		{"a member the command does not have", `{"kind":"move","input":"e4","promote":"q"}`, CodeMalformedCommand},
		{"a member of the wrong type", `{"kind":"move","input":4}`, CodeMalformedCommand},
		{"a side that is no side", `{"kind":"resign","side":"w"}`, CodeMalformedCommand},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if c, err := DecodeCommand([]byte(tc.in)); err == nil {
				t.Fatalf("DecodeCommand(%s) = %#v, want a refusal", tc.in, c)
			} else if ErrorCode(err) != tc.want {
				t.Fatalf("DecodeCommand(%s): %v, want the refusal %s", tc.in, err, tc.want)
			}
		})
	}
}

// FuzzDecodeCommand: decoding never panics, and whatever it accepts has one
// canonical encoding: encoding the decoded command and decoding that gives
// the same command and the same bytes.
func FuzzDecodeCommand(f *testing.F) {
	for _, c := range commandSamples() {
		b, _ := EncodeCommand(c)
		f.Add(b)
	}
	f.Add([]byte(`{"input":"e4","kind":"move"}`))
	f.Add([]byte(`{"kind":"game.start","white_ns":-1,"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := DecodeCommand(b)
		if err != nil {
			return
		}
		enc, err := EncodeCommand(c)
		if err != nil {
			t.Fatalf("%s decoded to %#v, which does not encode: %v", b, c, err)
		}
		back, err := DecodeCommand(enc)
		if err != nil {
			t.Fatalf("the encoding %s of %s does not decode: %v", enc, b, err)
		}
		again, _ := EncodeCommand(back)
		if !bytes.Equal(again, enc) {
			t.Fatalf("%s: encoded %s, then %s", b, enc, again)
		}
		_ = c.Validate() // never panics
	})
}

func TestDoReturnsTheEventsTheCommandAppendedAndTheRulingTheyHold(t *testing.T) {
	r := newRig(t)
	r.start()
	res, err := r.app.Do(r.ctx, r.as(RoleArbiter, time.Minute), Move{Input: "e4"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 1 || res.Events[0].Kind != KindMove || res.Events[0].Seq != r.app.State().Seq || res.Events[0].Hash != r.app.State().Head {
		t.Fatalf("Do(move) returned the events %+v, want the one move event as recorded", res.Events)
	}
	if m, ok := res.Moved(); !ok || m.SAN != "e4" || m.Ended {
		t.Fatalf("Moved() = %+v, %v", m, ok)
	}
	if _, ok := res.Verdict(); ok {
		t.Fatal("a move has no flag verdict")
	}
	for _, m := range []string{"e5", "Bc4", "Nc6", "Qh5", "Nf6"} {
		r.move(time.Minute, m)
	}
	res, err = r.app.Do(r.ctx, r.as(RoleArbiter, time.Minute), Move{Input: "Qxf7#"})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := res.Moved(); !ok || !m.Ended || m.Result != "1-0" || m.SAN != "Qxf7#" {
		t.Fatalf("the mating move's result: %+v, %v", m, ok)
	}
	if end, ok := res.Ended(); !ok || end.Termination != "checkmate" {
		t.Fatalf("Ended() = %+v, %v", end, ok)
	}
	// the same result is read from the record's events (as a station reads
	// a command the authority ran)
	evs, err := r.db.EventsAfter(r.ctx, res.Events[0].Seq-1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustMoved(t, ResultOf(evs)), mustMoved(t, res); got != want {
		t.Fatalf("ResultOf the record's events = %+v, Do's %+v", got, want)
	}
}

func mustMoved(t *testing.T, r Result) MoveResult {
	t.Helper()
	m, ok := r.Moved()
	if !ok {
		t.Fatal("no move in the result")
	}
	return m
}

func TestACommandThatFailsValidationWritesNothing(t *testing.T) {
	r := newRig(t)
	r.start()
	before := r.app.State().Seq
	for _, c := range []Command{
		Move{Input: "  "},
		Pause{Cause: "lunch"},
		Adjust{Side: clock.White, Adjustment: Adjustment{D: 25 * time.Hour}, Reason: "x"},
		Correct{Ply: 1, Method: "guess", Reason: "x"},
		Flag{Side: "both"},
		Claim{Draw: "stalemate"},
		LogIncident{Incident: "coffee", IncidentArgs: IncidentArgs{Text: "x"}},
		Decide{Result: "2-0", Reason: "x"},
	} {
		t.Run(c.Kind()+" is refused by Validate and by Do alike", func(t *testing.T) {
			verr := c.Validate()
			if verr == nil {
				t.Fatalf("Validate(%#v) accepted it", c)
			}
			_, err := r.app.Do(r.ctx, r.as(RoleArbiter, time.Second), c)
			if err == nil || ErrorCode(err) != ErrorCode(verr) || err.Error() != verr.Error() {
				t.Fatalf("Do: %v; Validate: %v", err, verr)
			}
			if r.app.State().Seq != before {
				t.Fatal("a refused command wrote events")
			}
		})
	}
}
