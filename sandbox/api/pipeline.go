package api

import (
	"net/http"
)

// Stage is where a decorator sits in the server's pipeline (see Server).
type Stage int

// The stages, outermost first.
const (
	// StageObserve decorators see every request the Host check let in and
	// its answer as sent, refusals included: the traffic recorder.
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
	Wrap  func(http.Handler) http.Handler
}

// pipeline assembles the chain once: decorators by stage (in the order
// given within a stage) around the server's own steps.
func (s *Server) pipeline(ds []Decorator) http.Handler {
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
