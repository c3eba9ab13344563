package scenario

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// Control-plane paths of the scenario module.
const (
	ReportPath = "/_sandbox/report"
	FaultsPath = "/_sandbox/faults"
)

// ReportView is the data of GET /_sandbox/report.
type ReportView struct {
	Scenario string         `json:"scenario,omitempty"`                                                                   // the scenario served, if any
	Clean    bool           `json:"clean" doc:"The verdict: true when the add-on broke none of the rules (no findings)."` // nothing was found
	Counts   map[string]int `json:"counts"`                                                                               // findings per rule (every rule listed)
	Findings []Finding      `json:"findings"`                                                                             // every rule broken, oldest first (at most MaxFindings)
	Dropped  int            `json:"dropped"`                                                                              // oldest findings left out (more than MaxFindings)
	Rules    []Rule         `json:"rules"`                                                                                // the rules the report checks
	// Chaos tells how the add-on coped with the faults --chaos injected
	// (absent without chaos).
	Chaos []ChaosCoping `json:"chaos,omitempty"`
	// PaymentStatusWithin is the time the payment rules allow between a
	// payment result and its status call (sandbox clock), e.g. "1m0s".
	PaymentStatusWithin string `json:"paymentStatusWithin"`
}

// View renders the report.
func (rp *Report) View() ReportView {
	fs := rp.Findings()
	v := ReportView{Clean: len(fs) == 0, Counts: map[string]int{}, Findings: fs, Rules: Rules, Dropped: rp.Dropped(),
		PaymentStatusWithin: rp.PaymentWithin().String()}
	if v.Findings == nil {
		v.Findings = []Finding{}
	}
	for _, r := range Rules {
		v.Counts[r.Name] = 0
	}
	for _, f := range fs {
		v.Counts[f.Rule]++
	}
	v.Chaos = rp.chaosView()
	return v
}

// Routes are the control-plane routes: the contract report (GET, DELETE
// to start over) and the faults with their hit counts.
func Routes(e *Engine, rp *Report) []api.Route {
	return []api.Route{
		{Operation: "sandbox.report", Method: http.MethodGet, Summary: "The contract report: what the add-on did against the spec's rules", Path: ReportPath, Answer: ReportView{}, Handler: func(*api.Request) (any, error) {
			v := rp.View()
			if sc := e.Scenario(); sc != nil {
				v.Scenario = sc.Name
			}
			return v, nil
		}},
		{Operation: "sandbox.report.clear", Method: http.MethodDelete, Summary: "Start the contract report over", Path: ReportPath, Answer: ReportView{}, Handler: func(*api.Request) (any, error) {
			rp.Clear()
			return rp.View(), nil
		}},
		{Operation: "sandbox.faults", Method: http.MethodGet, Summary: "Faults in force (the scenario's, those added while serving, the built-in ones) and how often each matched and acted; the header that names one per call", Path: FaultsPath, Answer: map[string]any{"faults": api.Doc([]FaultView{}, "The faults in force, in the order they are tried, then the built-in ones."),
			"header":   api.Doc("", "The request header that names a fault for one call."),
			"scenario": api.Doc((*string)(nil), "The scenario served; null without one."),
			"chaos":    api.Doc(nil, "The --chaos settings; null without chaos.")},
			Handler: func(*api.Request) (any, error) {
				out := map[string]any{"faults": e.Faults(), "header": e.d.Headers.SandboxFault, "scenario": nil, "chaos": nil}
				if ch := e.Chaos(); ch != nil {
					out["chaos"] = ch.View()
				}
				if sc := e.Scenario(); sc != nil {
					out["scenario"] = sc.Name
				}
				return out, nil
			}},
		{Operation: "sandbox.faults.add", Method: http.MethodPost, Path: FaultsPath, BodySchema: faultBodySchema(), Answer: FaultView{},
			Summary: "Add one fault while serving, in the scenario file's fault syntax (match, trigger, one action); answers it with its id",
			Handler: func(r *api.Request) (any, error) {
				raw := r.RawBody()
				if _, err := api.DecodeJSON(raw); err != nil {
					return nil, err
				}
				f, err := ParseFault(raw)
				if err != nil {
					return nil, faultProblem(err)
				}
				v, err := e.AddFault(f)
				if err != nil {
					return nil, err
				}
				return &api.Result{Status: http.StatusCreated, Data: v}, nil
			}},
		{Operation: "sandbox.faults.clear", Method: http.MethodDelete, Path: FaultsPath,
			Summary: "Remove every fault added while serving (the scenario's stay)", Answer: map[string]any{"removed": api.Doc(0, "How many faults were removed.")},
			Handler: func(*api.Request) (any, error) {
				return map[string]any{"removed": e.ClearFaults()}, nil
			}},
		{Operation: "sandbox.faults.remove", Method: http.MethodDelete, Path: FaultsPath + "/{id}",
			Summary: "Remove one fault added while serving, by id (or name)", Answer: map[string]any{"removed": api.Doc("", "The id of the fault removed.")},
			Handler: func(r *api.Request) (any, error) {
				id := r.Var("id")
				if err := e.RemoveFault(id); err != nil {
					return nil, err
				}
				return map[string]any{"removed": id}, nil
			}},
	}
}

// faultProblem turns the problems of a posted fault into one 422 naming
// the first field at fault (instance) and every problem with its line and
// column in the body.
func faultProblem(err error) error {
	var ps Problems
	if !errors.As(err, &ps) || len(ps) == 0 {
		return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "body", "The fault is not valid: %v.", err)
	}
	inst := "body"
	if field, _, ok := strings.Cut(ps[0].Message, ": "); ok && !strings.Contains(field, " ") {
		inst = field
	}
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = fmt.Sprintf("%d:%d: %s", p.Line, p.Column, p.Message)
	}
	msg := strings.Join(msgs, "; ")
	if !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "?") {
		msg += "."
	}
	return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, inst, "The fault is not valid (line:column in the body): %s", msg)
}
