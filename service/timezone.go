package service

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MachineZone is the IANA name of this machine's time zone, the default of
// "match new --tz" and of the console's new match: $TZ when it names a zone, else /etc/timezone, else the
// target of the /etc/localtime link. "" (UTC) when none of them names a zone
// this build knows.
func MachineZone(getenv func(string) string) string {
	var cands []string
	if tz := strings.TrimPrefix(getenv("TZ"), ":"); tz != "" {
		cands = append(cands, tz)
	}
	if b, err := os.ReadFile("/etc/timezone"); err == nil {
		cands = append(cands, strings.TrimSpace(string(b)))
	}
	if l, err := os.Readlink("/etc/localtime"); err == nil {
		if _, after, ok := strings.Cut(filepath.ToSlash(l), "zoneinfo/"); ok {
			cands = append(cands, after)
		}
	}
	for _, c := range cands {
		if c == "" || strings.HasPrefix(c, "/") || strings.EqualFold(c, "local") {
			continue
		}
		if _, err := time.LoadLocation(c); err == nil {
			return c
		}
	}
	return ""
}
