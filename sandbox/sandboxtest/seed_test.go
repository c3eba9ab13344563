package sandboxtest_test

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// requestIDs answers the request ids of three health calls.
func requestIDs(t *testing.T, cfg sandbox.Config) []string {
	s := sandboxtest.New(t, cfg)
	var ids []string
	for range 3 {
		r := s.Do(sandboxtest.Call{Path: "/_sandbox/health"})
		if r.Env.Metadata.RequestID == "" {
			t.Fatalf("no request id in %s", r.Body)
		}
		ids = append(ids, r.Env.Metadata.RequestID)
	}
	return ids
}

// TestZeroSeedGivesEachSandboxItsOwnIDs: Config.Seed 0 means random, so
// two sandboxes of one process log different request ids; a fixed seed
// reproduces them.
func TestZeroSeedGivesEachSandboxItsOwnIDs(t *testing.T) {
	a, b := requestIDs(t, sandbox.Config{}), requestIDs(t, sandbox.Config{})
	seen := map[string]bool{}
	for _, id := range a {
		seen[id] = true
	}
	for _, id := range b {
		if seen[id] {
			t.Errorf("two sandboxes with Config{} both gave request id %s (%v, %v)", id, a, b)
		}
	}
	c, d := requestIDs(t, sandbox.Config{Seed: 42}), requestIDs(t, sandbox.Config{Seed: 42})
	for i := range c {
		if c[i] != d[i] {
			t.Errorf("Seed 42 gave %v then %v; a fixed seed must reproduce the ids", c, d)
			break
		}
	}
}
