package quietlocale

import "testing"

func TestIsPOSIX(t *testing.T) {
	for v, want := range map[string]bool{"C": true, "C.UTF-8": true, "POSIX": true, "de_DE.UTF-8": false, "en_US.UTF-8": false, "Ca": false} {
		if got := IsPOSIX(v); got != want {
			t.Errorf("IsPOSIX(%q) = %v, want %v", v, got, want)
		}
	}
}
