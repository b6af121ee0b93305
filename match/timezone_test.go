package match

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestMatchTimeZone(t *testing.T) {
	at := time.Date(1996, 2, 15, 0, 43, 0, 0, time.UTC) // game 4 ended 19:43 on 14 February in Philadelphia
	tests := []struct {
		name    string
		tz      string
		refused Code   // "" = accepted
		local   string // at, shown in the match's zone
	}{
		{"an IANA zone is stored and times are shown in it", "America/New_York", "", "1996-02-14 19:43 EST"},
		{"a match without a zone is shown in UTC", "", "", "1996-02-15 00:43 UTC"},
		{"an unknown zone is refused and changes nothing", "America/Filadelfia", CodeUnknownTimeZone, ""},
		{"the word Local is refused: the record needs a zone name", "Local", CodeNotATimeZone, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			app, _, path := openTestApp(t, "tz.db")
			before, _ := os.ReadFile(path)
			err := app.NewMatch(context.Background(), Cmd{At: at.Add(-time.Hour), Actor: Actor{Role: RoleArbiter}},
				MatchNew{Title: "T", Players: [2]string{"A", "B"}, White: "A", TimeZone: tc.tz})
			if tc.refused != "" {
				if err == nil || ErrorCode(err) != tc.refused {
					t.Fatalf("NewMatch(--tz %q) = %v; want a refusal %s", tc.tz, err, tc.refused)
				}
				after, _ := os.ReadFile(path)
				if string(after) != string(before) {
					t.Errorf("a refused --tz changed the database")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m := app.State().Match
			if m.TimeZone != tc.tz {
				t.Errorf("TimeZone = %q, want %q", m.TimeZone, tc.tz)
			}
			if got := m.LocalTime(at, "2006-01-02 15:04"); got != tc.local {
				t.Errorf("LocalTime = %s, want %s", got, tc.local)
			}
		})
	}
}

func TestZoneNameUsesTheIANANameWhereTheZoneHasNoLetters(t *testing.T) {
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	for tz, want := range map[string]string{"Europe/Berlin": "CEST", "Europe/Istanbul": "Europe/Istanbul", "": "UTC"} {
		if got := (&Match{TimeZone: tz}).ZoneName(at); got != want {
			t.Errorf("ZoneName(%q) = %q, want %q", tz, got, want)
		}
	}
}
