package openapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/openapi"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestControlDocument: the control plane's document, served by a sandbox,
// has one operation per control route of the live table, with its summary,
// its path variables and their patterns, and the build's version.
func TestControlDocument(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Version: "v9.9.9"})
	resp, err := http.Get(s.URL + openapi.ControlPath)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, raw)
	}
	var d struct {
		Info  struct{ Version string }
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Summary     string
			Parameters  []struct {
				Name   string
				Schema struct{ Pattern string }
			}
			Responses map[string]any
		}
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if d.Info.Version != "v9.9.9" {
		t.Errorf("info.version %q", d.Info.Version)
	}
	n := 0
	for _, rt := range s.App.Routes() {
		if !rt.IsControl() || strings.HasSuffix(rt.Path, "/") {
			continue
		}
		n++
		op, ok := d.Paths[rt.Template()][strings.ToLower(rt.Method)]
		if !ok || op.OperationID != rt.Operation || op.Summary != rt.Summary {
			t.Errorf("%s %s (%s) missing or different: %+v", rt.Method, rt.Template(), rt.Operation, op)
			continue
		}
		if _, ok := op.Responses["4XX"]; !ok {
			t.Errorf("%s: no 4XX answer", rt.Operation)
		}
		params := rt.PathParams()
		if len(op.Parameters) != len(params) {
			t.Errorf("%s: %d parameters, want %d", rt.Operation, len(op.Parameters), len(params))
			continue
		}
		for i, p := range params {
			if op.Parameters[i].Name != p.Name || (p.Pattern != "" && op.Parameters[i].Schema.Pattern != "^(?:"+p.Pattern+")$") {
				t.Errorf("%s: parameter %+v, want %+v", rt.Operation, op.Parameters[i], p)
			}
		}
		if len(params) > 0 {
			if _, ok := op.Responses["404"]; !ok {
				t.Errorf("%s: a path with variables documents no 404", rt.Operation)
			}
		}
	}
	ops := 0
	for _, item := range d.Paths {
		ops += len(item)
	}
	if ops != n || n < 40 {
		t.Fatalf("%d operations for %d control routes", ops, n)
	}
	if _, ok := d.Paths["/_sandbox/"]; ok {
		t.Error("the trailing-slash alias is documented (OpenAPI tools refuse it)")
	}
}

// TestControlDocumentNeedsSummaries: a control route without a summary
// cannot be documented.
func TestControlDocumentNeedsSummaries(t *testing.T) {
	routes := []api.Route{
		{Operation: "sandbox.a", Method: http.MethodGet, Path: "/_sandbox/a", Summary: "A"},
		{Operation: "GetListOfOrders", Method: http.MethodGet, Path: "/api/orders"}, // not control: no summary needed
	}
	if _, err := openapi.BuildControl(routes, openapi.ControlOptions{}); err != nil {
		t.Fatal(err)
	}
	routes = append(routes, api.Route{Operation: "sandbox.b", Method: http.MethodPost, Path: "/_sandbox/b"})
	if _, err := openapi.BuildControl(routes, openapi.ControlOptions{}); err == nil || !strings.Contains(err.Error(), "sandbox.b") {
		t.Fatalf("err %v, want one naming sandbox.b", err)
	}
}
