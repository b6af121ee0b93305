package report_test

import (
	"bytes"
	"testing"

	"arbiter/match"
	"arbiter/report"
)

// The paper a report takes when none is asked for is US Letter in the
// Americas and A4 elsewhere: by the match's zone, else by the locale.
func TestTheDefaultPaperIsLetterInTheAmericas(t *testing.T) {
	for _, tc := range []struct {
		name, zone, locale, want string
	}{
		{"a match in Philadelphia is printed on Letter", "America/New_York", "de_DE.UTF-8", "letter"},
		{"a match in Berlin is printed on A4", "Europe/Berlin", "en_US.UTF-8", "a4"},
		{"a match in São Paulo is printed on Letter", "America/Sao_Paulo", "", "letter"},
		{"without a zone, a US locale says Letter", "", "en_US.UTF-8", "letter"},
		{"without a zone, a Mexican locale tag says Letter", "", "es-MX", "letter"},
		{"without a zone, a German locale says A4", "", "de_DE.UTF-8", "a4"},
		{"without a zone or a region, A4", "", "C", "a4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := report.DefaultPaper(&match.Match{TimeZone: tc.zone}, tc.locale); got != tc.want {
				t.Errorf("DefaultPaper(%q, %q) = %q, want %q", tc.zone, tc.locale, got, tc.want)
			}
		})
	}
	t.Run("the locale is LC_PAPER, else LC_ALL, else LANG", func(t *testing.T) {
		env := map[string]string{"LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}
		if got := report.PaperLocale(func(k string) string { return env[k] }); got != "de_DE.UTF-8" {
			t.Errorf("PaperLocale = %q", got)
		}
		env["LC_PAPER"] = "en_CA.UTF-8"
		if got := report.PaperLocale(func(k string) string { return env[k] }); got != "en_CA.UTF-8" {
			t.Errorf("PaperLocale = %q", got)
		}
	})
	t.Run("a report of a match in Philadelphia asked for no paper is on Letter", func(t *testing.T) {
		st := handGame(t)
		st.Match.TimeZone = "America/New_York"
		var b bytes.Buffer
		if err := report.WritePDF(&b, st, "", report.PDFOptions{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b.Bytes(), []byte("/MediaBox [0 0 612.00 792.00]")) {
			t.Errorf("the page is not US Letter (612×792 pt)")
		}
	})
}
