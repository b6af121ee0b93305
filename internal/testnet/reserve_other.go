//go:build !linux

package testnet

import (
	"fmt"
	"net"
	"testing"
)

// reserve finds port free (0: any) by listening on it and lets it go: the
// reservation of reserve_linux.go relies on Linux's SO_REUSEADDR, which
// other systems define otherwise, so here a port may still be taken before
// the station binds it.
func reserve(t testing.TB, port int) (int, error) {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
