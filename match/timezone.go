package match

import (
	"strings"
	"time"
	_ "time/tzdata" // every IANA zone is known, also where the system has no zoneinfo (Windows)
)

// checkTimeZone validates an IANA zone name given to "match new --tz".
func checkTimeZone(name string) error {
	if name == "" {
		return nil
	}
	if strings.EqualFold(name, "local") {
		return refuseAs(CodeNotATimeZone, name)
	}
	if _, err := time.LoadLocation(name); err != nil {
		return refuseAs(CodeUnknownTimeZone, name)
	}
	return nil
}

// Location is the match's time zone (match new --tz): the zone in which the
// PDF and the console show times of day. A match created without one, or
// whose zone this build does not know, is shown in UTC.
func (m *Match) Location() *time.Location {
	if m == nil || m.TimeZone == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(m.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// ZoneName names the match's zone at instant t as people read it: the
// abbreviation in use then ("EST", "EDT", "CET"), or the IANA name where the
// zone has no letters of its own ("+03" → "Europe/Istanbul"); "UTC" for a
// match without a zone.
func (m *Match) ZoneName(t time.Time) string {
	loc := m.Location()
	abbr, _ := t.In(loc).Zone()
	if abbr == "" || strings.ContainsAny(abbr[:1], "+-0123456789") {
		return loc.String()
	}
	return abbr
}

// LocalTime writes instant t in the match's time zone with the zone named,
// e.g. "1996-02-14 19:43 EST" (layout "2006-01-02 15:04"): the form in which
// the PDF and the console show a time of day. The record keeps UTC.
func (m *Match) LocalTime(t time.Time, layout string) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(m.Location()).Format(layout) + " " + m.ZoneName(t)
}

// Instant writes an instant to the millisecond in the match's time zone,
// the zone named: "15:01:40.000 EST" ("17:01:39.000 UTC" for a match
// without a zone). A sentence a person reads (a flag's fall, a 6.9 verdict)
// says its instants so; the record's instants stay UTC.
func (m *Match) Instant(t time.Time) string {
	return t.In(m.Location()).Format("15:04:05.000") + " " + m.ZoneName(t)
}

// backoffEnd writes the end of a credential's back-off as a clock shows it,
// in the match's time zone with the zone named ("15:01:41 EST"): rounded up
// to the second, so that a try at the instant said is never refused (the
// wait is whole seconds after a wrong try made at any fraction of one; it
// lasts at most an hour, so the time of day names the instant). Before,
// the refusal said it in RFC 3339 to the nanosecond
// ("2026-12-05T17:30:26.906809622Z").
func (m *Match) backoffEnd(t time.Time) string {
	up := t.Truncate(time.Second)
	if up.Before(t) {
		up = up.Add(time.Second)
	}
	return m.LocalTime(up, "15:04:05")
}

// instantText writes an instant a refusal compares with --at as --at is
// written (RFC 3339, UTC) to the millisecond, as the rest of the command
// line says instants ("2026-12-05T17:56:42.628Z"), not to the nanosecond
// of the machine's clock ("2026-12-05T17:56:42.627502886Z", before). A
// bound (the record's time, the match's start, the clock's last event)
// is rounded up, so that an --at of the instant said is not refused as
// earlier than it; any other instant is cut to the millisecond.
func instantText(t time.Time, bound bool) string {
	ms := t.Truncate(time.Millisecond)
	if bound && ms.Before(t) {
		ms = ms.Add(time.Millisecond)
	}
	return ms.UTC().Format("2006-01-02T15:04:05.999Z07:00")
}
