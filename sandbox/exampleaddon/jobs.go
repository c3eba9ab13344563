package exampleaddon

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Asynchronous endpoints. A mass change (customer:import) is read with a
// snapshot rather than item by item: GET /api/customers/snapshot answers
// 202 with data.jobId, and the e-shop prepares the file in the
// background. When the job ends it sends job:finished (eventInstance: the
// job id); the add-on then reads the job (GET /api/system/jobs/{jobId})
// and downloads its resultUrl, a gzip file of JSON Lines. The e-shop
// refuses an asynchronous call (403) unless job:finished is registered,
// so the add-on registers it first, once per installation, and only
// when it needs it.

// syncCustomers starts a customer snapshot for a customer:import.
func (a *Addon) syncCustomers(ctx context.Context, in *installation) string {
	if err := a.ensureJobHook(ctx, in); err != nil {
		a.log.Error("register job:finished", "eshop", in.EshopID, "err", err)
		return "registering job:finished failed: " + err.Error()
	}
	var job struct {
		JobID string `json:"jobId"`
	}
	if err := a.call(ctx, in, http.MethodGet, "/api/customers/snapshot", nil, &job); err != nil {
		a.log.Error("customer snapshot", "eshop", in.EshopID, "err", err)
		return "requesting the customer snapshot failed: " + err.Error()
	}
	a.mu.Lock()
	if in.jobs == nil {
		in.jobs = map[string]bool{}
	}
	in.jobs[job.JobID] = true
	a.mu.Unlock()
	return "requested a customer snapshot, job " + job.JobID
}

// ensureJobHook registers job:finished to this add-on's webhook URL
// unless the e-shop already sends it there.
func (a *Addon) ensureJobHook(ctx context.Context, in *installation) error {
	a.mu.Lock()
	done := in.jobHook
	a.mu.Unlock()
	if done {
		return nil
	}
	var list struct {
		Webhooks []struct {
			Event string `json:"event"`
			URL   string `json:"url"`
		} `json:"webhooks"`
	}
	if err := a.call(ctx, in, http.MethodGet, "/api/webhooks", nil, &list); err != nil {
		return fmt.Errorf("GET /api/webhooks: %w", err)
	}
	found := false
	for _, w := range list.Webhooks {
		found = found || (w.Event == "job:finished" && w.URL == a.cfg.WebhookURL())
	}
	if !found {
		body := map[string]any{"data": []map[string]string{{"event": "job:finished", "url": a.cfg.WebhookURL()}}}
		if err := a.call(ctx, in, http.MethodPost, "/api/webhooks", body, nil); err != nil {
			return fmt.Errorf("POST /api/webhooks: %w", err)
		}
	}
	a.mu.Lock()
	in.jobHook = true
	a.mu.Unlock()
	return nil
}

// jobFinished reads a finished job of this add-on's and, when it left a
// result file, counts the items in it. job:finished is sent for every job
// of the e-shop, so the jobs of others are only noted.
func (a *Addon) jobFinished(ctx context.Context, in *installation, jobID string) string {
	a.mu.Lock()
	mine := in.jobs[jobID]
	delete(in.jobs, jobID)
	a.mu.Unlock()
	if !mine {
		return "noted: job " + jobID + " was not started by this add-on"
	}
	var detail struct {
		Job struct {
			Endpoint  string  `json:"endpoint"`
			Status    string  `json:"status"`
			Log       *string `json:"log"`
			ResultURL *string `json:"resultUrl"`
		} `json:"job"`
	}
	if err := a.call(ctx, in, http.MethodGet, "/api/system/jobs/"+url.PathEscape(jobID), nil, &detail); err != nil {
		a.log.Error("read job", "job", jobID, "err", err)
		return "reading the job failed: " + err.Error()
	}
	j := detail.Job
	if j.Status != "completed" {
		why := ""
		if j.Log != nil {
			why = ": " + *j.Log
		}
		return fmt.Sprintf("job %s (%s) ended %s%s", jobID, j.Endpoint, j.Status, why)
	}
	if j.ResultURL == nil || *j.ResultURL == "" {
		return fmt.Sprintf("job %s (%s) completed", jobID, j.Endpoint)
	}
	n, err := a.countLines(ctx, *j.ResultURL)
	if err != nil {
		a.log.Error("download job result", "job", jobID, "err", err)
		return "downloading the job's result failed: " + err.Error()
	}
	return fmt.Sprintf("job %s (%s) completed: %d items", jobID, j.Endpoint, n)
}

// countLines downloads a gzip JSON Lines result and counts its items.
// The result URL is a plain download: it carries no token.
func (a *Addon) countLines(ctx context.Context, resultURL string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, resultURL, nil)
	if err != nil {
		return 0, err
	}
	resp, err := a.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	zr, err := gzip.NewReader(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	n := 0
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			n++
		}
	}
	return n, sc.Err()
}
