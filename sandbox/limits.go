package sandbox

import "time"

// Limits are the spec's limits, on by default. Each can be changed; the
// whole set is switched off with `sandbox up --limits off` for load tests.
type Limits struct {
	Off              bool          // no limit applies (headers are still sent)
	PerIP            int           // concurrent active connections per client IP (spec: 50)
	PerToken         int           // concurrent active connections per token (spec: 3)
	BucketCapacity   int           // leaky bucket size per token (or per IP without a token)
	BucketLeak       time.Duration // one request leaks out of the bucket every BucketLeak
	WriteLockTimeout time.Duration // identical write requests lock their URL at most this long (spec: 5 s)
}

// DefaultLimits are the spec's values; the bucket's capacity and leak
// rate, which the spec does not give, are the sandbox's choice.
func DefaultLimits() Limits {
	return Limits{
		PerIP:            50,
		PerToken:         3,
		BucketCapacity:   100,
		BucketLeak:       250 * time.Millisecond, // 4 requests per second drain
		WriteLockTimeout: 5 * time.Second,
	}
}

// RetryAfterDate formats the Retry-After header of an answer that asks
// the client to wait until t. Retry-After is an HTTP date, which has whole
// seconds: the date is rounded up, never down, so a client that waits
// until the date it was given is never early, and a scripted wait of 1 s
// never reads as "retry now".
func RetryAfterDate(t time.Time) string {
	return CeilSecond(t).UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
}

// CeilSecond rounds t up to the next whole second (t itself when it is
// one): the moment a Retry-After date names for t.
func CeilSecond(t time.Time) time.Time {
	if s := t.Truncate(time.Second); s.Before(t) {
		return s.Add(time.Second)
	}
	return t
}
