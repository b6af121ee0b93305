package match

import (
	"encoding/json"
	"errors"
	"testing"

	"arbiter/internal/phrase"
)

// A refusal given at the authority reads back at the station where the
// command was given with its code, its arguments and whether it is a
// permission refusal, so that face says it in its own words.
func TestARefusalCarriedToAnotherStationReadsBackAsTheSameRefusal(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"a refusal each face words itself keeps its code and arguments", refuseAs(CodePressedBeforeMove, colour(0), "e4")},
		{"a neutral refusal keeps its sentence", refuse("%s is in check", phrase.Word("White"))},
		{"a permission refusal still wraps ErrPermission", forbid("the operator acts only for the computer (%s), not for %s: %s refused", "Deep Blue", "Kasparov", phrase.Word("move"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.err)
			if err != nil {
				t.Fatal(err)
			}
			var back Error
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			var orig *Error
			errors.As(tc.err, &orig)
			if back.Code != orig.Code || back.Error() != orig.Error() {
				t.Errorf("read back %q (%s), want %q (%s)", back.Error(), back.Code, orig.Error(), orig.Code)
			}
			if errors.Is(&back, ErrPermission) != errors.Is(tc.err, ErrPermission) {
				t.Errorf("ErrPermission: read back %v, want %v", errors.Is(&back, ErrPermission), errors.Is(tc.err, ErrPermission))
			}
			if phrase.Translate(&back, func(s string) string { return s }) != phrase.Translate(tc.err, func(s string) string { return s }) {
				t.Errorf("the words differ")
			}
		})
	}
}
