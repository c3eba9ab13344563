package robustness

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/hostile"
)

// TestHostileBodies sends every hostile input (an alias bomb, nesting
// past the JSON parser's limit, invalid UTF-8, a line of a megabyte) and
// a body over api.MaxBodyBytes, through a real socket, to control-plane
// writes and to API writes: each answers a 4xx envelope that names the
// body within a second, and the sandbox stays healthy.
func TestHostileBodies(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	if r := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/api/webhooks", PrivateToken: privateToken,
		Body: `{"data":[{"event":"job:finished","url":"` + s.URL + `/_sandbox/inbox/jobs"}]}`}); r.Status != http.StatusCreated {
		t.Fatalf("register job:finished: %d %s", r.Status, r.Body)
	}
	inputs := hostile.Inputs()
	inputs = append(inputs, hostile.Input{Name: "over the body limit", Data: hostile.LongLine(api.MaxBodyBytes + 1)})
	targets := []sandboxtest.Call{
		{Method: http.MethodPost, Path: "/_sandbox/clock"},
		{Method: http.MethodPost, Path: "/_sandbox/events"},
		{Method: http.MethodPost, Path: "/api/brands", PrivateToken: privateToken},
		{Method: http.MethodPatch, Path: "/api/products/batch", PrivateToken: privateToken},
	}
	for _, target := range targets {
		for _, in := range inputs {
			t.Run(target.Path+"/"+in.Name, func(t *testing.T) {
				call := target
				call.Body = in.Data
				r := s.Do(call)
				if r.Status < 400 || r.Status >= 500 || len(r.Env.Errors) == 0 {
					t.Fatalf("%d %s", r.Status, truncated(r.Body))
				}
				want := http.StatusUnprocessableEntity
				if len(in.Data) > api.MaxBodyBytes {
					want = http.StatusRequestEntityTooLarge
				}
				if r.Status != want {
					t.Errorf("status %d, want %d: %s", r.Status, want, truncated(r.Body))
				}
			})
		}
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/health"}); r.Status != http.StatusOK {
		t.Fatalf("health after the hostile bodies: %d", r.Status)
	}
}

func truncated(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// TestHostileBatchFile: a batch file whose lines are the hostile inputs
// ends its job within a second of the clock moving past it, every line
// skipped and named in the log, nothing written.
func TestHostileBatchFile(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	if r := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/api/webhooks", PrivateToken: privateToken,
		Body: `{"data":[{"event":"job:finished","url":"` + s.URL + `/_sandbox/inbox/jobs"}]}`}); r.Status != http.StatusCreated {
		t.Fatalf("register job:finished: %d %s", r.Status, r.Body)
	}
	var file []byte
	for _, in := range hostile.Inputs() {
		file = append(append(file, in.Data...), '\n')
	}
	url := "data:application/x-ndjson;base64," + base64.StdEncoding.EncodeToString(file)
	r := s.Do(sandboxtest.Call{Method: http.MethodPatch, Path: "/api/products/batch", PrivateToken: privateToken,
		Body: map[string]any{"batchFileUrlPath": url}})
	if r.Status != http.StatusAccepted {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	var d struct{ JobID string }
	r.Data(t, &d)
	if m := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/_sandbox/clock", Body: `{"advance":"10s"}`}); m.Status != http.StatusOK {
		t.Fatalf("clock: %d %s", m.Status, m.Body)
	}
	deadline := time.Now().Add(time.Second)
	for {
		var j struct {
			Job struct {
				Status string
				Log    *string
			}
		}
		s.Do(sandboxtest.Call{Path: "/api/system/jobs/" + d.JobID, PrivateToken: privateToken}).Data(t, &j)
		if j.Job.Status == "failed" && j.Job.Log != nil {
			if !strings.Contains(*j.Job.Log, "0 records changed") || !strings.Contains(*j.Job.Log, "Line 1:") {
				t.Fatalf("log %q", *j.Job.Log)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s after a second", j.Job.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
