package phrase

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is err as the one sentence a user reads, in the words of tr (a
// dictionary's T, or the identity for no table): the phrase in err's chain
// — a refusal's code and its arguments, or a neutral English format — is
// said with tr ([Translate]); any other error is its text. The sentence
// ends with a full stop and begins with a capital letter, unless it begins
// with a number or a move ("31. Nf3 …") or with a file name ("nul.txt is a
// device"), which keep their case.
func Sentence(err error, tr func(string) string) string {
	msg := strings.TrimSpace(Translate(err, tr))
	if msg == "" {
		return tr("unknown error.")
	}
	if !endsASentence(msg) {
		msg += "."
	}
	first, _, _ := strings.Cut(msg, " ")
	if strings.ContainsAny(first, "0123456789") || looksLikeFile(first) {
		return msg
	}
	return CapitalFirst(msg)
}

// endsASentence reports whether msg ends with its own full stop or question
// mark, inside a closing parenthesis or quote too ("… (see above.)"); a
// sentence that ends with a parenthesis of its own words ("… (1996-02-10T20:00:00Z)")
// takes its full stop after it, on every face.
func endsASentence(msg string) bool {
	msg = strings.TrimRight(msg, ")\"'»“”")
	return strings.HasSuffix(msg, ".") || strings.HasSuffix(msg, "?") || strings.HasSuffix(msg, "!")
}

// Sentence is err as one sentence in the dictionary's words (see
// [Sentence]).
func (d Dictionary) Sentence(err error) string { return Sentence(err, d.T) }

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

// CapitalFirst begins a sentence with a capital letter (a phrase said on its
// own, not inside another sentence).
func CapitalFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
