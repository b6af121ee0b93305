package cli

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/service/stations"
)

// A command given at a station travels as the command line's words
// (stations.CommandWords, the one seam to the wire until issue 25's phase
// B) and the authority reads them back with the command line's parsers:
// the value that arrives is the value given.
func TestTheWordsACommandTravelsAsAtAStationParseBackToTheSameValue(t *testing.T) {
	for _, cmd := range []match.Command{
		match.Move{Input: "Nf3"},
		match.Move{Input: "g1f3", Pressed: true},
		match.Move{Input: "e4", NotEngine: true, Reason: "the operator played the book move"},
		match.EngineMove{Game: 2, Ply: 57, FEN: "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 38", UCI: "e1g1",
			Received: time.Date(2026, 12, 4, 21, 14, 3, 221e6, time.UTC), Eval: "cp -34", Depth: 18, Nodes: 1234567, Pondered: true,
			EngineTranscript: match.EngineTranscript{File: "game-2.log", Lines: 412, Bytes: 30211, SHA256: strings.Repeat("0a", 32), From: 380,
				LineHashes: []string{"0123abcd", "89abcdef"}}, Play: true},
		match.EngineMove{Game: 1, Ply: 1, FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", UCI: "e2e4",
			Received: time.Date(2026, 12, 4, 21, 0, 0, 0, time.UTC), EngineTranscript: match.EngineTranscript{File: "game-1.log", Lines: 18, Bytes: 1005, SHA256: strings.Repeat("f0", 32)}},
		match.LogIncident{Incident: match.IncidentTechnicalFault, IncidentArgs: match.IncidentArgs{Text: "The engine exited with status 3."}},
		match.LogIncident{Incident: match.IncidentSetup, IncidentArgs: match.IncidentArgs{Text: "The engine was restarted."}},
	} {
		t.Run(cmd.Kind(), func(t *testing.T) {
			words, err := stations.CommandWords(cmd)
			if err != nil {
				t.Fatal(err)
			}
			c, rest, err := lookup(words)
			if err != nil {
				t.Fatalf("%q: %v", words, err)
			}
			a, err := parseArgs(rest, boolFlags...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.parse(&runner{}, a)
			if err != nil {
				t.Fatalf("%q: %v", words, err)
			}
			if !reflect.DeepEqual(got, cmd) {
				t.Fatalf("%q reads back as %#v, want %#v", words, got, cmd)
			}
		})
	}
}
