// Package assets embeds the files Arbiter ships inside its binary: the
// application icon, the DejaVu Sans fonts (which carry the chess
// figurines ♔♕♖♗♘♙♚♛♜♝♞♟ used by the board, the scoresheet and the PDF report)
// and the translations of the console and the PDF.
package assets

import (
	"embed"
	"sync"

	"arbiter/internal/phrase"
)

// Icon is the application icon (512×512 PNG).
//
//go:embed icon.png
var Icon []byte

// DejaVuSans is the regular text face.
//
//go:embed fonts/DejaVuSans.ttf
var DejaVuSans []byte

// DejaVuSansBold is the bold text face.
//
//go:embed fonts/DejaVuSans-Bold.ttf
var DejaVuSansBold []byte

// Translations holds the texts of the console and the PDF report in English
// and German (translations/en.json, translations/de.json), keyed by the
// English text (or a refusal's code). Every face reads them as one
// [phrase.Dictionary] per language (Dictionary); the console also feeds
// them to Fyne's bundle, for the buttons of Fyne's own dialogs.
//
// [phrase.Dictionary]: https://pkg.go.dev/arbiter/internal/phrase#Dictionary
//
//go:embed translations/*.json
var Translations embed.FS

// Languages are the languages of the dictionaries.
var Languages = []string{"en", "de"}

var dictionaries = sync.OnceValue(func() map[string]phrase.Dictionary {
	ds := map[string]phrase.Dictionary{}
	for _, l := range Languages {
		d, err := phrase.LoadDictionary(Translations, "translations/"+l+".json")
		if err != nil {
			panic("assets: the embedded translations: " + err.Error())
		}
		ds[l] = d
	}
	return ds
})

// Dictionary is the dictionary of language lang ("en" or "de"; any other
// is English), read once for the process: the one the console, the PDF and
// the command line say their texts and the core's phrases with.
func Dictionary(lang string) phrase.Dictionary {
	if d, ok := dictionaries()[lang]; ok {
		return d
	}
	return dictionaries()["en"]
}
