//go:build !nostation

package gui

import (
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/service"
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
