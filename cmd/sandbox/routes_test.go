package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of the command tests")

// TestRoutesGolden pins the output of `sandbox routes`: a change to the
// registry table shows up as a diff of testdata/routes.golden (refresh
// with go test ./cmd/sandbox -run TestRoutesGolden -update).
func TestRoutesGolden(t *testing.T) {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"routes"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "routes.golden")
	if *updateGolden {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("sandbox routes changed; if intended, run with -update. Got:\n%s", out.String())
	}
}

// TestRoutesPipeline: --pipeline lists the live steps in the order a
// request takes them, and the route table shows each alias under its
// route (the same operation, not a rewrite).
func TestRoutesPipeline(t *testing.T) {
	var out bytes.Buffer
	if err := printPipeline(&out, true); err != nil {
		t.Fatal(err)
	}
	var steps []struct{ Stage, Name string }
	if err := json.Unmarshal(out.Bytes(), &steps); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range steps {
		names = append(names, s.Name)
	}
	want := "call host traffic cross-site limits body write-lock faults endpoint"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("pipeline %q, want %q", got, want)
	}
	rows, err := routeTable()
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, r := range rows {
		for _, a := range r.Aliases {
			found[a.Method+" "+a.Path] = r.Operation
		}
	}
	if found["PATCH /orders/{code}/status"] != "UpdateOrderStatus" || found["POST /api/products/{guid}/gifts"] != "SetGiftsToProduct" {
		t.Fatalf("aliases %v", found)
	}
}

// TestRoutesModules: the module column is the live table the 403
// module-not-enabled check reads.
func TestRoutesModules(t *testing.T) {
	rows, err := routeTable()
	if err != nil {
		t.Fatal(err)
	}
	module := map[string]string{}
	for _, r := range rows {
		module[r.Operation] = r.Module
	}
	for op, want := range map[string]string{
		"GetListOfPriceLists": "pricelists",
		"CreatePricelist":     "pricelists",
		"GetListOfProducts":   "",
		"CreateOrder":         "",
	} {
		if got, ok := module[op]; !ok || got != want {
			t.Errorf("%s: module %q (listed %v), want %q", op, got, ok, want)
		}
	}
	var out bytes.Buffer
	if err := printRoutes(&out, rows); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[2] == "GetListOfPriceLists" && f[len(f)-1] != "pricelists" {
			t.Fatalf("table line %q does not end in its module", l)
		}
	}
}
