package clock

import (
	"fmt"
	"strings"
)

// Other returns the opponent's side.
func (s Side) Other() Side { return s ^ 1 }

// String returns "white" or "black".
func (s Side) String() string {
	switch s {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

// name is the capitalised form used at the start of a clause in error messages.
func (s Side) name() string {
	switch s {
	case White:
		return "White"
	case Black:
		return "Black"
	}
	return s.String()
}

func (s Side) valid() bool { return s == White || s == Black }

// ParseSide accepts "white", "w", "black" or "b" in any letter case,
// ignoring surrounding spaces.
func ParseSide(s string) (Side, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "white", "w":
		return White, nil
	case "black", "b":
		return Black, nil
	}
	return 0, refuse(CodeNotASide, s)
}

// String returns "none", "fischer", "bronstein" or "simple delay".
func (m Method) String() string {
	switch m {
	case MethodNone:
		return "none"
	case Fischer:
		return "fischer"
	case Bronstein:
		return "bronstein"
	case SimpleDelay:
		return "simple delay"
	}
	return fmt.Sprintf("Method(%d)", uint8(m))
}

// isDelay reports whether m is one of the two delay methods.
func (m Method) isDelay() bool { return m == Bronstein || m == SimpleDelay }

// MarshalText writes "white" or "black" (a command's side on the wire).
func (s Side) MarshalText() ([]byte, error) {
	if !s.valid() {
		return nil, refuse(CodeNotASideText, s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads exactly "white" or "black", the canonical form
// MarshalText writes.
func (s *Side) UnmarshalText(b []byte) error {
	switch string(b) {
	case "white":
		*s = White
	case "black":
		*s = Black
	default:
		return refuse(CodeNotASideJSON, b)
	}
	return nil
}
