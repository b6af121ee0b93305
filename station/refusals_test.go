package station

import (
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
)

// TestEveryStationRefusalHasItsWordsInBothDictionaries: the station's own
// refusals are codes (issue 25), worded by the shared dictionary — in
// English exactly as their Error(), in German with the same arguments.
func TestEveryStationRefusalHasItsWordsInBothDictionaries(t *testing.T) {
	phrase.CheckTable(t, assets.Dictionary("en"), assets.Dictionary("de"), english)
}
