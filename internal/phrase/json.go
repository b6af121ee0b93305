package phrase

import (
	"encoding/json"
	"errors"
	"fmt"
)

// A phrase is stored (in an event of the record) as its format and its
// arguments, each tagged with its kind, so that a console can say a sentence
// recorded in English in its own language long after it was made:
//
//	{"format":"%s has only the king","args":[{"w":"White"}]}
//
// "s" is a plain string, "w" a Word, "i" an integer, "p" a phrase. Any
// other argument is stored as the string fmt.Sprint gives.
type jsonPhrase struct {
	Code   string    `json:"code,omitempty"` // a coded phrase (Coded): the faces' words
	Format string    `json:"format"`
	Args   []jsonArg `json:"args,omitempty"`
}

type jsonArg struct {
	S *string `json:"s,omitempty"`
	W *string `json:"w,omitempty"`
	I *int64  `json:"i,omitempty"`
	P *Error  `json:"p,omitempty"`
}

// MarshalJSON stores the phrase as its format and tagged arguments.
func (e *Error) MarshalJSON() ([]byte, error) {
	j := jsonPhrase{Code: e.Code, Format: e.Format}
	for _, a := range e.Args {
		var ja jsonArg
		switch x := a.(type) {
		case *Error:
			ja.P = x
		case Word:
			s := string(x)
			ja.W = &s
		case interface{ Word() Word }:
			s := string(x.Word())
			ja.W = &s
		case string:
			ja.S = &x
		case int:
			n := int64(x)
			ja.I = &n
		case int64:
			ja.I = &x
		case error:
			var p *Error
			if errors.As(x, &p) {
				ja.P = p
			} else {
				s := x.Error()
				ja.S = &s
			}
		default:
			s := fmt.Sprint(a)
			ja.S = &s
		}
		j.Args = append(j.Args, ja)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a phrase stored by MarshalJSON.
func (e *Error) UnmarshalJSON(b []byte) error {
	var j jsonPhrase
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	e.Code, e.Format, e.Args = j.Code, j.Format, nil
	for _, a := range j.Args {
		switch {
		case a.P != nil:
			e.Args = append(e.Args, a.P)
		case a.W != nil:
			e.Args = append(e.Args, Word(*a.W))
		case a.I != nil:
			e.Args = append(e.Args, int(*a.I))
		case a.S != nil:
			e.Args = append(e.Args, *a.S)
		default:
			return fmt.Errorf("a stored phrase's argument has no kind (s, w, i or p): %s", b)
		}
	}
	return nil
}
