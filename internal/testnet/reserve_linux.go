package testnet

import (
	"fmt"
	"syscall"
	"testing"
)

// reserve binds a socket to 127.0.0.1:port (0: a port the kernel finds
// free) without listening, and closes it when the test ends. It binds
// before it sets SO_REUSEADDR, so the bind fails on a port anything holds,
// another reservation's included; set afterwards, SO_REUSEADDR lets a
// listener bind the port while the reservation holds it, and keeps every
// bind on :0 and every outgoing connection off it.
func reserve(t testing.TB, port int) (int, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		syscall.Close(fd)
		return 0, err
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		syscall.Close(fd)
		return 0, err
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		syscall.Close(fd)
		return 0, err
	}
	in, ok := sa.(*syscall.SockaddrInet4)
	if !ok {
		syscall.Close(fd)
		return 0, fmt.Errorf("bound to %v, not an IPv4 address", sa)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	return in.Port, nil
}
