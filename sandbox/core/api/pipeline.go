package api

import (
	"net/http"
)

// Stage is where a decorator sits in the server's pipeline (see Server).
type Stage int

// The stages, outermost first.
const (
	// StageObserve decorators see every request the Host check let in and
	// its answer as sent, refusals included: the traffic tap.
	StageObserve Stage = iota
	// StageAdmit decorators run as soon as the headers have arrived, before
	// anything reads the body: connection counts, the rate bucket,
	// maintenance. A request is counted while its body is still arriving.
	StageAdmit
	// StageProcess decorators run once the body has been read, just before
	// the endpoint, when the route is final even for a PUT sent as POST:
	// the write lock, deprecation headers, scripted faults.
	StageProcess
)

// Decorator wraps the rest of the pipeline at one stage. It reads what the
// server resolved with CallOf and never routes or authenticates itself.
type Decorator struct {
	Stage Stage
	Name  string
	What  string // one line for `sandbox routes --pipeline`
	Wrap  func(http.Handler) http.Handler
}

// Step is one step of the pipeline, outermost first: what `sandbox
// routes --pipeline` prints.
type Step struct {
	Stage string `json:"stage"` // resolve, observe, guard, admit, body, process, endpoint
	Name  string `json:"name"`
	What  string `json:"what"`
}

// Pipeline lists the steps every request takes, in order.
func (s *Server) Pipeline() []Step { return s.steps }

// pipeline assembles the chain once: decorators by stage (in the order
// given within a stage) around the server's own steps.
func (s *Server) pipeline(ds []Decorator) http.Handler {
	s.steps = []Step{
		{"resolve", "call", "request id, header size, route (operation, variables, area) and token headers, once, into api.Call"},
		{"guard", "host", "421 unless Host is a loopback name, the --addr host or the --public-url host"},
	}
	for _, st := range []struct {
		stage Stage
		name  string
	}{{StageObserve, "observe"}, {-1, "guard"}, {StageAdmit, "admit"}, {-2, "body"}, {StageProcess, "process"}} {
		switch st.stage {
		case -1:
			s.steps = append(s.steps, Step{"guard", "cross-site", "control-plane changes only as JSON or without a body, never from a foreign Origin"})
		case -2:
			s.steps = append(s.steps, Step{"body", "body", "read the body once: at most MaxBodyBytes (413), within the body timeout (408)"})
		default:
			for _, d := range ds {
				if d.Stage == st.stage {
					s.steps = append(s.steps, Step{st.name, d.Name, d.What})
				}
			}
		}
	}
	s.steps = append(s.steps, Step{"endpoint", "endpoint", "Content-Type, token and rights (from the call's identity), the e-shop's module for the route, required and typed query parameters, the route's handler, the envelope"})
	var h http.Handler = http.HandlerFunc(s.endpoint)
	wrap := func(stage Stage) {
		for i := len(ds) - 1; i >= 0; i-- {
			if ds[i].Stage == stage {
				h = ds[i].Wrap(h)
			}
		}
	}
	wrap(StageProcess)
	h = s.readBody(h)
	wrap(StageAdmit)
	h = s.guardControl(h)
	wrap(StageObserve)
	return s.checkHost(h)
}
