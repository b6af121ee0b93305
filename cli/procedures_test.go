package cli

import (
	"strings"
	"testing"
	"time"
)

func TestParseCorrect(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		wantErr string
		ply     int
		white   time.Duration
		preview bool
	}{
		{"the ply and method are read", "--ply 61 --method record --reason r", "", 61, 0, false},
		{"set readings are read as H:MM:SS", "--ply 3 --method set --white 0:45:00 --black 1:10:00 --reason r", "", 3, 45 * time.Minute, false},
		{"preview needs no method", "--ply 5 --preview", "", 5, 0, true},
		{"the ply is required", "--method keep --reason r", "needs --ply", 0, 0, false},
		{"the ply counts from 1", "--ply 0 --method keep", "not a ply", 0, 0, false},
		{"a method is required without preview", "--ply 2 --reason r", "needs --method", 0, 0, false},
		{"a reading must be H:MM:SS", "--ply 2 --method set --white 45m", "not a clock reading", 0, 0, false},
		{"unknown flags are refused with the command's usage", "--ply 2 --method keep --colour red", "does not take --colour: usage: arbiter correct --ply N", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := parseArgs(strings.Fields(tt.line), boolFlags...)
			if err != nil {
				t.Fatal(err)
			}
			ca, preview, err := parseCorrect(a)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ca.Ply != tt.ply || ca.White != tt.white || preview != tt.preview {
				t.Errorf("got ply %d white %s preview %v", ca.Ply, ca.White, preview)
			}
		})
	}
}

func FuzzParseCorrect(f *testing.F) {
	for _, s := range []string{"--ply 61 --method record --reason r", "--ply 3 --method set --white 0:45:00 --black 1:10:00", "--ply=2 --preview", "--ply -1", "--white 99:59:59.999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, err := parseArgs(strings.Fields(line), boolFlags...)
		if err != nil {
			return
		}
		ca, _, err := parseCorrect(a)
		if err != nil {
			return
		}
		if ca.Ply < 1 || ca.White < 0 || ca.Black < 0 {
			t.Errorf("accepted %q as ply %d, white %s, black %s", line, ca.Ply, ca.White, ca.Black)
		}
	})
}
