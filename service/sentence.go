package service

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// Sentence turns an error into the one clear sentence shown to users, with
// no face's table of words: a refusal that each face words itself is then
// its code and arguments. The faces call SentenceIn with their tables.
func Sentence(err error) string { return SentenceIn(err, func(s string) string { return s }) }

// SentenceIn is Sentence in the words of a face: tr gives the face's
// format for a refusal's code (match.Code) and translates an English format
// or word (see package phrase), and returns what it does not know
// unchanged. Refusals of the match and the move parser are said in those
// words; other errors stay in English.
func SentenceIn(err error, tr func(string) string) string {
	msg := err.Error()
	var me *match.Error
	var ph *phrase.Error
	if errors.As(err, &me) {
		msg = phrase.Translate(me, tr)
	} else if errors.As(err, &ph) {
		msg = phrase.Translate(err, tr)
	}
	// Failures of the database file are told by what the user can do.
	for _, known := range []error{store.ErrDiskFull, store.ErrReadOnly, store.ErrForeign, store.ErrNewerSchema, store.ErrCorrupt, store.ErrEmpty, store.ErrExists} {
		if errors.Is(err, known) && me == nil {
			msg = tr(known.Error())
			if code, ok := storeCodes[known]; ok && tr(string(code)) != string(code) {
				msg = tr(string(code))
			}
			break
		}
	}
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return tr("unknown error.")
	}
	if !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "?") && !strings.HasSuffix(msg, ")") {
		msg += "."
	}
	if first, _, _ := strings.Cut(msg, " "); strings.ContainsAny(first, "0123456789") {
		return msg // starts with a move or a number: keep it as written
	}
	if first, _, _ := strings.Cut(msg, " "); looksLikeFile(first) {
		return msg // starts with a file name: keep its case ("nul.txt", not "Nul.txt")
	}
	r, n := utf8.DecodeRuneInString(msg)
	return string(unicode.ToUpper(r)) + msg[n:]
}

// storeCodes are the failures of the file each face words itself.
var storeCodes = map[error]match.Code{store.ErrForeign: CodeNotADatabase, store.ErrCorrupt: CodeDamagedRecord}

// looksLikeFile reports whether the first word of a sentence is a file name
// or path rather than an English word: it holds a path separator, or a dot
// that is not its last character ("match.db", "./m", "C:\\m"; not "e.").
func looksLikeFile(word string) bool {
	word = strings.TrimRight(word, ":,;")
	if strings.ContainsAny(word, "/\\") {
		return true
	}
	i := strings.IndexByte(word, '.')
	return i >= 0 && i < len(word)-1
}
