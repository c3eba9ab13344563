package openapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/openapi"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestControlAnswersTyped: the control operations an add-on test uses
// answer a typed envelope in the control document, their data's fields
// named (and the verdicts, counters and enums described), not the
// generic Envelope.
func TestControlAnswersTyped(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	resp, err := http.Get(s.URL + openapi.ControlPath)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
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
	data := map[string]map[string]any{}
	for _, item := range d.Paths {
		for _, op := range item {
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
