package station

import (
	"errors"
	"sort"
	"time"

	"arbiter/internal/phrase"
)

// Every station beats (Config.BeatEvery) — the clients, the operator's
// laptop and the mirror, as the record holders — and every station hears
// every beat (issue 27: the console's Match → Stations… listed only the
// record holders, so the laptop and the mirror never appeared, connected or
// alarmed). A beat carries, beside the station's name and head, its role,
// the uncertainty of its clock to the authority and its alarm (beatInfo),
// so that each station reports every station of the match it has heard
// (Status.Stations): the record holders the record names, and every station
// heard since this one started.

// beatInfo is what a beat tells of its station beyond its name and head.
type beatInfo struct {
	Role  string `json:"role,omitempty"`
	UncNS int64  `json:"unc_ns,omitempty"` // the clock's uncertainty to the authority; negative: not known yet
	Alarm string `json:"alarm,omitempty"`
	// AlarmWhy is the alarm as a phrase (a station older than phrases
	// sends none: its alarm is said in English)
	AlarmWhy *phrase.Error `json:"alarm_why,omitempty"`
}

// Seen is a station as this one knows it (station status's "stations").
type Seen struct {
	Name string `json:"name"`
	Role string `json:"role"`
	// Connected: heard within Config.Silence (this station itself: it
	// runs); LastSeenNS: when it was last heard, on this machine's clock (0:
	// not since this station started)
	Connected  bool  `json:"connected"`
	LastSeenNS int64 `json:"last_seen_ns"`
	// Lag is how many events it is behind this station's record.
	Lag int64 `json:"lag"`
	// UncertaintyMS is its clock's uncertainty to the authority (−1: not
	// known yet, or not told).
	UncertaintyMS float64 `json:"uncertainty_ms"`
	Alarm         string  `json:"alarm,omitempty"`
	// AlarmWhy is the alarm as a phrase, for the console to say it in
	// its language (nil: said as Alarm, in English)
	AlarmWhy  *phrase.Error `json:"alarm_why,omitempty"`
	Authority bool          `json:"authority,omitempty"`
	Self      bool          `json:"self,omitempty"`
}

// info is this station's own beatInfo.
func (s *Station) info() beatInfo {
	_, unc := s.Offset()
	b := beatInfo{Role: s.cfg.Role, UncNS: int64(unc)}
	if a := s.rep.Alarm(); a != nil {
		b.Alarm, b.AlarmWhy = a.Error(), alarmWhy(a)
	}
	return b
}

// seen lists every station this one knows, by name: itself, the members
// the record names, and every station heard (beats), with seq its record's
// head and auth the authority.
func (s *Station) seen(seq uint64, auth string, st Status, members map[string]MemberInfo, beats map[string]beatSeen) []Seen {
	byName := map[string]*Seen{}
	add := func(name, role string) *Seen {
		if x, ok := byName[name]; ok {
			if x.Role == "" {
				x.Role = role
			}
			return x
		}
		x := &Seen{Name: name, Role: role, UncertaintyMS: -1, Authority: name == auth}
		byName[name] = x
		return x
	}
	for _, m := range members {
		add(m.Name, m.Role)
	}
	for name, b := range beats {
		x := add(name, b.info.Role)
		x.LastSeenNS = b.at.UnixNano()
		x.Connected = time.Since(b.at) < s.cfg.Silence
		x.Lag = int64(seq) - b.seq
		if b.info.Role != "" && b.info.UncNS >= 0 { // an older station's beat tells nothing
			x.UncertaintyMS = float64(b.info.UncNS) / 1e6
		}
		x.Alarm, x.AlarmWhy = b.info.Alarm, b.info.AlarmWhy
	}
	self := add(s.cfg.Name, s.cfg.Role)
	self.Self, self.Connected, self.Lag, self.LastSeenNS = true, true, 0, time.Now().UnixNano()
	self.UncertaintyMS, self.Alarm, self.AlarmWhy = st.UncertaintyMS, st.Alarm, st.AlarmWhy
	out := make([]Seen, 0, len(byName))
	for _, x := range byName {
		out = append(out, *x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// alarmWhy is the alarm a as a phrase (AlarmError.Why), nil if it carries
// none.
func alarmWhy(a error) *phrase.Error {
	var alarm *AlarmError
	if errors.As(a, &alarm) {
		return alarm.Why
	}
	return nil
}
