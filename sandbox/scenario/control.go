package scenario

import (
	"net/http"

	"github.com/eshop-sandbox/sandbox/sandbox/api"
)

// Control-plane paths of the scenario module.
const (
	ReportPath = "/_sandbox/report"
	FaultsPath = "/_sandbox/faults"
)

// ReportView is the data of GET /_sandbox/report.
type ReportView struct {
	Scenario string         `json:"scenario,omitempty"` // the scenario served, if any
	Clean    bool           `json:"clean"`              // nothing was found
	Counts   map[string]int `json:"counts"`             // findings per rule (every rule listed)
	Findings []Finding      `json:"findings"`
	Dropped  int            `json:"dropped"` // oldest findings left out (more than MaxFindings)
	Rules    []Rule         `json:"rules"`
}

// View renders the report.
func (rp *Report) View() ReportView {
	fs := rp.Findings()
	v := ReportView{Clean: len(fs) == 0, Counts: map[string]int{}, Findings: fs, Rules: Rules, Dropped: rp.Dropped()}
	if v.Findings == nil {
		v.Findings = []Finding{}
	}
	for _, r := range Rules {
		v.Counts[r.Name] = 0
	}
	for _, f := range fs {
		v.Counts[f.Rule]++
	}
	return v
}

// Routes are the control-plane routes: the contract report (GET, DELETE
// to start over) and the faults with their hit counts.
func Routes(e *Engine, rp *Report) []api.Route {
	return []api.Route{
		{Operation: "sandbox.report", Method: http.MethodGet, Summary: "The contract report: what the add-on did against the spec's rules", Path: ReportPath, Handler: func(*api.Request) (any, error) {
			v := rp.View()
			if sc := e.Scenario(); sc != nil {
				v.Scenario = sc.Name
			}
			return v, nil
		}},
		{Operation: "sandbox.report.clear", Method: http.MethodDelete, Summary: "Start the contract report over", Path: ReportPath, Handler: func(*api.Request) (any, error) {
			rp.Clear()
			return rp.View(), nil
		}},
		{Operation: "sandbox.faults", Method: http.MethodGet, Summary: "Scenario faults in force and how often each matched; the header that names one per call", Path: FaultsPath, Handler: func(*api.Request) (any, error) {
			out := map[string]any{"faults": e.Faults(), "header": e.d.Headers.SandboxFault, "scenario": nil}
			if sc := e.Scenario(); sc != nil {
				out["scenario"] = sc.Name
			}
			return out, nil
		}},
	}
}
