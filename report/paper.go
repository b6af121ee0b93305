package report

import (
	"strings"

	"arbiter/match"
)

// DefaultPaper is the paper a report is printed on when none is asked for:
// US Letter in the Americas, A4 elsewhere — by the match's time zone
// (America/New_York: Letter; Europe/Berlin: A4), or, for a match without
// one, by the region of locale (a POSIX locale such as "en_US.UTF-8" or a
// tag such as "en-US"; LC_PAPER says it where it is set). "a4" or
// "letter".
func DefaultPaper(m *match.Match, locale string) string {
	if m != nil && m.TimeZone != "" {
		if americanZone(m.TimeZone) {
			return "letter"
		}
		return "a4"
	}
	if americas[localeRegion(locale)] {
		return "letter"
	}
	return "a4"
}

// americanZone reports whether an IANA zone lies in the Americas.
func americanZone(zone string) bool {
	for _, p := range []string{"America/", "US/", "Canada/", "Brazil/", "Chile/", "Mexico/"} {
		if strings.HasPrefix(zone, p) {
			return true
		}
	}
	return false
}

// localeRegion is the region of a locale: "en_US.UTF-8" → "US", "de-AT" →
// "AT"; "" for none ("C", "POSIX", "de").
func localeRegion(locale string) string {
	l, _, _ := strings.Cut(locale, ".")
	l, _, _ = strings.Cut(l, "@")
	parts := strings.FieldsFunc(l, func(r rune) bool { return r == '_' || r == '-' })
	if len(parts) < 2 {
		return ""
	}
	return strings.ToUpper(parts[len(parts)-1])
}

// americas are the countries of the Americas (ISO 3166 codes).
var americas = map[string]bool{
	"AG": true, "AI": true, "AR": true, "AW": true, "BB": true, "BL": true, "BM": true, "BO": true, "BQ": true,
	"BR": true, "BS": true, "BZ": true, "CA": true, "CL": true, "CO": true, "CR": true, "CU": true, "CW": true,
	"DM": true, "DO": true, "EC": true, "FK": true, "GD": true, "GF": true, "GL": true, "GP": true, "GT": true,
	"GY": true, "HN": true, "HT": true, "JM": true, "KN": true, "KY": true, "LC": true, "MF": true, "MQ": true,
	"MS": true, "MX": true, "NI": true, "PA": true, "PE": true, "PM": true, "PR": true, "PY": true, "SR": true,
	"SV": true, "SX": true, "TC": true, "TT": true, "US": true, "UY": true, "VC": true, "VE": true, "VG": true,
	"VI": true,
}

// PaperLocale is the locale that says the paper, from the environment:
// LC_PAPER, else LC_ALL, else LANG.
func PaperLocale(getenv func(string) string) string {
	for _, n := range []string{"LC_PAPER", "LC_ALL", "LANG"} {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}
