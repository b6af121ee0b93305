package gui

import (
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2/lang"

	"arbiter/assets"
	"arbiter/internal/phrase"
)

// translations holds the console's texts in English and German
// (assets/translations/en.json and de.json, shared with the PDF report and
// the command line), keyed by the English text; the console says them with
// its language's phrase.Dictionary (assets.Dictionary) and feeds them to
// Fyne's bundle only for the buttons of Fyne's own dialogs.
// Both files hold the same keys, so that a lookup never misses (Fyne logs
// every miss as an error). English maps the console's own texts to
// themselves and may reword a refusal of the core for the console (the
// command line's "adjust needs --reason" is "give a reason" here).
var translations = assets.Translations

// spoken is the language the console speaks ("de" or "en"), as the locale
// said when the translations were last loaded (loadTranslations): a lookup
// does not ask the system each time (Fyne logs a locale it cannot parse,
// such as C, and on macOS asking may start a process).
var spoken atomic.Pointer[string]

// loadTranslations loads the translations into Fyne's bundle for the locale
// the environment says now (LANGUAGE, LC_ALL, LANG) and makes the
// console's dictionary that locale's language.
func loadTranslations() error {
	l := "en"
	if strings.HasPrefix(strings.ToLower(string(lang.SystemLocale())), "de") {
		l = "de"
	}
	spoken.Store(&l)
	return lang.AddTranslationsFS(translations, "translations")
}

// consoleLang is the language the console speaks: "de" or "en".
func consoleLang() string {
	if l := spoken.Load(); l != nil {
		return *l
	}
	return "en"
}

// consoleDictionary is the console's dictionary in the language it speaks now.
func consoleDictionary() phrase.Dictionary { return assets.Dictionary(consoleLang()) }

// say is a phrase from the core in the console's language ("" for none).
func say(p *phrase.Error) string {
	if p == nil {
		return ""
	}
	return consoleDictionary().Say(p)
}

// translate returns the translation of an English text, or the text itself
// when the dictionary has none (a name, a move, "%v").
func translate(s string) string { return consoleDictionary().T(s) }
