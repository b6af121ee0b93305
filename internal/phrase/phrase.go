// Package phrase carries a sentence meant for a user as its English format
// and arguments rather than as finished text, so that a console can say it
// in the user's language.
//
// A refusal is made with [Errorf] (or wraps a [*Error]); [Error.Error] gives
// the English sentence, as before. [Translate] renders the same sentence
// through a dictionary that maps English formats and words to another
// language: the format is looked up whole, and every argument that is a
// word the dictionary knows (a colour, a piece, a state), or is itself a
// phrase, is translated too. What the dictionary does not know stays in
// English, so a missing entry degrades to the English sentence, never to a
// broken one.
//
// A phrase may carry a Code and its English format both (the clock's
// refusals): a dictionary gives the words for the code, and its Error() is
// the English.
//
// A phrase may instead carry a Code and no words of its own ([Coded]): the
// refusals whose words differ by face (the command line names its flags,
// the console its keys and menus). [Translate] then asks the dictionary for
// the code itself, so each face's table of words holds the format; a code
// the table does not know is shown as the code and its arguments, never as
// another face's words.
package phrase

import (
	"errors"
	"fmt"
	"strings"
)

// Error is a sentence for the user, kept as its format and arguments, or as
// a code whose format each face's dictionary gives.
type Error struct {
	Code   string
	Format string
	Args   []any
}

// Errorf makes a phrase error; its Error() is fmt.Sprintf(format, args...).
func Errorf(format string, args ...any) *Error { return &Error{Format: format, Args: args} }

// Coded makes a phrase without words: a dictionary gives the format for
// code. Its Error() is the code and the arguments ("no-game", "not-a-player:
// "Bob", "Ann", "Carl"").
func Coded(code string, args ...any) *Error { return &Error{Code: code, Args: args} }

func (e *Error) Error() string {
	if e.Code != "" && e.Format == "" {
		if len(e.Args) == 0 {
			return e.Code
		}
		parts := make([]string, len(e.Args))
		for i, a := range e.Args {
			parts[i] = fmt.Sprintf("%q", fmt.Sprint(a))
		}
		return e.Code + ": " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf(e.Format, e.Args...)
}

// Word is an argument that a dictionary may translate, such as "White" or
// "knight"; a plain string argument (a name, a move, a reason typed by the
// arbiter) is never translated.
type Word string

func (w Word) String() string { return string(w) }

// Move is a move in SAN, or a scoresheet's label of one ("13. Ne4"), as an
// argument: said with the piece letters the dictionary gives for "NBRQK"
// (German "SLTDK": "13. Se4"), as the faces write moves; its English is
// itself.
type Move string

func (m Move) String() string { return string(m) }

// said is m with the piece letters of tr.
func (m Move) said(tr func(string) string) string {
	letters := []rune(tr("NBRQK"))
	if len(letters) != 5 || string(letters) == "NBRQK" {
		return string(m)
	}
	return strings.NewReplacer("N", string(letters[0]), "B", string(letters[1]), "R", string(letters[2]),
		"Q", string(letters[3]), "K", string(letters[4])).Replace(string(m))
}

// Translate renders err in the language of tr, which returns the
// translation of an English format or word, or its argument unchanged when
// it has none. Without a phrase in err's chain it returns err.Error().
func Translate(err error, tr func(string) string) string {
	var p *Error
	if !errors.As(err, &p) {
		return err.Error()
	}
	return p.translate(tr)
}

func (e *Error) translate(tr func(string) string) string {
	args := make([]any, len(e.Args))
	for i, a := range e.Args {
		args[i] = translateArg(a, tr)
	}
	if e.Code != "" {
		format := tr(e.Code)
		if format == e.Code {
			if e.Format != "" {
				return fmt.Sprintf(tr(e.Format), args...) // its English, as a neutral phrase
			}
			return e.Error() // the dictionary has no words for it
		}
		return fmt.Sprintf(format, args...)
	}
	return fmt.Sprintf(tr(e.Format), args...)
}

func translateArg(a any, tr func(string) string) any {
	switch x := a.(type) {
	case *Error:
		return x.translate(tr)
	case error:
		var p *Error
		if errors.As(x, &p) {
			return p.translate(tr)
		}
		return x
	case Word:
		return Word(tr(string(x)))
	case Move:
		return x.said(tr)
	case interface{ Word() Word }:
		return Word(tr(string(x.Word())))
	}
	return a
}
