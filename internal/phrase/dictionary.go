package phrase

import (
	"encoding/json"
	"fmt"
	"io/fs"
)

// Dictionary maps English formats and words to another language: the
// console's translation files (assets/translations/LANG.json) read without
// Fyne, so that a package such as report can say a recorded phrase in the
// same words as the console.
type Dictionary map[string]string

// LoadDictionary reads the JSON object name of fsys (keys: the English
// texts, values: their translations).
func LoadDictionary(fsys fs.FS, name string) (Dictionary, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var d Dictionary
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("phrase: %s: %w", name, err)
	}
	return d, nil
}

// T is the translation of en, or en itself when the dictionary has none.
func (d Dictionary) T(en string) string {
	if v, ok := d[en]; ok {
		return v
	}
	return en
}

// In is the translation of en in a context (gettext's msgctxt): the entry
// "context|en" where a face words en its own way there (the PDF's "Reason"
// is "Begründung", the console's "Grund"), else T(en).
func (d Dictionary) In(context, en string) string {
	if v, ok := d[context+"|"+en]; ok {
		return v
	}
	return d.T(en)
}

// Say renders err in the dictionary's language (see [Translate]).
func (d Dictionary) Say(err error) string { return Translate(err, d.T) }

// SayIn renders err in the dictionary's language with a face's own words in
// a context (see [Dictionary.In]).
func (d Dictionary) SayIn(context string, err error) string {
	return Translate(err, func(en string) string { return d.In(context, en) })
}
