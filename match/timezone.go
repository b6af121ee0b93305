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
		return refuse("the time zone %q is not a zone name: give an IANA name such as America/New_York or Europe/Berlin", name)
	}
	if _, err := time.LoadLocation(name); err != nil {
		return refuse("the time zone %q is not known: give an IANA name such as America/New_York or Europe/Berlin", name)
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
