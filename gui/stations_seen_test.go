//go:build !nostation

package gui

import (
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/service"
	"arbiter/station"
)

// Match → Stations… shows every station of the match, clients included
// (issue 27: the operator's laptop and the mirror never appeared): each
// with its role; connected, or when it was last heard; its lag; its
// clock's uncertainty to the authority; the authority; its alarm — in
// English and in German.
func TestTheStationsDialogShowsEveryStationClientsIncluded(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("40/7200+1800", "")
	seen := h.ft.Now().Add(-3 * time.Minute)
	st := service.StationStatus{Station: "arbiter", Role: "organiser", Authority: "arbiter", Seq: 9, CanAppend: true,
		Members: []service.StationMember{{Name: "arbiter", Role: "organiser", Up: true}},
		Stations: []service.StationSeen{
			{Name: "arbiter", Role: "organiser", Connected: true, Authority: true, Self: true},
			{Name: "laptop", Role: "operator", Connected: true, LastSeenNS: h.ft.Now().UnixNano(), Lag: 1, UncertaintyMS: 1.5},
			{Name: "mirror", Role: "mirror", LastSeenNS: seen.UnixNano(), Lag: 4, UncertaintyMS: 2.25, Alarm: "this station's record file was changed behind it"},
			{Name: "display", Role: "display", UncertaintyMS: -1},
		}}
	makeFirstStation(t, h, st)
	h.c.do(actStations)
	shown := stationsShown(h)
	for _, want := range []string{
		"Stations (4):",
		"arbiter (organiser): connected, 0 events behind, clock ± 0.0 ms · authority · this station",
		"laptop (operator): connected, 1 events behind, clock ± 1.5 ms",
		"mirror (mirror): last seen " + seen.Format("15:04:05") + " UTC, 4 events behind, clock ± 2.2 ms · ALARM: this station's record file was changed behind it",
		"display (display): not heard since this station started",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, shown)
		}
	}
	h.key("Escape")

	t.Run("in German", func(t *testing.T) {
		inGerman(t)
		h.c.do(actStations)
		shown := stationsShown(h)
		for _, want := range []string{"Stationen (4):", "laptop (operator): verbunden, 1 Ereignisse zurück, Uhr ± 1.5 ms", "mirror (mirror): zuletzt gehört"} {
			if !strings.Contains(shown, want) {
				t.Errorf("the German dialog does not show %q:\n%s", want, shown)
			}
		}
		h.key("Escape")
	})
	t.Run("a station that does not run hears nobody: none is shown connected", func(t *testing.T) {
		h.ft.advance(3 * time.Second) // the status file is older than 2 s
		h.c.do(actStations)
		shown := stationsShown(h)
		if strings.Contains(shown, "connected") || !strings.Contains(shown, "arbiter (organiser): not running") {
			t.Errorf("a stopped station's dialog shows:\n%s", shown)
		}
	})
}

// A station's alarm comes as a phrase (station.AlarmError.Why, in the
// status file beside its English): the dialog says it in the console's
// language, this station's and another's alike; an alarm without one (a
// station older than phrases) is shown in its English, as above.
func TestTheStationsDialogSaysAnAlarmInTheConsolesLanguage(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("40/7200+1800", "")
	own := station.AlarmPhrase(station.CodeAlarmFile, station.AlarmPhrase(station.CodeFileEdited, int64(41), "move"))
	mirror := station.AlarmPhrase(station.CodeAlarmStream, int64(42), station.AlarmPhrase(station.CodeAlarmPrev))
	st := service.StationStatus{Station: "arbiter", Role: "organiser", Authority: "arbiter", Seq: 41,
		Alarm: own.Error(), AlarmWhy: own,
		Members: []service.StationMember{{Name: "arbiter", Role: "organiser", Up: true}},
		Stations: []service.StationSeen{
			{Name: "arbiter", Role: "organiser", Connected: true, Authority: true, Self: true, Alarm: own.Error(), AlarmWhy: own},
			{Name: "mirror", Role: "mirror", Connected: true, LastSeenNS: h.ft.Now().UnixNano(), Lag: 1, UncertaintyMS: 1.5, Alarm: mirror.Error(), AlarmWhy: mirror},
		}}
	makeFirstStation(t, h, st)
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{
			"ALARM: this station's record file was changed behind it (its event 41 (move) was edited: the hash recomputed from what the file holds is not the event's): this station stopped applying; keep the file for the appeals board and join again with a new invitation",
			"mirror (mirror): connected, 1 events behind, clock ± 1.5 ms · ALARM: event 42 from the stream does not fit this record (its prev is not the record's head): this station stopped applying; keep both records for the appeals board and join again with a new invitation",
		}},
		{"de", []string{
			"ALARM: die Aufzeichnungsdatei dieser Station wurde ohne ihr Zutun verändert (ihr Ereignis 41 (move) wurde verändert: der aus dem Inhalt der Datei neu berechnete Hash ist nicht der des Ereignisses): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie die Datei für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei",
			"mirror (mirror): verbunden, 1 Ereignisse zurück, Uhr ± 1.5 ms · ALARM: Ereignis 42 aus dem Datenstrom passt nicht zu dieser Aufzeichnung (sein Vorgänger-Hash (prev) ist nicht der Kopf der Aufzeichnung): diese Station hat die Übernahme von Ereignissen eingestellt; bewahren Sie beide Aufzeichnungen für das Schiedsgericht auf und treten Sie mit einer neuen Einladung erneut bei",
		}},
	} {
		t.Run("in "+tc.lang, func(t *testing.T) {
			if tc.lang == "de" {
				inGerman(t)
			}
			h.c.do(actStations)
			shown := stationsShown(h)
			for _, want := range tc.want {
				if !strings.Contains(shown, want) {
					t.Errorf("the dialog does not show %q:\n%s", want, shown)
				}
			}
			h.key("Escape")
		})
	}
}
