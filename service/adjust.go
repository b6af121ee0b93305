package service

import (
	"strings"

	"arbiter/internal/phrase"
	"arbiter/match"
)

// ParseAdjustment reads "+5m", "-1m30s" or "=1:59:30.5".
func ParseAdjustment(s string) (match.Adjustment, error) {
	var adj match.Adjustment
	switch {
	case strings.HasPrefix(s, "="):
		d, err := match.ParseClockReading(s[1:])
		if err != nil {
			return adj, err
		}
		adj.Set, adj.D = true, d
	case strings.HasPrefix(s, "+"), strings.HasPrefix(s, "-"):
		d, err := match.ParseDuration(s[1:])
		if err != nil {
			return adj, err
		}
		if s[0] == '-' {
			d = -d
		}
		adj.D = d
	default:
		return adj, phrase.Errorf("%q is not a correction: write +5m, -1m30s or =1:59:30", s)
	}
	return adj, nil
}
