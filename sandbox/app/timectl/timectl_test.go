package timectl

import (
	"testing"
	"time"
)

// TestParseDuration reads Go durations plus whole days.
func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"3h":     3 * time.Hour,
		"90s":    90 * time.Second,
		"1h30m":  90 * time.Minute,
		"7d":     7 * 24 * time.Hour,
		"1d12h":  36 * time.Hour,
		" 2d ":   48 * time.Hour,
		"-1d2h":  -26 * time.Hour,
		"-30m":   -30 * time.Minute,
		"0s":     0,
		"10ms":   10 * time.Millisecond,
		"1d0s":   24 * time.Hour,
		"365d1s": 365*24*time.Hour + time.Second,
	} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("%q: got %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "3", "d", "1dd", "3 hours", "1d-2h"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
