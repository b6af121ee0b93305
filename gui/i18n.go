package gui

import (
	"encoding/json"
	"sync"

	"fyne.io/fyne/v2/lang"

	"arbiter/assets"
	"arbiter/internal/phrase"
)

// translations holds the console's texts in English and German
// (assets/translations/en.json and de.json, shared with the PDF report),
// keyed by the English text.
// Both files hold the same keys, so that a lookup never misses (Fyne logs
// every miss as an error). English maps the console's own texts to
// themselves and may reword a refusal of the core for the console (the
// command line's "adjust needs --reason" is "give a reason" here).
var translations = assets.Translations

var dictionaryKeys = sync.OnceValue(func() map[string]bool {
	keys := map[string]bool{}
	data, err := translations.ReadFile("translations/en.json")
	if err != nil {
		panic("gui: the embedded translations/en.json is missing: " + err.Error())
	}
	var en map[string]string
	if err := json.Unmarshal(data, &en); err != nil {
		panic("gui: the embedded translations/en.json does not parse: " + err.Error())
	}
	for k := range en {
		keys[k] = true
	}
	return keys
})

// say is a phrase from the core in the console's language ("" for none).
func say(p *phrase.Error) string {
	if p == nil {
		return ""
	}
	return phrase.Translate(p, translate)
}

// translate returns the translation of an English text, or the text itself
// when the dictionary has none (a name, a move, "%v"): those are not looked
// up at all.
func translate(s string) string {
	if !dictionaryKeys()[s] {
		return s
	}
	return lang.L(s)
}
