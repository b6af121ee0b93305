package phrase

import "slices"

// Table is a package's refusals (issue 25): each code with its English
// format, the words its Error() says and the shared English dictionary
// holds under the code. Packages that refuse (clock, service, station)
// keep one and check it with CheckTable.
type Table[C ~string] map[C]string

// Codes lists the table's codes.
func (t Table[C]) Codes() []C {
	cs := make([]C, 0, len(t))
	for c := range t {
		cs = append(cs, c)
	}
	return cs
}

// Refuse is the refusal code with its arguments; its Error() is the
// table's English.
func (t Table[C]) Refuse(code C, args ...any) *Error {
	return &Error{Code: string(code), Format: t[code], Args: args}
}

// CodeIn is the code of the first of the table's refusals in err's chain
// (every error it wraps, depth first), "" if there is none.
func (t Table[C]) CodeIn(err error) C {
	if p, ok := err.(*Error); ok {
		if _, ours := t[C(p.Code)]; ours {
			return C(p.Code)
		}
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return t.CodeIn(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if c := t.CodeIn(e); c != "" {
				return c
			}
		}
	}
	return ""
}

// CheckTable is the one check of a package's refusals against the shared
// dictionaries: en words each code exactly as the table's English (its
// Error()), de with the same printf verbs in the same order.
func CheckTable[C ~string](t TB, en, de Dictionary, table Table[C]) {
	t.Helper()
	for code, english := range table {
		if en[string(code)] != english {
			t.Errorf("%s: en.json says %q, the package %q", code, en[string(code)], english)
		}
		w, ok := de[string(code)]
		if !ok {
			t.Errorf("%s: de.json has no words for it", code)
			continue
		}
		if !slices.Equal(Verbs(w), Verbs(english)) {
			t.Errorf("%s: de.json's %q takes other arguments than %q", code, w, english)
		}
	}
}
