package runner

import (
	"encoding/json"
	"io"
	"time"
)

// EventsSchema is the JSON Schema of the events `sandbox test --json`
// prints, in the schemas package.
const EventsSchema = "test-events.schema.json"

// Event is one line of `sandbox test --json`, shaped after go test -json
// (test2json): Time, Action and Elapsed as there, Scenario and Step in
// place of Test. A line with a Step is a step's result; one with a
// Scenario and no Step the scenario's start or end; one with neither the
// suite's end.
type Event struct {
	Time     time.Time `json:"Time"`
	Action   string    `json:"Action"` // start, pass, fail, skip
	File     string    `json:"File,omitempty"`
	Scenario string    `json:"Scenario,omitempty"`
	// Step is the step's name ("setup" for a scenario that could not
	// start), Index its number, Kind its kind and Line its line in File.
	Step  string `json:"Step,omitempty"`
	Index int    `json:"Index,omitempty"`
	Kind  string `json:"Kind,omitempty"`
	Line  int    `json:"Line,omitempty"`
	// Elapsed is in seconds: the step's, the scenario's, or the suite's
	// wall time.
	Elapsed  *float64 `json:"Elapsed,omitempty"`
	Expected string   `json:"Expected,omitempty"`
	Got      string   `json:"Got,omitempty"`
	Traffic  []string `json:"Traffic,omitempty"`
	Notes    []string `json:"Notes,omitempty"`
	Note     string   `json:"Note,omitempty"`
	// Passed, Failed and Skipped count a scenario's steps at its end, and
	// the suite's scenarios at its end (where NotRun counts the runs
	// --fail-fast or an interrupt never started).
	Passed  *int `json:"Passed,omitempty"`
	Failed  *int `json:"Failed,omitempty"`
	Skipped *int `json:"Skipped,omitempty"`
	NotRun  *int `json:"NotRun,omitempty"`
}

func seconds64(d time.Duration) *float64 {
	s := d.Seconds()
	return &s
}

func intp(n int) *int { return &n }

// ScenarioEvents lists one scenario's events: its start, a result per
// step (a scenario that could not start has one failed "setup" step) and
// its end.
func ScenarioEvents(res *Result) []Event {
	end := res.Started.Add(res.Duration)
	evs := []Event{{Time: res.Started, Action: "start", File: res.File, Scenario: res.Name}}
	if res.Setup != "" {
		evs = append(evs, Event{Time: end, Action: "fail", File: res.File, Scenario: res.Name, Step: "setup", Kind: "setup", Elapsed: seconds64(0),
			Expected: "the scenario starts", Got: res.Setup + addonOutput(res)})
	}
	for _, s := range res.Steps {
		at := s.Ended
		if at.IsZero() {
			at = end
		}
		ev := Event{Time: at, Action: map[string]string{Passed: "pass", Failed: "fail", Skipped: "skip"}[s.Status], File: res.File, Scenario: res.Name,
			Step: s.Name, Index: s.Index, Kind: s.Kind, Line: s.Line, Elapsed: seconds64(s.Duration), Note: s.Note}
		switch s.Status {
		case Failed:
			ev.Expected, ev.Got, ev.Traffic, ev.Notes = s.Expected, s.Got, s.Traffic, s.Notes
		case Skipped:
			ev.Got = s.Got
		}
		evs = append(evs, ev)
	}
	c := res.Counts()
	action := "pass"
	if !res.Passed {
		action = "fail"
	}
	return append(evs, Event{Time: end, Action: action, File: res.File, Scenario: res.Name, Elapsed: seconds64(res.Duration),
		Passed: intp(c.Passed), Failed: intp(c.Failed), Skipped: intp(c.Skipped)})
}

// SuiteEvent is the suite's last event: how many scenario runs passed and
// failed, how many were never started, and the wall time.
func SuiteEvent(results []*Result, notRun int, elapsed time.Duration) Event {
	passed := 0
	for _, r := range results {
		if r.Passed {
			passed++
		}
	}
	action := "pass"
	if passed < len(results) || notRun > 0 {
		action = "fail"
	}
	return Event{Time: time.Now(), Action: action, Elapsed: seconds64(elapsed), Passed: intp(passed), Failed: intp(len(results) - passed), NotRun: intp(notRun)}
}

// WriteEvents writes events one JSON object a line.
func WriteEvents(w io.Writer, evs ...Event) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			return err
		}
	}
	return nil
}
