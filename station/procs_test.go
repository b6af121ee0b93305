package station

import (
	"os"
	"runtime"
	"testing"
)

func TestAStationsProcessRunsWithTwiceTheDefaultPs(t *testing.T) {
	for _, c := range []struct {
		name  string
		procs int
		env   string
		want  int
	}{
		{"one core: two Ps, so that a sync in flight leaves one to run", 1, "", 2},
		{"two cores: four Ps", 2, "", 4},
		{"eight cores: sixteen Ps", 8, "", 16},
		{"GOMAXPROCS set in the environment is kept", 2, "2", 2},
		{"GOMAXPROCS set in the environment is kept when it is many", 32, "32", 32},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := stationProcs(c.procs, c.env); got != c.want {
				t.Fatalf("stationProcs(%d, %q) = %d, want %d", c.procs, c.env, got, c.want)
			}
		})
	}
	t.Run("once a station started its process runs that many Ps", func(t *testing.T) {
		startFirst(t, t.TempDir())
		want := stationProcs(defaultProcs, os.Getenv("GOMAXPROCS"))
		if got := runtime.GOMAXPROCS(0); got != want {
			t.Fatalf("the process runs %d Ps after a station started (default %d, GOMAXPROCS=%q), want %d", got, defaultProcs, os.Getenv("GOMAXPROCS"), want)
		}
	})
}
