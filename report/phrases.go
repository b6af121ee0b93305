package report

import (
	"strings"
	"sync"

	"arbiter/assets"
	"arbiter/internal/phrase"
	"arbiter/match"
)

// germanPhrases is the console's German dictionary
// (assets/translations/de.json): the PDF says a recorded phrase, such as a
// flag's 6.9 verdict and its proof, in the same words as the console.
var germanPhrases = sync.OnceValue(func() phrase.Dictionary {
	d, err := phrase.LoadDictionary(assets.Translations, "translations/de.json")
	if err != nil {
		panic("report: the embedded German dictionary: " + err.Error())
	}
	return d
})

// reasoned translates a recorded text whose reason the record also keeps as
// a phrase (why): the text before the reason through the text rules, the
// reason said from its code. Without a phrase, or in English, it is text.
func (t tr) reasoned(text string, why *phrase.Error) string {
	if !t.de || why == nil {
		return t.text(text)
	}
	reason := phrase.CapitalFirst(germanPhrases().Say(why))
	if text == why.Error() {
		return reason
	}
	for _, sep := range []struct{ before, after string }{{" (", ")"}, {": ", ""}} {
		if head, ok := strings.CutSuffix(text, sep.before+why.Error()+sep.after); ok {
			return t.text(head) + sep.before + reason + sep.after
		}
	}
	return t.text(text)
}

// methodDE is a correction's method (rule 10, 6.13) in German, as the
// console says it.
func methodDE(m string) string { return germanPhrases().T(match.MethodEffect(m)) }
