package api

import (
	"net/http"
	"testing"
	"time"
)

// TestDateCache: the cached Date is the time's own HTTP date, second by
// second, whether the clock moves on, stands still or jumps back.
func TestDateCache(t *testing.T) {
	var d dateCache
	base := time.Date(2025, 6, 2, 9, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	for _, at := range []time.Time{base, base.Add(300 * time.Millisecond), base.Add(time.Second), base.Add(7 * 24 * time.Hour), base, base.Add(-time.Hour)} {
		if got, want := d.format(at), at.UTC().Format(http.TimeFormat); got != want {
			t.Errorf("%v: %q, want %q", at, got, want)
		}
	}
}
