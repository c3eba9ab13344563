package jobs_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
	"github.com/eshop-sandbox/sandbox/schemas"
)

type jobView struct {
	JobID, Endpoint, Status string
	CompletionTime          *string
	ResultURL               *string
	Log                     *string
	Duration                *string
}

func submit(t *testing.T, e *evtest.Env, method, path string, body any) string {
	t.Helper()
	r := e.Call(method, path, body)
	if r.Status != http.StatusAccepted {
		t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
	}
	var d struct{ JobID string }
	r.Data(t, &d)
	if d.JobID == "" {
		t.Fatalf("no jobId: %s", r.Body)
	}
	return d.JobID
}

func job(t *testing.T, e *evtest.Env, id string) jobView {
	t.Helper()
	r := e.Call("GET", "/api/system/jobs/"+id, nil)
	if r.Status != 200 {
		t.Fatalf("job %s: %d %s", id, r.Status, r.Body)
	}
	var d struct{ Job jobView }
	r.Data(t, &d)
	return d.Job
}

// fetchLines downloads a result file without API headers and checks
// every line against the endpoint's snapshotResultItem.
func fetchLines(t *testing.T, e *evtest.Env, url, operation string) []map[string]any {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("result file: %d", resp.StatusCode)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatalf("result file is not gzip: %v", err)
	}
	raw, _ := io.ReadAll(zr)
	sch := e.S.App.Schemas.SnapshotItem(operation)
	if sch == nil {
		t.Fatalf("no snapshot schema for %s", operation)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		v, err := schemas.Decode(bytes.NewReader(sc.Bytes()))
		if err != nil {
			t.Fatalf("line %d: %v", len(out)+1, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Fatalf("line %d does not match %s's snapshotResultItem: %v\n%.600s", len(out)+1, operation, err, sc.Bytes())
		}
		out = append(out, v.(map[string]any))
	}
	return out
}

// TestJobLifeCycle: 403 without job:finished (nothing queued), then
// pending -> running -> completed on the clock, job:finished signed, the
// snapshot file valid line by line.
func TestJobLifeCycle(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	key := e.RenewKey()
	r := e.Call("GET", "/api/products/snapshot", nil)
	if r.Status != 403 || r.Env.Errors[0].ErrorCode != jobs.CodeWebhookMissing || !strings.Contains(r.Env.Errors[0].Message, "job:finished") {
		t.Fatalf("without job:finished: %d %s", r.Status, r.Body)
	}
	var list struct {
		Jobs      []jobView
		Paginator struct{ TotalCount int }
	}
	e.Call("GET", "/api/system/jobs", nil).Data(t, &list)
	if list.Paginator.TotalCount != 0 {
		t.Fatalf("a job was queued: %+v", list)
	}

	e.Register("job:finished")
	id := submit(t, e, "GET", "/api/products/snapshot?visibility=visible", nil)
	if j := job(t, e, id); j.Status != jobs.Pending || j.Endpoint != "/api/products/snapshot" || j.CompletionTime != nil {
		t.Fatalf("new job: %+v", j)
	}
	e.Advance("1s")
	if j := job(t, e, id); j.Status != jobs.Running {
		t.Fatalf("after 1s: %+v", j)
	}
	e.Advance("4s")
	j := job(t, e, id)
	if j.Status != jobs.Completed || j.ResultURL == nil || j.Duration == nil || *j.Duration != "00:00:05" {
		t.Fatalf("after 5s: %+v", j)
	}
	n := e.R.WaitFor("job:finished", id)
	if !n.Valid(key) || *n.Payload.EventCreated != *j.CompletionTime {
		t.Fatalf("job:finished %s (valid %v)", n.Body, n.Valid(key))
	}
	lines := fetchLines(t, e, *j.ResultURL, "GetListOfAllProducts")
	var products []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	visible := 0
	for _, p := range products {
		if p["visibility"] == "visible" {
			visible++
		}
	}
	if len(lines) != visible || visible == 0 {
		t.Fatalf("%d lines, %d visible products", len(lines), visible)
	}
	e.Call("GET", "/api/system/jobs?status=completed", nil).Data(t, &list)
	if list.Paginator.TotalCount != 1 || list.Jobs[0].JobID != id {
		t.Fatalf("job list: %+v", list)
	}
	if r := e.Call("GET", "/api/products/snapshot?creationTimeFrom=yesterday", nil); r.Status != 400 {
		t.Fatalf("bad filter: %d %s", r.Status, r.Body)
	}
	if r := e.Call("GET", "/api/system/jobs/nope", nil); r.Status != 404 {
		t.Fatalf("unknown job: %d", r.Status)
	}
}

// TestJobFailure: a failure armed from the control plane fails the job
// when it would complete, and job:finished still fires.
func TestJobFailure(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	if r := e.Control("POST", "/_sandbox/jobs/fail-next", map[string]any{"log": "Export exploded."}); r.Status != 202 {
		t.Fatalf("arm: %d %s", r.Status, r.Body)
	}
	id := submit(t, e, "GET", "/api/orders/snapshot", nil)
	e.Advance("5s")
	j := job(t, e, id)
	if j.Status != jobs.Failed || j.Log == nil || *j.Log != "Export exploded." || j.ResultURL != nil {
		t.Fatalf("failed job: %+v", j)
	}
	e.R.WaitFor("job:finished", id)
	// The fault was used up: the next job completes.
	id2 := submit(t, e, "GET", "/api/orders/snapshot", nil)
	e.Advance("5s")
	if j := job(t, e, id2); j.Status != jobs.Completed {
		t.Fatalf("second job: %+v", j)
	}
	if r := e.Control("POST", "/_sandbox/jobs/fail-next", map[string]any{"mode": "explode"}); r.Status != 400 {
		t.Fatalf("bad mode: %d", r.Status)
	}
	// An empty body arms a plain failure.
	if r := e.Control("POST", "/_sandbox/jobs/fail-next", nil); r.Status != 202 {
		t.Fatalf("arm without a body: %d %s", r.Status, r.Body)
	}
	id3 := submit(t, e, "GET", "/api/orders/snapshot", nil)
	e.Advance("5s")
	if j := job(t, e, id3); j.Status != jobs.Failed || !strings.Contains(deref(j.Log), "fail-next") {
		t.Fatalf("third job: %+v %s", j, deref(j.Log))
	}
}

// TestJobAutomaticFailure: a stalled job fails 3 hours after creation
// without job:finished (spec, Events rule 6).
func TestJobAutomaticFailure(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	e.Control("POST", "/_sandbox/jobs/fail-next", map[string]any{"mode": "stall", "eshop": 1001})
	stalled := submit(t, e, "GET", "/api/customers/snapshot", nil)
	e.Advance("2h59m59s")
	if j := job(t, e, stalled); j.Status != jobs.Running {
		t.Fatalf("before 3 h: %+v", j)
	}
	e.Advance("1s")
	j := job(t, e, stalled)
	if j.Status != jobs.Failed || j.Log == nil || !strings.Contains(*j.Log, "3 hours") || *j.Duration != "03:00:00" {
		t.Fatalf("after 3 h: %+v", j)
	}
	// A later job's job:finished arrives; the stalled one's never does
	// (deliveries to one receiver keep their order).
	next := submit(t, e, "GET", "/api/customers/snapshot", nil)
	e.Advance("5s")
	e.R.WaitFor("job:finished", next)
	if got := e.R.Find("job:finished"); len(got) != 1 {
		t.Fatalf("job:finished notifications: %d", len(got))
	}
}

// TestProductBatch applies a gzip JSON Lines file: known rows are
// merged, the unknown one is reported in the log, and the mass event
// comes with one event per product.
func TestProductBatch(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished", "product:massUpdate", "product:update")
	var products []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	a, b := products[0]["guid"].(string), products[1]["guid"].(string)
	var file bytes.Buffer
	zw := gzip.NewWriter(&file)
	for _, row := range []map[string]any{{"guid": a, "name": "Batch renamed A"}, {"guid": "00000000-0000-4000-8000-000000000000", "name": "Ghost"}, {"guid": b, "name": "Batch renamed B"}} {
		line, _ := json.Marshal(row)
		zw.Write(append(line, '\n'))
	}
	zw.Close()
	url := "data:application/gzip;base64," + base64.StdEncoding.EncodeToString(file.Bytes())
	id := submit(t, e, "PATCH", "/api/products/batch", map[string]any{"batchFileUrlPath": url})
	e.Advance("5s")
	j := job(t, e, id)
	if j.Status != jobs.Completed || j.Log == nil || !strings.Contains(*j.Log, "3 rows read, 2 records changed, 1 rows skipped") {
		t.Fatalf("batch job: %+v %s", j, deref(j.Log))
	}
	for guid, name := range map[string]string{a: "Batch renamed A", b: "Batch renamed B"} {
		var p struct{ Name string }
		e.Call("GET", "/api/products/"+guid, nil).Data(t, &p)
		if p.Name != name {
			t.Fatalf("product %s: name %q", guid, p.Name)
		}
	}
	mass := e.R.WaitFor("product:massUpdate", "")
	var ids []string
	if err := json.Unmarshal([]byte(mass.Payload.EventInstance), &ids); err != nil || len(ids) != 2 || ids[0] != a || ids[1] != b {
		t.Fatalf("mass instance %q", mass.Payload.EventInstance)
	}
	e.R.WaitFor("product:update", a)
	e.R.WaitFor("product:update", b)
	if r := e.Call("PATCH", "/api/products/batch", map[string]any{}); r.Status != 400 {
		t.Fatalf("no file: %d %s", r.Status, r.Body)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestControlJobList: GET /_sandbox/jobs lists every e-shop's jobs
// without a token, oldest first, with the next transition while open
// and the armed fault; its filters narrow it and bad ones answer 400.
func TestControlJobList(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	done := submit(t, e, "GET", "/api/orders/snapshot", nil)
	e.Advance("5s")
	e.Control("POST", "/_sandbox/jobs/fail-next", map[string]any{"mode": "stall"})
	stalled := submit(t, e, "GET", "/api/customers/snapshot", nil)
	type item struct {
		EshopID                            int
		JobID, Operation, Status, Endpoint string
		NextDue                            *string
		Fault                              string
	}
	var list struct{ Jobs []item }
	r := e.Control("GET", jobs.ControlPath, nil)
	if r.Status != 200 {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	r.Data(t, &list)
	if len(list.Jobs) != 2 {
		t.Fatalf("jobs %+v", list.Jobs)
	}
	first, second := list.Jobs[0], list.Jobs[1]
	if first.JobID != done || first.EshopID != 1001 || first.Status != jobs.Completed || first.NextDue != nil || first.Endpoint != "/api/orders/snapshot" || first.Operation == "" {
		t.Fatalf("first %+v", first)
	}
	if second.JobID != stalled || second.Status != jobs.Pending || second.NextDue == nil || second.Fault != jobs.FaultStall {
		t.Fatalf("second %+v", second)
	}
	e.Control("GET", jobs.ControlPath+"?status=pending&eshop=1001", nil).Data(t, &list)
	if len(list.Jobs) != 1 || list.Jobs[0].JobID != stalled {
		t.Fatalf("filtered %+v", list.Jobs)
	}
	e.Control("GET", jobs.ControlPath+"?eshop=1002", nil).Data(t, &list)
	if len(list.Jobs) != 0 {
		t.Fatalf("e-shop 1002 %+v", list.Jobs)
	}
	for _, q := range []string{"?status=done", "?eshop=x"} {
		if r := e.Control("GET", jobs.ControlPath+q, nil); r.Status != 400 {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
}
