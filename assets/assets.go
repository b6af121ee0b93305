// Package assets embeds the files Arbiter ships inside its binary: the
// application icon, the DejaVu Sans fonts (which carry the chess
// figurines ♔♕♖♗♘♙♚♛♜♝♞♟ used by the board, the scoresheet and the PDF report)
// and the translations of the console and the PDF.
package assets

import (
	"embed"
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
// English text (or a refusal's code). The console loads both into Fyne's
// bundle; the PDF reads the German one as a [phrase.Dictionary] to say the
// reasons the record keeps as phrases (a flag's 6.9 verdict).
//
// [phrase.Dictionary]: https://pkg.go.dev/arbiter/internal/phrase#Dictionary
//
//go:embed translations/*.json
var Translations embed.FS
