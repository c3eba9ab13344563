package tui

import (
	"encoding/json"
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
)

// jobsView lists every e-shop's asynchronous jobs (GET /_sandbox/jobs),
// oldest first, with the next transition on the sandbox clock.
var jobsView = &dataView{
	path: jobs.ControlPath,
	columns: []column{{title: "TIME", width: 8}, {title: "SHOP", width: 5}, {title: "STATUS", width: 9}, {title: "NEXT", width: 8},
		{title: "ENDPOINT"}, {title: "JOB", width: 12}},
	toneCol: 2,
	empty:   "No job yet: snapshots, batches and uploads run as jobs (they need a job:finished webhook).",
	load:    loadJobs,
}

func loadJobs(raw json.RawMessage, st Styles) (viewData, error) {
	var v struct {
		Jobs []jobs.ControlItem `json:"jobs"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return viewData{}, fmt.Errorf("the jobs: %v", err)
	}
	var d viewData
	open := 0
	for _, j := range v.Jobs {
		s := sheet{st: st}
		s.field("status", j.Status)
		s.field("endpoint", j.Endpoint)
		s.field("operation", j.Operation)
		s.field("e-shop", eshopCell(j.EshopID))
		s.field("created", deref(j.CreationTime))
		s.field("next step", deref(j.NextDue))
		s.field("completed", deref(j.CompletionTime))
		s.field("duration", deref(j.Duration))
		s.field("result", deref(j.ResultURL))
		s.field("valid until", deref(j.ValidUntil))
		s.field("fault", j.Fault)
		if j.Log != nil {
			s.section("Log")
			s.text(*j.Log)
		}
		next := "-"
		if j.NextDue != nil {
			next = shortTime(*j.NextDue)
			open++
		}
		d.rows = append(d.rows, viewRow{key: fmt.Sprint(j.EshopID, "|", j.JobID), eshop: j.EshopID,
			cells: []string{shortTime(deref(j.CreationTime)), eshopCell(j.EshopID), j.Status, next, j.Endpoint, j.JobID},
			tone:  jobTone(j.Status), title: "Job · " + j.JobID, detail: s.String()})
	}
	d.summary = fmt.Sprintf("%d jobs, %d open (they move on the sandbox clock: + advances it)", len(v.Jobs), open)
	return d, nil
}

// jobTone colours a job's status like an HTTP status.
func jobTone(status string) int {
	switch status {
	case jobs.Completed:
		return 200
	case jobs.Failed, jobs.Killed:
		return 500
	}
	return 100
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
