package service

import (
	"errors"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// Sentence turns an error into the one clear sentence shown to users, with
// no face's table of words: a refusal that each face words itself is then
// its code and arguments (a log line). The faces say it with their
// dictionary: dictionary.Sentence(service.Coded(err)) (docs/errors.md).
func Sentence(err error) string {
	return phrase.Sentence(Coded(err), func(s string) string { return s })
}

// Coded gives a failure of the database file (store.ErrDiskFull, …) its
// code (codes.go), for a face's dictionary to say what the user can do
// about it; a refusal of the core, and any other error, is returned as it
// is.
func Coded(err error) error {
	if err == nil {
		return nil
	}
	var me *match.Error
	if errors.As(err, &me) {
		return err
	}
	if store.ErrorCode(err) == store.CodeFileSizeLimit {
		// said by the store's own code, which names the limit (it still
		// wraps ErrDiskFull for errors.Is, which would say only a full disk)
		return err
	}
	for _, f := range fileFailures {
		if errors.Is(err, f.err) {
			return coded{err, phrase.Coded(string(f.code))}
		}
	}
	return err
}

// coded is a failure of the file with its code: said by the code, and
// still the store's error for errors.Is.
type coded struct {
	err    error
	phrase *phrase.Error
}

func (c coded) Error() string   { return c.err.Error() }
func (c coded) Unwrap() []error { return []error{c.phrase, c.err} }
