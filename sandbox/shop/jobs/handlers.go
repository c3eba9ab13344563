package jobs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// Paging of GET /api/system/jobs.
const (
	PerPage    = 20
	MaxPerPage = 100
)

// CodeWebhookMissing is the errorCode of the 403 for an asynchronous
// request made before job:finished was registered.
const CodeWebhookMissing = "job-finished-webhook-not-registered"

// work is one kind of job.
type work func(ctx context.Context, j *Job) (Result, error)

// check validates a request before a job is queued (400, 404, 422).
type check func(r *api.Request, tx *store.Tx, body map[string]any) error

// Handlers returns the handlers of every asynchronous endpoint of the
// catalogue plus the job detail and list.
func (s *Service) Handlers() map[string]api.HandlerFunc {
	out := map[string]api.HandlerFunc{
		"GetJobDetail":  s.detail,
		"GetListOfJobs": s.list,
	}
	for _, e := range s.Catalogue.Endpoints {
		if e.Async || asyncUnmarked[e.Operation] {
			out[e.Operation] = s.accept(e)
		}
	}
	return out
}

// asyncUnmarked are endpoints the reference does not flag async although
// they take a batch file and answer data.jobId, like the other batches.
var asyncUnmarked = map[string]bool{"OrderBatchInsertion": true}

func (s *Service) workFor(op string) work {
	if e, ok := s.Catalogue.Endpoint(op); ok && e.Snapshot {
		return s.snapshot
	}
	switch op {
	case "UploadFiles":
		return s.uploadFiles
	case "CreateProductImages", "UpdateProductImagesSource":
		return s.productImages
	case "GeneralDocumentDownload":
		return s.export
	}
	if _, _, ok := s.batchOf(op); ok {
		return s.batch
	}
	return nil
}

func (s *Service) checkFor(e schemas.Endpoint) check {
	if e.Snapshot {
		return s.checkSnapshot
	}
	switch e.Operation {
	case "UploadFiles":
		return checkUploads
	case "CreateProductImages", "UpdateProductImagesSource":
		return s.checkImages
	case "GeneralDocumentDownload":
		return s.checkExport
	}
	if _, _, ok := s.batchOf(e.Operation); ok {
		return s.checkBatch
	}
	return nil
}

// accept is the handler of one asynchronous endpoint: 403 without a
// job:finished webhook (nothing queued), the request's own checks, then
// a pending job and data.jobId.
func (s *Service) accept(e schemas.Endpoint) api.HandlerFunc {
	chk := s.checkFor(e)
	return func(r *api.Request) (any, error) {
		var lang string
		err := s.Store.View(func(tx *store.Tx) error {
			c, err := eshop.NewContext(tx, r, s.Site)
			if err != nil {
				return err
			}
			lang = c.Language
			if !webhooks.Registered(tx, r.Eshop, webhooks.JobFinished) {
				return sandbox.Errorf(sandbox.KindForbidden, CodeWebhookMissing, webhooks.JobFinished,
					"%s %s is asynchronous: register the job:finished webhook (POST /api/webhooks) before calling it. No job was queued.", e.Method, e.Path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		var body map[string]any
		var raw json.RawMessage
		if e.Request != "" {
			if body, err = r.Body(); err != nil {
				return nil, err
			}
			if err := s.checkFetchURLs(r.Context(), body); err != nil {
				return nil, err
			}
			if raw, err = json.Marshal(body); err != nil {
				return nil, err
			}
		}
		if lang == "" {
			lang = r.Query("language")
		}
		j := &Job{ID: s.IDs.UUID(), EshopID: r.Eshop, Operation: e.Operation, Endpoint: e.Path,
			Vars: pathVars(r, e), Query: r.URL.RawQuery, Body: raw, Language: lang, Status: Pending}
		err = s.Store.Update(func(tx *store.Tx) error {
			if chk != nil {
				if err := chk(r, tx, body); err != nil {
					return err
				}
			}
			if !webhooks.Registered(tx, r.Eshop, webhooks.JobFinished) {
				return sandbox.Errorf(sandbox.KindForbidden, CodeWebhookMissing, webhooks.JobFinished,
					"Register the job:finished webhook before calling an asynchronous endpoint. No job was queued.")
			}
			j.Created = tx.Now()
			if f := s.takeFault(r.Eshop); f != nil {
				j.Fault, j.FaultLog = f.Mode, f.Log
			}
			return save(tx, j)
		})
		if err != nil {
			return nil, err
		}
		if s.Bus != nil {
			s.emitChange(j)
		}
		s.Wake()
		return &api.Result{Status: http.StatusAccepted, Data: map[string]any{"jobId": j.ID}}, nil
	}
}

func pathVars(r *api.Request, e schemas.Endpoint) map[string]string {
	if len(e.PathParams) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, p := range e.PathParams {
		out[p] = r.Var(p)
	}
	return out
}

func (s *Service) detail(r *api.Request) (any, error) {
	s.Settle()
	var j *Job
	err := s.Store.View(func(tx *store.Tx) error {
		var err error
		j, err = Load(tx, r.Eshop, r.Var("jobId"))
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"job": j.View()}, nil
}

// list answers GET /api/system/jobs with the reference's filters: status,
// creationTimeFrom/To, completionTimeFrom/To.
func (s *Service) list(r *api.Request) (any, error) {
	page, perPage, err := r.Paging(PerPage, MaxPerPage)
	if err != nil {
		return nil, err
	}
	match, err := registry.Compile([]registry.Filter{
		{Query: "status", Path: "status", Op: registry.Equal},
	}, r.Query)
	if err != nil {
		return nil, err
	}
	bounds := map[string]time.Time{}
	for _, q := range []string{"creationTimeFrom", "creationTimeTo", "completionTimeFrom", "completionTimeTo"} {
		if v := r.Query(q); v != "" {
			t, err := sandbox.ParseTime(v)
			if err != nil {
				return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, q,
					"Query parameter %s must be a date-time such as 2024-01-31T12:00:00+0100, not %q.", q, v)
			}
			bounds[q] = t
		}
	}
	s.Settle()
	items := []ListItem{}
	total := 0
	err = s.Store.View(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, r.Eshop); err != nil {
			return err
		}
		return tx.Scan(r.Eshop, Collection, func(_ string, doc []byte) bool {
			if match != nil && !match(doc) {
				return true
			}
			var j Job
			if json.Unmarshal(doc, &j) != nil || !inBounds(&j, bounds) {
				return true
			}
			if total >= (page-1)*perPage && len(items) < perPage {
				items = append(items, j.Item())
			}
			total++
			return true
		})
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"jobs": items, "paginator": api.NewPaginator(total, page, perPage, len(items))}, nil
}

func inBounds(j *Job, b map[string]time.Time) bool {
	if t, ok := b["creationTimeFrom"]; ok && j.Created.Before(t) {
		return false
	}
	if t, ok := b["creationTimeTo"]; ok && j.Created.After(t) {
		return false
	}
	_, from := b["completionTimeFrom"]
	_, to := b["completionTimeTo"]
	if (from || to) && j.Completed == nil {
		return false
	}
	if t, ok := b["completionTimeFrom"]; ok && j.Completed.Before(t) {
		return false
	}
	if t, ok := b["completionTimeTo"]; ok && j.Completed.After(t) {
		return false
	}
	return true
}

func (s *Service) emitChange(j *Job) {
	s.Bus.Emit(bus.TopicJob, bus.JobChange{Eshop: j.EshopID, JobID: j.ID, Endpoint: j.Endpoint, Status: j.Status, Time: j.Created})
}

// query returns the job's query parameters.
func (j *Job) query() url.Values {
	q, _ := url.ParseQuery(j.Query)
	return q
}

// body returns the job's request body.
func (j *Job) body() map[string]any {
	if len(j.Body) == 0 {
		return nil
	}
	m, _ := api.DecodeObject(j.Body)
	return m
}

func trimmed(m map[string]any, k string) string {
	v, _ := m[k].(string)
	return strings.TrimSpace(v)
}
