package match

import (
	"encoding/json"

	"arbiter/internal/phrase"
)

// A refusal travels from the authority to the station where the command
// was given (docs/stations.md) as its code, whether it is a permission
// refusal, and its phrase, so that the face there says it in its own
// words.
type errorJSON struct {
	Code   Code          `json:"code"`
	Perm   bool          `json:"perm,omitempty"`
	Phrase *phrase.Error `json:"phrase"`
}

// MarshalJSON writes the refusal for another station.
func (e *Error) MarshalJSON() ([]byte, error) {
	return json.Marshal(errorJSON{Code: e.Code, Perm: e.perm, Phrase: e.phrase})
}

// UnmarshalJSON reads a refusal written by MarshalJSON.
func (e *Error) UnmarshalJSON(b []byte) error {
	var j errorJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	if j.Phrase == nil {
		j.Phrase = phrase.Errorf("%s", string(j.Code))
	}
	e.Code, e.perm, e.phrase = j.Code, j.Perm, j.Phrase
	return nil
}
