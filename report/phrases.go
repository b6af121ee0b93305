package report

import (
	"arbiter/assets"
	"arbiter/internal/phrase"
)

// germanPhrases is the console's German dictionary
// (assets/translations/de.json): the PDF says a recorded phrase, such as a
// flag's 6.9 verdict and its proof, in the same words as the console.
func germanPhrases() phrase.Dictionary { return assets.Dictionary("de") }

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
		return t.d.SayIn("report", p)
	}
	return t.s(text)
}
