package openapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/openapi"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestControlAnswersTyped: the control operations an add-on test uses
// answer a typed envelope in the control document, their data's fields
// named (and the verdicts, counters and enums described), not the
// generic Envelope.
func TestControlAnswersTyped(t *testing.T) {
	raw := controlDocument(t)
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Responses   map[string]struct {
				Content map[string]struct {
					Schema json.RawMessage
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	// These answer documents of their own (HTML or JSON index, the two
	// OpenAPI documents, HAR), not an envelope.
	untyped := map[string]bool{"sandbox.index": true, "sandbox.index.bare": true, "sandbox.openapi": true, "sandbox.openapi.control": true, "sandbox.traffic.har": true}
	data := map[string]map[string]any{}
	for _, item := range d.Paths {
		for _, op := range item {
			if _, ok := op.Responses["2XX"]; !ok && !untyped[op.OperationID] {
				t.Errorf("%s answers the generic envelope, not a typed one: give its route an Answer", op.OperationID)
			}
			ok := op.Responses["2XX"]
			var sch struct {
				Properties struct {
					Data map[string]any
				}
			}
			if c, found := ok.Content["application/json"]; found && json.Unmarshal(c.Schema, &sch) == nil && sch.Properties.Data != nil {
				data[op.OperationID] = sch.Properties.Data
			}
		}
	}
	// field reads a property's schema along a path of property names
	// ("[]" steps into array items).
	field := func(s map[string]any, path ...string) map[string]any {
		for _, p := range path {
			if p == "[]" {
				s, _ = s["items"].(map[string]any)
			} else {
				props, _ := s["properties"].(map[string]any)
				s, _ = props[p].(map[string]any)
			}
			if s == nil {
				return nil
			}
		}
		return s
	}
	for _, tc := range []struct {
		op   string
		path []string
		want string // in the description or the enum; "" only for a typed field
	}{
		{"sandbox.addons.put", []string{"clientId"}, ""},
		{"sandbox.addons.put", []string{"tokenUrl"}, ""},
		{"sandbox.addons.list", []string{"addons", "[]", "accessTokenUrl"}, ""},
		{"sandbox.install", []string{"passed"}, "verdict"},
		{"sandbox.install", []string{"result"}, "failed"},
		{"sandbox.installs.get", []string{"problems"}, "handshake"},
		{"sandbox.installs.list", []string{"installs", "[]", "passed"}, "verdict"},
		{"sandbox.events.emit", []string{"eventInstance"}, ""},
		{"sandbox.deliveries", []string{"deliveries", "[]", "status"}, "delivered"},
		{"sandbox.deliveries", []string{"deliveries", "[]", "attempts", "[]", "responseStatus"}, "HTTP status"},
		{"sandbox.deliveries.replay", []string{"delivery", "id"}, ""},
		{"sandbox.faults", []string{"faults", "[]", "hits"}, "acted on"},
		{"sandbox.faults.add", []string{"matched"}, "conditions"},
		{"sandbox.faults.remove", []string{"removed"}, ""},
		{"sandbox.faults.clear", []string{"removed"}, ""},
		{"sandbox.report", []string{"clean"}, "verdict"},
		{"sandbox.report.clear", []string{"findings"}, ""},
		{"sandbox.traffic", []string{"events", "[]", "seq"}, ""},
		{"sandbox.jobs", []string{"jobs", "[]", "jobId"}, ""},
		{"sandbox.inbox.get", []string{"entries"}, ""},
		{"sandbox.addons.delete", []string{"revoked"}, ""},
		{"sandbox.addons.approve", []string{"approved"}, ""},
		{"sandbox.addons.suspend", []string{"addon", "status"}, ""},
	} {
		sch, ok := data[tc.op]
		if !ok {
			t.Errorf("%s: no typed answer", tc.op)
			continue
		}
		f := field(sch, tc.path...)
		if f == nil || f["type"] == nil && f["enum"] == nil {
			t.Errorf("%s: data.%s is not in its answer schema: %v", tc.op, strings.Join(tc.path, "."), f)
			continue
		}
		if tc.want != "" {
			text, _ := f["description"].(string)
			if enum, err := json.Marshal(f["enum"]); err == nil {
				text += string(enum)
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("%s: data.%s does not say %q: %v", tc.op, strings.Join(tc.path, "."), tc.want, f)
			}
		}
	}
}

// TestControlBodiesTyped: the control operations that take a JSON body
// document it field by field, each field described, not as "an object,
// see the summary".
func TestControlBodiesTyped(t *testing.T) {
	raw := controlDocument(t)
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			RequestBody *struct {
				Content map[string]struct {
					Schema struct {
						Properties map[string]map[string]any
					}
				}
			} `json:"requestBody"`
		}
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	bodies := map[string]map[string]map[string]any{}
	for _, item := range d.Paths {
		for _, op := range item {
			if op.RequestBody != nil {
				bodies[op.OperationID] = op.RequestBody.Content["application/json"].Schema.Properties
				if len(bodies[op.OperationID]) == 0 && op.OperationID != "sandbox.faults.add" {
					t.Errorf("%s: its body is documented without fields: give its route a Body (api.NoData{} when it takes none)", op.OperationID)
				}
			}
		}
	}
	for op, fields := range map[string][]string{
		"sandbox.install":             {"addon"},
		"sandbox.events.emit":         {"eshop", "event", "instance", "addon", "eventCreated"},
		"sandbox.clock.move":          {"advance", "set"},
		"sandbox.limits.set":          {"off", "perIp", "perToken", "bucketCapacity", "bucketLeak", "writeLockTimeout"},
		"sandbox.maintenance":         {"on", "message", "for"},
		"sandbox.deprecations":        {"operation", "sunset"},
		"sandbox.oauth.put":           {"apiTokenLifetime"},
		"sandbox.jobs.fail-next":      {"mode", "log", "eshop"},
		"sandbox.paymentGateways.put": {"url"},
		"sandbox.addons.approve":      {"endpoints"},
		"sandbox.addons.put":          {"installUrl", "webhookUrl", "endpoints", "approved"},
		"sandbox.orderStatuses.put":   {"name", "markAsPaid"},
		"sandbox.inbox.receive":       {"eshopId", "event", "eventCreated", "eventInstance"},
	} {
		props, ok := bodies[op]
		if !ok {
			t.Errorf("%s: no request body documented", op)
			continue
		}
		for _, f := range fields {
			if desc, _ := props[f]["description"].(string); desc == "" {
				t.Errorf("%s: body field %s missing or not described: %v", op, f, props[f])
			}
		}
	}
}

// controlDocument serves the control-plane OpenAPI document from a fresh
// sandbox, as a client fetches it.
func controlDocument(t *testing.T) []byte {
	t.Helper()
	s := sandboxtest.New(t, sandbox.Config{})
	resp, err := http.Get(s.URL + openapi.ControlPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
