package sandbox

import (
	"net/http"
	"testing"
	"time"
)

// TestRetryAfterDateRoundsUp: the date never names a moment before the
// wait the sandbox means, and a whole second stays as it is.
func TestRetryAfterDateRoundsUp(t *testing.T) {
	base := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		at   time.Time
		want string
	}{
		{"whole second", base, "Mon, 02 Jun 2025 09:00:00 GMT"},
		{"a nanosecond after", base.Add(time.Nanosecond), "Mon, 02 Jun 2025 09:00:01 GMT"},
		{"just before the next", base.Add(999 * time.Millisecond), "Mon, 02 Jun 2025 09:00:01 GMT"},
		{"other zone", base.Add(1500 * time.Millisecond).In(time.FixedZone("CEST", 2*3600)), "Mon, 02 Jun 2025 09:00:02 GMT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := RetryAfterDate(tc.at)
			if got != tc.want {
				t.Fatalf("RetryAfterDate(%v) = %q, want %q", tc.at, got, tc.want)
			}
			parsed, err := http.ParseTime(got)
			if err != nil {
				t.Fatal(err)
			}
			if parsed.Before(tc.at) {
				t.Fatalf("the date %v is earlier than the moment %v it stands for", parsed, tc.at)
			}
		})
	}
}
