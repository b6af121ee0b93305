//go:build !nostation

package service

import "testing"

func TestALaptopCountsEachRecordHolderItDialsOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		dial []string
		want int
	}{
		{"none", nil, 0},
		{"one holder", []string{"nats://10.0.0.2:4222"}, 1},
		{"two holders", []string{"nats://10.0.0.2:4222", "nats://10.0.0.3:4222"}, 2},
		{"the same address under two schemes is one holder", []string{"nats://10.0.0.2:4222", "tls://10.0.0.2:4222"}, 1},
		{"localhost and 127.0.0.1 on one port are one holder", []string{"nats://localhost:4222", "tls://127.0.0.1:4222"}, 1},
		{"the IPv6 loopback is the same machine", []string{"nats://[::1]:4222", "nats://LOCALHOST:4222"}, 1},
		{"two ports of this machine are two holders", []string{"nats://localhost:4222", "nats://127.0.0.1:4223"}, 2},
		{"a host name differs from an address", []string{"nats://arbiter.local:4222", "nats://10.0.0.2:4222"}, 2},
		{"an unreadable URL is not a holder", []string{"nats://%zz", "10.0.0.2:4222"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := dialledHolders(tc.dial); got != tc.want {
				t.Errorf("dialledHolders(%q) = %d, want %d", tc.dial, got, tc.want)
			}
		})
	}
}
