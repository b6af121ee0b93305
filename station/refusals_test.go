package station

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"arbiter/internal/phrase"
)

func dictionary(t *testing.T, lang string) phrase.Dictionary {
	t.Helper()
	b, err := os.ReadFile("../assets/translations/" + lang + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var d phrase.Dictionary
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEveryStationRefusalHasItsWordsInBothDictionaries: the station's own
// refusals are codes (issue 25), worded by the shared dictionary — in
// English exactly as their Error(), in German with the same arguments.
func TestEveryStationRefusalHasItsWordsInBothDictionaries(t *testing.T) {
	en, de := dictionary(t, "en"), dictionary(t, "de")
	for _, c := range RefusalCodes() {
		t.Run(string(c), func(t *testing.T) {
			if en[string(c)] != RefusalEnglish(c) {
				t.Errorf("en.json says %q, the station %q", en[string(c)], RefusalEnglish(c))
			}
			w, ok := de[string(c)]
			if !ok {
				t.Fatal("de.json has no words for it")
			}
			if !reflect.DeepEqual(phrase.Verbs(w), phrase.Verbs(RefusalEnglish(c))) {
				t.Errorf("de.json's %q takes other arguments than %q", w, RefusalEnglish(c))
			}
		})
	}
}
