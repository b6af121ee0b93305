package gui

import "embed"

// translations holds the console's texts in English and German
// (translations/en.json, translations/de.json), keyed by the English text.
//
//go:embed translations/*.json
var translations embed.FS
