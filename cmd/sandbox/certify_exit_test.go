package main

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/tools/certify"
)

// TestCertifyExit: a failed check fails the command; a check not
// exercised (INCOMPLETE) fails it only with --require-all, naming the
// checks; a certified run never fails.
func TestCertifyExit(t *testing.T) {
	rep := func(vs ...certify.Verdict) *certify.Report {
		r := &certify.Report{}
		for i, v := range vs {
			r.Checks = append(r.Checks, certify.Result{ID: []string{"install-handshake", "concurrency", "job-finished"}[i], Verdict: v})
		}
		return r
	}
	for _, c := range []struct {
		name       string
		rep        *certify.Report
		requireAll bool
		want       string // "" for exit 0
	}{
		{"certified", rep(certify.Passed, certify.Passed, certify.Observed), false, ""},
		{"certified, --require-all", rep(certify.Passed, certify.Passed, certify.Observed), true, ""},
		{"incomplete", rep(certify.Passed, certify.NotExercised, certify.NotExercised), false, ""},
		{"incomplete, --require-all", rep(certify.Passed, certify.NotExercised, certify.NotExercised), true, "--require-all: 2 check(s) not exercised: concurrency, job-finished"},
		{"failed", rep(certify.Failed, certify.NotExercised, certify.Passed), false, "1 check(s) failed"},
		{"failed, --require-all", rep(certify.Failed, certify.NotExercised, certify.Passed), true, "1 check(s) failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := certifyExit(c.rep, c.requireAll)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("exit 1 (%v), want 0", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}
