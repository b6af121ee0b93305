// Package testnet gives tests that start stations on 127.0.0.1 the
// addresses they listen on (docs/stations.md: a station's --listen
// HOST:PORT takes PORT for routes and PORT+1 for clients).
package testnet

import (
	"fmt"
	"net"
	"testing"
)

// FreePortPair finds PORT with PORT and PORT+1 free on 127.0.0.1.
func FreePortPair(t testing.TB) int {
	t.Helper()
	for i := 0; i < 50; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l2, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p+1))
		l.Close()
		if err == nil {
			l2.Close()
			return p
		}
	}
	t.Fatal("no two consecutive free ports")
	return 0
}

// Listen is a --listen address on 127.0.0.1 whose PORT and PORT+1 are free.
func Listen(t testing.TB) string { return fmt.Sprintf("127.0.0.1:%d", FreePortPair(t)) }
