// Package testnet gives tests that start stations on 127.0.0.1 the
// addresses they listen on (docs/stations.md: a station's --listen
// HOST:PORT takes PORT for routes and PORT+1 for clients).
//
// A port found free and let go (listen on :0, close, hand the number on)
// may be taken by anything on the machine before the station binds it:
// another test's listener on :0, or an outgoing connection's local port.
// A record holder whose route port was taken never joins its cluster, and
// the cluster's stream then finds no peers to place on. So on Linux every
// port handed out here stays reserved until the test ends: a socket bound
// to it and never listening, with SO_REUSEADDR set after its bind. The
// kernel then gives the port to no other bind on :0, to no outgoing
// connection and to no other reservation, while a listener that names it
// (Go's net.Listen sets SO_REUSEADDR, as the station's engine does) binds
// it, as often as a test stops and restarts a station on it.
package testnet

import (
	"fmt"
	"testing"
)

// Port is a port on 127.0.0.1 that is free and, on Linux, reserved for
// the test until it ends (see the package's comment).
func Port(t testing.TB) int {
	t.Helper()
	p, err := reserve(t, 0)
	if err != nil {
		t.Fatalf("no free port on 127.0.0.1: %v", err)
	}
	return p
}

// FreePortPair finds PORT with PORT and PORT+1 free on 127.0.0.1, both
// reserved for the test as Port's.
func FreePortPair(t testing.TB) int {
	t.Helper()
	for i := 0; i < 50; i++ {
		p, err := reserve(t, 0)
		if err != nil {
			t.Fatalf("no free port on 127.0.0.1: %v", err)
		}
		if _, err := reserve(t, p+1); err == nil {
			return p
		}
	}
	t.Fatal("no two consecutive free ports")
	return 0
}

// Listen is a --listen address on 127.0.0.1 whose PORT and PORT+1 are free.
func Listen(t testing.TB) string { return fmt.Sprintf("127.0.0.1:%d", FreePortPair(t)) }
