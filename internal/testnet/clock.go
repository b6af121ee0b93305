package testnet

import (
	"sync"
	"time"
)

// Clock is a time source that moves only when a test moves it, safe to
// read from a station's goroutines and a face's at once.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's instant.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
