package jobs_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
)

// runBatch submits a batch with the given lines, lets it finish and
// checks the job completed with the log word.
func runBatch(t *testing.T, e *evtest.Env, method, path, want string, lines ...map[string]any) {
	t.Helper()
	id := submit(t, e, method, path, map[string]any{"batchFileUrlPath": jsonl(lines...)})
	e.Advance("5s")
	if j := job(t, e, id); j.Status != jobs.Completed || !strings.Contains(deref(j.Log), want) {
		t.Fatalf("%s %s: %+v %s", method, path, j, deref(j.Log))
	}
	e.R.WaitFor("job:finished", id)
}

type changeItem struct {
	GUID       string `json:"guid"`
	ChangeType string `json:"changeType"`
	ChangeTime string `json:"changeTime"`
}

func changesSince(t *testing.T, e *evtest.Env, from time.Time) []changeItem {
	t.Helper()
	var d struct{ Changes []changeItem }
	r := e.Call("GET", "/api/products/changes?itemsPerPage=100&from="+url.QueryEscape(sandbox.FormatTime(from)), nil)
	if r.Status != 200 {
		t.Fatalf("changes: %d %s", r.Status, r.Body)
	}
	r.Data(t, &d)
	return d.Changes
}

// TestBatchUpdateWritesLikeSinglePatch: a line of PATCH /api/products/batch
// goes through the same write as PATCH /api/products/{guid}: the
// product's changeTime moves, the change log shows the edit, and
// product:update fires once for it, exactly as for the single PATCH.
func TestBatchUpdateWritesLikeSinglePatch(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished", "product:update", "product:massUpdate")
	var products []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	viaBatch, viaPatch := products[0]["guid"].(string), products[1]["guid"].(string)
	before := evtest.T0
	edits := func() map[string]int {
		n := map[string]int{}
		for _, c := range changesSince(t, e, before) {
			if c.ChangeType == "edit" {
				n[c.GUID]++
			}
		}
		return n
	}
	seeded := edits() // the fixtures' own history may reach past T0
	e.Advance("1s")
	if r := e.Call("PATCH", "/api/products/"+viaPatch, map[string]any{"data": map[string]any{"name": "Renamed by PATCH"}}); r.Status != 200 {
		t.Fatalf("single PATCH: %d %s", r.Status, r.Body)
	}
	runBatch(t, e, "PATCH", "/api/products/batch", "1 records changed", map[string]any{"guid": viaBatch, "name": "Renamed by batch"})

	for guid, name := range map[string]string{viaBatch: "Renamed by batch", viaPatch: "Renamed by PATCH"} {
		var p struct{ Name, ChangeTime string }
		e.Call("GET", "/api/products/"+guid, nil).Data(t, &p)
		at, err := sandbox.ParseTime(p.ChangeTime)
		if p.Name != name || err != nil || !at.After(before) {
			t.Errorf("product %s: name %q changeTime %q", guid, p.Name, p.ChangeTime)
		}
	}
	after := edits()
	for _, guid := range []string{viaBatch, viaPatch} {
		if after[guid]-seeded[guid] != 1 {
			t.Errorf("product %s: %d edits logged by the write, want 1", guid, after[guid]-seeded[guid])
		}
	}
	e.R.WaitFor("product:update", viaPatch)
	e.R.WaitFor("product:update", viaBatch)
	mass := e.R.WaitFor("product:massUpdate", "")
	if mass.Payload.EventInstance != `["`+viaBatch+`"]` {
		t.Fatalf("mass instance %s", mass.Payload.EventInstance)
	}
	got := map[string]int{}
	for _, n := range e.R.Find("product:update") {
		got[n.Payload.EventInstance]++
	}
	if got[viaBatch] != 1 || got[viaPatch] != 1 || len(got) != 2 {
		t.Fatalf("product:update notifications %v, want one per product", got)
	}
}

// TestBatchDeleteDropsPriceRows: a line of DELETE /api/products/batch is
// the product's DELETE: the change log shows it, and the product's rows
// leave every price list.
func TestBatchDeleteDropsPriceRows(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	var lists []map[string]any
	evtest.Read(t, "eshops/1001/pricelists.json", &lists)
	row := lists[0]["_prices"].([]any)[0].(map[string]any)
	guid, list := row["_productGuid"].(string), jsonText(lists[0]["id"])
	rows := func() int {
		var d struct{ Paginator struct{ TotalCount int } }
		e.Call("GET", "/api/pricelists/"+list+"?guid="+guid, nil).Data(t, &d)
		return d.Paginator.TotalCount
	}
	if rows() == 0 {
		t.Fatal("the product has no price rows in the fixtures")
	}
	runBatch(t, e, "DELETE", "/api/products/batch", "1 records changed", map[string]any{"guid": guid})
	if r := e.Call("GET", "/api/products/"+guid, nil); r.Status != 404 {
		t.Fatalf("deleted product: %d", r.Status)
	}
	if n := rows(); n != 0 {
		t.Fatalf("%d price rows of the deleted product remain", n)
	}
	deleted := false
	for _, c := range changesSince(t, e, evtest.T0) {
		deleted = deleted || c.GUID == guid && c.ChangeType == "delete"
	}
	if !deleted {
		t.Fatal("the change log does not show the delete")
	}
}

// TestPriorityBatchOrdersTheCategory: a line of the products-priority
// batch is a row of PATCH /api/categories/{guid}/productsPriority, so
// the category's product order shows it.
func TestPriorityBatchOrdersTheCategory(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished", "category:update", "category:massUpdate")
	var products []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	guid := products[0]["guid"].(string)
	cat := products[0]["defaultCategory"].(map[string]any)["guid"].(string)
	runBatch(t, e, "PATCH", "/api/categories/products-priority/batch", "1 records changed",
		map[string]any{"categoryGuid": cat, "productGuid": guid, "priority": 7},
		map[string]any{"categoryGuid": cat, "productGuid": "00000000-0000-4000-8000-000000000000", "priority": 1})
	var d struct {
		CategoryProducts []struct {
			ProductGUID string `json:"productGuid"`
			Priority    *int   `json:"priority"`
		}
	}
	e.Call("GET", "/api/categories/"+cat+"/productsPriority", nil).Data(t, &d)
	found := false
	for _, p := range d.CategoryProducts {
		if p.ProductGUID == guid {
			found = p.Priority != nil && *p.Priority == 7
		}
	}
	if !found {
		t.Fatalf("priority not shown: %+v", d.CategoryProducts)
	}
	e.R.WaitFor("category:update", cat)
	e.R.WaitFor("category:massUpdate", "")
}

// TestBatchOfMissingParent: a batch whose path names a parent record
// that does not exist (a price list) answers 404 and queues nothing.
func TestBatchOfMissingParent(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	r := e.Call("PATCH", "/api/pricelists/999999/batch", map[string]any{"batchFileUrlPath": jsonl(map[string]any{"code": "X"})})
	if r.Status != 404 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "999999" {
		t.Fatalf("missing price list: %d %s", r.Status, r.Body)
	}
	var list struct{ Paginator struct{ TotalCount int } }
	e.Call("GET", "/api/system/jobs", nil).Data(t, &list)
	if list.Paginator.TotalCount != 0 {
		t.Fatalf("%d jobs queued", list.Paginator.TotalCount)
	}
}

// TestPrioritySingleAndBatchShareTheField: the single PATCH of a
// category's product priorities and the products-priority batch write
// the same field, which the GET reads: each overwrites what the other
// wrote, in either order, whichever row shape the batch uses.
func TestPrioritySingleAndBatchShareTheField(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	var products []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	guid := products[0]["guid"].(string)
	cat := products[0]["defaultCategory"].(map[string]any)["guid"].(string)
	priority := func() int {
		var d struct {
			CategoryProducts []struct {
				ProductGUID string `json:"productGuid"`
				Priority    *int   `json:"priority"`
			}
		}
		e.Call("GET", "/api/categories/"+cat+"/productsPriority", nil).Data(t, &d)
		for _, p := range d.CategoryProducts {
			if p.ProductGUID == guid && p.Priority != nil {
				return *p.Priority
			}
		}
		return -1
	}
	single := func(n int) {
		r := e.Call("PATCH", "/api/categories/"+cat+"/productsPriority", map[string]any{"data": []any{map[string]any{"productGuid": guid, "priority": n}}})
		if r.Status != 200 {
			t.Fatalf("PATCH: %d %s", r.Status, r.Body)
		}
	}
	steps := []struct {
		name  string
		write func()
		want  int
	}{
		{"single PATCH", func() { single(5) }, 5},
		{"flat batch row", func() {
			runBatch(t, e, "PATCH", "/api/categories/products-priority/batch", "1 records changed",
				map[string]any{"categoryGuid": cat, "productGuid": guid, "priority": 9})
		}, 9},
		{"single PATCH after the batch", func() { single(2) }, 2},
		{"library batch row", func() {
			runBatch(t, e, "PATCH", "/api/categories/products-priority/batch", "1 records changed",
				map[string]any{"categoryGuid": cat, "data": []any{map[string]any{"productGuid": guid, "priority": 11}}})
		}, 11},
	}
	for _, s := range steps {
		s.write()
		if got := priority(); got != s.want {
			t.Fatalf("after the %s: priority %d, want %d", s.name, got, s.want)
		}
	}
}
