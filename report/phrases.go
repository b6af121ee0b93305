package report

import (
	"sync"

	"arbiter/assets"
	"arbiter/internal/phrase"
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

// englishPhrases is the console's English dictionary
// (assets/translations/en.json): the English PDF names an incident kind by
// the console's name for it ("technical fault").
var englishPhrases = sync.OnceValue(func() phrase.Dictionary {
	d, err := phrase.LoadDictionary(assets.Translations, "translations/en.json")
	if err != nil {
		panic("report: the embedded English dictionary: " + err.Error())
	}
	return d
})

// said is a recorded text in the report's language: in English the text as
// recorded; in German the phrase the core keeps beside it (match.Incident.
// Said) said with the shared dictionary in the PDF's words (the context
// "report"), else the text the dictionary knows whole, else as recorded
// (the words a person typed).
func (t tr) said(text string, p *phrase.Error) string {
	if !t.de || text == "" {
		return text
	}
	if p != nil && p.Error() == text {
		return germanPhrases().SayIn("report", p)
	}
	return t.s(text)
}
