package jobs

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// ControlPath lists every e-shop's jobs on the control plane.
const ControlPath = "/_sandbox/jobs"

// ControlRoutes are the control-plane routes of jobs.
func (s *Service) ControlRoutes() []api.Route {
	return []api.Route{
		{Operation: "sandbox.jobs", Method: http.MethodGet, Path: ControlPath, Handler: s.controlList, Answer: map[string]any{"jobs": api.Doc([]ControlItem{}, "The jobs, oldest first.")},
			Summary: "Every e-shop's asynchronous jobs, oldest first: state, next transition on the sandbox clock, result, log, armed fault (filters: eshop, status)"},
		{Operation: "sandbox.jobs.fail-next", Method: http.MethodPost, Path: ControlPath + "/fail-next", Handler: s.failNext, Answer: map[string]any{"armed": api.Doc(Fault{}, "The fault armed for the next job.")}, Body: FailNextBody{}},
	}
}

// ControlItem is a job as GET /_sandbox/jobs lists it: the reference's
// record plus what only the sandbox knows, so the terminal UI and a
// person with curl can follow every e-shop's jobs without a token.
type ControlItem struct {
	EshopID   int    `json:"eshopId"`   // the e-shop the job belongs to
	Operation string `json:"operation"` // the operation that started it
	View
	// NextDue is when the job's next transition is due (sandbox clock);
	// null once it is settled.
	NextDue *string `json:"nextDue"`
	// Fault is a fault armed with POST /_sandbox/jobs/fail-next that
	// this job carries (fail, stall).
	Fault string `json:"fault,omitempty"`
}

// controlList serves GET /_sandbox/jobs after applying the transitions
// due, like the API's job endpoints.
func (s *Service) controlList(r *api.Request) (any, error) {
	shop := 0
	if v := r.Query("eshop"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "eshop", "Query parameter eshop must be an e-shop id such as 1001, not %q.", v)
		}
		shop = n
	}
	status := r.Query("status")
	switch status {
	case "", Pending, Running, Completed, Failed, Killed:
	default:
		return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "status",
			"Query parameter status must be one of pending, running, completed, failed, killed, not %q.", status)
	}
	s.Settle()
	var list []Job
	err := s.Store.View(func(tx *store.Tx) error {
		metas, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range metas {
			if shop != 0 && m.ID != shop {
				continue
			}
			err := tx.Scan(m.ID, Collection, func(_ string, doc []byte) bool {
				var j Job
				if json.Unmarshal(doc, &j) == nil && (status == "" || j.Status == status) {
					list = append(list, j)
				}
				return true
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(list, func(i, k int) bool { return list[i].Created.Before(list[k].Created) })
	items := make([]ControlItem, len(list))
	for i := range list {
		j := &list[i]
		items[i] = ControlItem{EshopID: j.EshopID, Operation: j.Operation, View: j.View(), Fault: j.Fault}
		if d := j.NextDue(); !d.IsZero() {
			items[i].NextDue = timePtr(&d)
		}
	}
	return map[string]any{"jobs": items}, nil
}

// failNext arms a fault for the next job created (optionally in one
// e-shop): {"mode": "fail"} (default) makes it fail when it would
// complete, with job:finished; {"mode": "stall"} makes it hang until the
// automatic failure 3 hours after creation, without job:finished. "log"
// sets the job's log. An empty body is {"mode": "fail"}.
// FailNextBody is the body of POST /_sandbox/jobs/fail-next (optional).
type FailNextBody struct {
	Mode  string `json:"mode,omitempty" enum:"fail|stall" doc:"fail (default): the next job fails when it would complete, with job:finished; stall: it hangs until the automatic failure 3 hours after creation."`
	Log   string `json:"log,omitempty" doc:"The failed job's log."`
	Eshop int    `json:"eshop,omitempty" doc:"Only the next job of this e-shop; any e-shop's when absent."`
}

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
