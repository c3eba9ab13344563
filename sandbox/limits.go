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
