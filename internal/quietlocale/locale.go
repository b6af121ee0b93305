// Package quietlocale gives the process a parseable locale before any other
// package initialises. Fyne parses the locale while its lang package
// initialises and logs an error for the POSIX locales "C" and "POSIX" (and
// "C.UTF-8"), which would put noise on the command line's standard error.
// Those locales are replaced by en_US.UTF-8 for this process only; any real
// locale (de_DE.UTF-8, …) is left alone, so the console still follows it.
//
// main imports this package first; Go initialises packages in import-path
// order among those ready, and this package only depends on os and strings.
package quietlocale

import (
	"os"
	"strings"
)

func init() {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := os.Getenv(name)
		if v == "" {
			continue
		}
		if IsPOSIX(v) {
			os.Setenv(name, "en_US.UTF-8")
		}
		return // the first one set decides, as in setlocale(3)
	}
}

// IsPOSIX reports whether a locale name is the POSIX locale.
func IsPOSIX(v string) bool {
	base, _, _ := strings.Cut(v, ".")
	return base == "C" || base == "POSIX"
}
