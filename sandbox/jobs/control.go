package jobs

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
)

// ControlRoutes are the control-plane routes of jobs.
func (s *Service) ControlRoutes() []api.Route {
	return []api.Route{{Operation: "sandbox.jobs.fail-next", Method: http.MethodPost, Path: "/_sandbox/jobs/fail-next", Handler: s.failNext}}
}

// failNext arms a fault for the next job created (optionally in one
// e-shop): {"mode": "fail"} (default) makes it fail when it would
// complete, with job:finished; {"mode": "stall"} makes it hang until the
// automatic failure 3 hours after creation, without job:finished. "log"
// sets the job's log. An empty body is {"mode": "fail"}.
func (s *Service) failNext(r *api.Request) (any, error) {
	f := Fault{Mode: FaultFail}
	if len(bytes.TrimSpace(r.RawBody())) > 0 {
		body, err := r.Body()
		if err != nil {
			return nil, err
		}
		if v, ok := body["mode"].(string); ok && v != "" {
			f.Mode = v
		}
		if f.Mode != FaultFail && f.Mode != FaultStall {
			return nil, sandbox.Invalid("mode", "Field mode must be %q or %q, not %q.", FaultFail, FaultStall, f.Mode)
		}
		f.Log, _ = body["log"].(string)
		if v, ok := body["eshop"]; ok && v != nil {
			n, err := strconv.Atoi(toString(v))
			if err != nil || n < 1 {
				return nil, sandbox.Invalid("eshop", "Field eshop must be an e-shop id such as 1001.")
			}
			f.Eshop = n
		}
	}
	s.Arm(f)
	return &api.Result{Status: http.StatusAccepted, Data: map[string]any{"armed": f}}, nil
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case interface{ String() string }:
		return x.String()
	}
	return ""
}
