// Package jobs runs the reference's asynchronous endpoints (the 26 marked
// async: snapshots, batches, multi-file and image uploads, the document
// export). A request is accepted only when the e-shop registered the
// job:finished webhook (spec, Events rule 1); it answers data.jobId and
// the job then moves pending -> running -> completed or failed on the
// sandbox clock. On completion the work is done against the store (a
// snapshot's gzip JSON Lines file, a batch's rows) and job:finished is
// emitted, also on failure, except for the automatic failure 3 hours
// after creation. The control plane can make the next job fail or stall.
package jobs

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Collection is the per-e-shop store collection of jobs, by job id.
const Collection = "jobs"

// Job statuses (reference: jobs.statuses).
const (
	Pending   = "pending"
	Running   = "running"
	Completed = "completed"
	Failed    = "failed"
	Killed    = "killed"
)

// Timings on the sandbox clock. The spec gives only the automatic
// failure; the rest is the sandbox's choice: quick enough for a
// developer's loop, slow enough to observe every state.
const (
	StartAfter     = 1 * time.Second // pending -> running
	RunFor         = 4 * time.Second // running -> completed or failed
	AutoFail       = 3 * time.Hour   // a stalled job fails this long after creation, without job:finished
	ResultValidity = 24 * time.Hour  // a result file is served this long after completion
)

// Fault modes a job can be given from the control plane.
const (
	FaultFail  = "fail"  // the job fails when it would complete; job:finished is emitted
	FaultStall = "stall" // the job hangs until the automatic failure; no job:finished
)

// Job is a stored job. The API shows it through View.
type Job struct {
	ID         string            `json:"jobId"`
	EshopID    int               `json:"eshopId"`
	Operation  string            `json:"operation"`
	Endpoint   string            `json:"endpoint"` // the catalogue's path template, as the SDK resolves it
	Vars       map[string]string `json:"vars,omitempty"`
	Query      string            `json:"query,omitempty"`
	Body       json.RawMessage   `json:"body,omitempty"`
	Language   string            `json:"language,omitempty"`
	Created    time.Time         `json:"created"`
	Status     string            `json:"status"`
	Completed  *time.Time        `json:"completed,omitempty"`
	ResultURL  string            `json:"resultUrl,omitempty"`
	ValidUntil *time.Time        `json:"validUntil,omitempty"`
	Log        string            `json:"log,omitempty"`
	Fault      string            `json:"fault,omitempty"`
	FaultLog   string            `json:"faultLog,omitempty"`
}

// RunningAt is when the job leaves pending.
func (j *Job) RunningAt() time.Time { return j.Created.Add(StartAfter) }

// DoneAt is when a healthy job finishes.
func (j *Job) DoneAt() time.Time { return j.Created.Add(StartAfter + RunFor) }

// Open reports whether the job still waits for a transition.
func (j *Job) Open() bool { return j.Status == Pending || j.Status == Running }

// NextDue is the sandbox time of the job's next transition (zero when
// it has none).
func (j *Job) NextDue() time.Time {
	switch {
	case j.Status == Pending:
		return j.RunningAt()
	case j.Status == Running && j.Fault == FaultStall:
		return j.Created.Add(AutoFail)
	case j.Status == Running:
		return j.DoneAt()
	}
	return time.Time{}
}

// View is the reference's job record.
type View struct {
	JobID          string  `json:"jobId"`          // the job's id
	Endpoint       string  `json:"endpoint"`       // the endpoint that started it
	CreationTime   *string `json:"creationTime"`   // when it was created
	CompletionTime *string `json:"completionTime"` // when it settled; null before
	Duration       *string `json:"duration"`       // how long it ran; null before it settled
	Status         string  `json:"status"`         // pending, running, completed, failed or killed
	ResultURL      *string `json:"resultUrl"`      // where its result file is, once completed
	ValidUntil     *string `json:"validUntil"`     // until when the result can be downloaded
	Log            *string `json:"log"`            // its log
	Language       *string `json:"language"`       // the language it was started with
}

// ListItem is a job in the job list (the reference's shorter shape).
type ListItem struct {
	JobID          string  `json:"jobId"`
	Endpoint       string  `json:"endpoint"`
	CreationTime   *string `json:"creationTime"`
	CompletionTime *string `json:"completionTime"`
	Status         string  `json:"status"`
	ValidUntil     *string `json:"validUntil"`
	Language       *string `json:"language"`
}

// View renders the job record.
func (j *Job) View() View {
	v := View{JobID: j.ID, Endpoint: j.Endpoint, CreationTime: timePtr(&j.Created), CompletionTime: timePtr(j.Completed),
		Status: j.Status, ValidUntil: timePtr(j.ValidUntil), Log: strPtr(j.Log), Language: strPtr(j.Language),
		ResultURL: strPtr(j.ResultURL)}
	if j.Completed != nil {
		d := FormatDuration(j.Completed.Sub(j.Created))
		v.Duration = &d
	}
	return v
}

// Item renders the job for the list.
func (j *Job) Item() ListItem {
	v := j.View()
	return ListItem{JobID: v.JobID, Endpoint: v.Endpoint, CreationTime: v.CreationTime, CompletionTime: v.CompletionTime,
		Status: v.Status, ValidUntil: v.ValidUntil, Language: v.Language}
}

// FormatDuration renders a job's duration as HH:MM:SS.
func FormatDuration(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

func timePtr(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := sandbox.FormatTime(*t)
	return &s
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Load reads a job; an unknown id answers 404.
func Load(tx *store.Tx, eshopID int, id string) (*Job, error) {
	raw, err := tx.Get(eshopID, Collection, id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(id, "Job %q does not exist in this e-shop.", id)
	}
	if err != nil {
		return nil, err
	}
	var j Job
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, err
	}
	return &j, nil
}

func save(tx *store.Tx, j *Job) error {
	raw, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = tx.Put(j.EshopID, Collection, j.ID, raw)
	return err
}
