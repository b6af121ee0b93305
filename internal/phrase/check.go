package phrase

import (
	"regexp"
	"slices"
)

// verb is a printf verb of a format ("%s", "%d", "%5.1f", "%%").
var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// Verbs are the printf verbs of a format, in order.
func Verbs(format string) []string { return verb.FindAllString(format, -1) }

// TB is the part of testing.TB that CheckDictionary reports through (so
// that this package does not import testing).
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// CheckDictionary is the one check of a translation (docs/i18n.md): it
// reports each key that dict has no entry for, or whose entry takes other
// printf verbs or the same in another order. With a context, the entry
// "context|key" is the key's when dict has it (Dictionary.In). The console
// (gui) and the PDF (report) check their texts with it.
func CheckDictionary(t TB, dict Dictionary, context string, keys []string) {
	t.Helper()
	for _, k := range keys {
		tr, ok := dict[context+"|"+k]
		if !ok || context == "" {
			tr, ok = dict[k]
		}
		if !ok {
			t.Errorf("the dictionary has no entry for %q", k)
			continue
		}
		if want, got := Verbs(k), Verbs(tr); !slices.Equal(want, got) {
			t.Errorf("the translation %q takes arguments %v, the English %q takes %v", tr, got, k, want)
		}
	}
}
