package phrase

import (
	"encoding/json"
	"testing"
)

// A phrase stored as JSON reads back as the same sentence with the same
// words to translate.
func TestAStoredPhraseReadsBackAsTheSameSentence(t *testing.T) {
	inner := Errorf("%s has only the king", Word("White"))
	p := Errorf("%s's flag fell at %s with %d of the %d moves required completed: %s", Word("Black"), "20:01:00.000 UTC", 39, 40, inner)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back Error
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Error() != p.Error() {
		t.Errorf("read back %q, want %q", back.Error(), p.Error())
	}
	de := map[string]string{"White": "Weiß", "Black": "Schwarz", "%s has only the king": "%s hat nur noch den König"}
	tr := func(s string) string {
		if v, ok := de[s]; ok {
			return v
		}
		return s
	}
	if got, want := Translate(&back, tr), Translate(p, tr); got != want {
		t.Errorf("translated %q, want %q", got, want)
	}
	if err := json.Unmarshal([]byte(`{"format":"%s","args":[{}]}`), &back); err == nil {
		t.Error("an argument without a kind was read")
	}
}
