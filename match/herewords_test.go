package match

import (
	"strings"
	"testing"
	"time"

	"arbiter/assets"
)

// TestARefusalOnOneMachineNamesNoUncertainty (principle 5: one sentence
// saying what was wrong): a command given on this machine is received on
// the clock its instant was read on, so the refusals of an instant after
// its receipt, of a party's command before a flag that had fallen, and of
// an engine's move read after its receipt name no clock uncertainty there;
// the console says them in English and German without one, and a station's
// refusal, whose receipt has an uncertainty, still states it. Before, on
// one machine they read "… by more than the clock's uncertainty (0s)".
// (The command line's words: cli.TestARefusalOnOneMachineNamesNoUncertaintyOnTheCommandLine.)
func TestARefusalOnOneMachineNamesNoUncertainty(t *testing.T) {
	for _, tc := range []struct {
		name            string
		refusal         func(t *testing.T) error
		code            Code
		english, german string
	}{
		{"an instant 1 ms after its receipt", func(t *testing.T) error {
			r := newRig(t)
			r.start()
			received := rigStart.Add(time.Minute)
			_, err := r.app.Incident(r.ctx, Cmd{At: received.Add(time.Millisecond), Received: received, Actor: Actor{Role: RoleArbiter}}, "note", IncidentArgs{Text: "x"})
			return err
		}, CodeFuture,
			"The instant 1996-02-10T15:01:00.001Z is later than the moment the command was received (1996-02-10T15:01:00Z), on this computer's clock: nobody records an instant that has not yet come.",
			"Der Zeitpunkt 1996-02-10T15:01:00.001Z liegt nach dem Empfang des Befehls (1996-02-10T15:01:00Z) nach der Uhr dieses Computers: niemand zeichnet einen Zeitpunkt auf, der noch nicht gekommen ist."},
		{"a party's move stamped 1 ms before his flag fell, received 1 ms after", func(t *testing.T) error {
			r, fell := protectedFlagRig(t)
			_, err := r.app.Move(r.ctx, Cmd{At: fell.Add(-time.Millisecond), Received: fell.Add(time.Millisecond), Actor: Actor{Role: RoleWhite, Secret: whitePass}}, "e4", false)
			return err
		}, CodeBeforeFallenFlag,
			"White's flag fell at 15:01:00.000 UTC, before the moment the command was received (1996-02-10T15:01:00.001Z), and the command claims 1996-02-10T15:00:59.999Z, before the fall: a party's command received after a flag fell never stops that clock before it; if it truly came in time, the arbiter records it with his PIN or his key file.",
			"Das Fallblättchen von Weiß fiel um 15:01:00.000 UTC, vor dem Empfang des Befehls (1996-02-10T15:01:00.001Z), und der Befehl nennt 1996-02-10T15:00:59.999Z, vor dem Fall: der Befehl einer Partei, der nach dem Fall eines Fallblättchens empfangen wurde, hält diese Uhr nie vor dem Fall an; kam er wirklich rechtzeitig, zeichnet ihn der Schiedsrichter mit seiner PIN oder seiner Schlüsseldatei auf."},
		{"an engine's move read 1 ms after the command was received", func(t *testing.T) error {
			r := newRig(t)
			r.start()
			r.move(time.Minute, "e4")
			m := r.engineMove("c7c5", false)
			c := r.as(RoleOperator, 10*time.Second)
			m.Received = c.At.Add(time.Millisecond)
			_, err := r.app.Do(r.ctx, c, m)
			return err
		}, CodeEngineReadFuture,
			"The engine's move was read at 1996-02-10T15:01:10.001Z, later than the moment the command was received (1996-02-10T15:01:10Z), on this computer's clock: nobody records an instant that has not yet come.",
			"Der Zug der Engine wurde um 1996-02-10T15:01:10.001Z gelesen, später als der Empfang des Befehls (1996-02-10T15:01:10Z) nach der Uhr dieses Computers: niemand zeichnet einen Zeitpunkt auf, der noch nicht gekommen ist."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.refusal(t)
			refused(t, err, tc.code)
			en, de := assets.Dictionary("en").Sentence(err), assets.Dictionary("de").Sentence(err)
			for _, s := range []string{en, de} {
				if strings.Contains(s, "0s") || strings.Contains(s, "ncertainty") || strings.Contains(s, "Unsicherheit") || strings.Contains(s, "-here") {
					t.Errorf("on one machine the refusal reads %q", s)
				}
			}
			if en != tc.english {
				t.Errorf("English:\n%s\nwant\n%s", en, tc.english)
			}
			if de != tc.german {
				t.Errorf("German:\n%s\nwant\n%s", de, tc.german)
			}
		})
	}
	t.Run("a station's refusal still states the receipt's uncertainty", func(t *testing.T) {
		f, _, key := operatorMatch(t)
		err := givenAtLaptop(f, key, f.at(30*time.Second).At, "e4", -5*time.Millisecond, 3*time.Millisecond)
		refused(t, err, CodeFuture)
		if en, de := assets.Dictionary("en").Sentence(err), assets.Dictionary("de").Sentence(err); !strings.Contains(en, "by more than the clock's uncertainty (3ms)") || !strings.Contains(de, "um mehr als die Unsicherheit der Uhr (3ms)") {
			t.Errorf("a station's refusal reads %q and %q", en, de)
		}
	})
}
