package scenario

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/eshop-sandbox/sandbox/schemas"
)

const validScenario = `name: every kind once
description: parses
strict: true
seed: 7
clock: {start: "2025-06-01T09:00:00Z", frozen: true}
fixtures: embedded
limits: {perToken: 3, bucketLeak: 250ms}
addon:
  name: example-addon
  eshop: 1001
  url: http://127.0.0.1:${ADDON_PORT}
  command: ["${SANDBOX_BIN}", "example-addon", "--listen", "127.0.0.1:${ADDON_PORT}"]
faults:
  - name: orders-429
    match: {operation: GetListOfOrders, nth: 2}
    respond: {status: 429, retryAfter: 2s}
  - name: slow-orders
    match: {path: /api/orders/*, probability: 0.5, seed: 3}
    latency: 100ms
  - name: drop
    trigger: header
    close: true
  - name: token-dies
    match: {tokenKind: addon}
    expireToken: {after: 3}
  - name: lock
    match: {method: PATCH}
    holdLock: {for: 5s}
  - name: job-fails
    job: {outcome: fail}
  - name: bucket
    match: {header: {X-Burst: "*"}}
    fillBucket: true
  - name: window
    match: {eshop: 1002}
    maintenance: {for: 10m, message: Upgrading}
  - name: bad-sig
    match: {event: order:create}
    webhook: {fault: bad-signature}
  - name: late
    webhook: {fault: delay, delay: 2s}
steps:
  - install: {}
  - emit: {event: order:create, instance: "2025000001"}
  - call: {method: GET, path: /api/orders, expect: {status: 200}}
  - advanceClock: 3h
  - setClock: "2025-06-02T09:00:00Z"
  - wait: 1s
  - expectRequest: {match: {method: GET, path: /api/orders/**}, within: 5s, header: {Content-Type: application/json}}
  - expectNoRequest: {match: {method: DELETE}, within: 1s}
  - expectWebhookAck: {event: order:create}
  - expectWebhookRejected: {event: order:create, within: 5s}
  - expectBackoff: {match: {operation: GetListOfOrders}}
  - expectReport: {rules: [retried-unchanged]}
`

func TestParseValid(t *testing.T) {
	sc, err := Parse("ok.yaml", []byte(validScenario))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "every kind once" || !sc.Strict || sc.Seed != 7 || sc.Addon.Eshop != 1001 {
		t.Fatalf("scenario fields: %+v", sc)
	}
	if want := time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC); !sc.Clock.StartTime().Equal(want) {
		t.Errorf("clock start %v, want %v", sc.Clock.StartTime(), want)
	}
	kinds := map[string]bool{}
	for _, f := range sc.Faults {
		kinds[f.Kind()] = true
		if f.Pos.Line == 0 {
			t.Errorf("fault %s has no position", f.Name)
		}
	}
	for _, k := range []string{KindRespond, KindLatency, KindClose, KindExpireToken, KindHoldLock, KindJobFail, KindFillBucket, KindMaintenance, KindWebhookSignature, KindWebhookDelay} {
		if !kinds[k] {
			t.Errorf("fault kind %s not parsed", k)
		}
	}
	var stepKinds []string
	for _, s := range sc.Steps {
		stepKinds = append(stepKinds, s.Kind())
	}
	want := []string{StepInstall, StepEmit, StepCall, StepAdvanceClock, StepSetClock, StepWait, StepExpectRequest, StepExpectNoRequest,
		StepExpectWebhookAck, StepExpectWebhookRejected, StepExpectBackoff, StepExpectReport}
	if !reflect.DeepEqual(stepKinds, want) {
		t.Errorf("step kinds %v, want %v", stepKinds, want)
	}
	if got := sc.Faults[0].Respond.RetryAfter.D(); got != 2*time.Second {
		t.Errorf("retryAfter %v", got)
	}
	if sc.Steps[0].Pos.Line != 43 || sc.Steps[0].Pos.Column != 5 {
		t.Errorf("first step at %d:%d, want 43:5", sc.Steps[0].Pos.Line, sc.Steps[0].Pos.Column)
	}
}

// TestParseProblems: every mistake is reported with the file, line and
// column, in words a person understands.
func TestParseProblems(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string // substrings of the error, in order
	}{
		{"empty", "", []string{"bad.yaml:1:1: the file is empty"}},
		{"syntax", "name: x\nfaults:\n  - name: a\n   respond: {status: 500}\n", []string{"bad.yaml:3:3: not valid YAML in the block that starts here: did not find expected '-' indicator"}},
		{"flow syntax", "name: x\nsteps:\n- [unclosed\n", []string{"bad.yaml:3:1: not valid YAML in the block that starts here: did not find expected ',' or ']'"}},
		{"tab", "name: x\nsteps:\n  - wait: 1s\n\tfoo: 1\n", []string{"bad.yaml:3:", "not valid YAML: found a tab character"}},
		{"duplicate key", "name: x\nname: y\n", []string{`bad.yaml:2:1: mapping key "name" already defined at line 1`}},
		{"unknown top field", "name: x\nstepz: []\n", []string{`bad.yaml:2:1: unknown field "stepz"; known fields here: addon, clock, description, faults, fixtures, limits, name, sandbox, seed, steps, strict`}},
		{"unknown fault field", "name: x\nfaults:\n  - name: a\n    respnd: {status: 500}\n", []string{`bad.yaml:4:5: faults[0]: unknown field "respnd"`, "respond"}},
		{"status as string", "name: x\nfaults:\n  - name: a\n    respond: {status: \"500\"}\n", []string{`bad.yaml:4:23: faults[0].respond.status: expected integer, but got string`}},
		{"status not allowed", "name: x\nfaults:\n  - name: a\n    respond: {status: 418}\n", []string{`bad.yaml:4:23: faults[0].respond.status: value must be one of`}},
		{"missing name", "steps: []\n", []string{`bad.yaml:1:1: missing properties: 'name'`}},
		{"bad duration", "name: x\nsteps:\n  - wait: 5 minutes\n", []string{`bad.yaml:3:11: steps[0].wait: not a duration; write it like 250ms, 30s, 5m or 3h`}},
		{"bad time", "name: x\nclock: {start: tomorrow}\n", []string{`bad.yaml:2:16: clock.start: not a date-time`}},
		{"two actions", "name: x\nfaults:\n  - name: a\n    close: true\n    fillBucket: true\n", []string{`bad.yaml:3:5: faults[0]: fault "a" has 2 actions (close, fillBucket); give exactly one`}},
		{"no action", "name: x\nfaults:\n  - name: a\n", []string{`bad.yaml:3:5: faults[0]: fault "a" does nothing`}},
		{"duplicate names", "name: x\nfaults:\n  - name: a\n    close: true\n  - name: a\n    close: true\n", []string{`bad.yaml:5:11: faults[1].name: fault name "a" is already used by faults[0]`}},
		{"webhook fault with path", "name: x\nfaults:\n  - name: a\n    match: {path: /api/orders}\n    webhook: {fault: duplicate}\n", []string{`bad.yaml:4:19: faults[0].match.path: a webhook fault matches deliveries`}},
		{"delay without delay", "name: x\nfaults:\n  - name: a\n    webhook: {fault: delay}\n", []string{`faults[0].webhook: webhook fault delay needs a delay`}},
		{"header trigger with match", "name: x\nfaults:\n  - name: a\n    trigger: header\n    match: {method: GET}\n    close: true\n", []string{`bad.yaml:5:12: faults[0].match: fault "a" is triggered by the request header only`}},
		{"nth and times", "name: x\nfaults:\n  - name: a\n    match: {nth: 2, times: 3}\n    close: true\n", []string{`faults[0].match: nth (only the nth call) and times`}},
		{"retryAfter on a 503", "name: x\nfaults:\n  - name: a\n    respond: {status: 503, retryAfter: 1m}\n", []string{`faults[0].respond.retryAfter: the service sends Retry-After only when the rate bucket is full (a 429), never with 503`}},
		{"retryAfter on a 423", "name: x\nfaults:\n  - name: a\n    respond: {status: 423, retryAfter: 2s}\n", []string{`faults[0].respond.retryAfter: the service sends Retry-After only when the rate bucket is full (a 429), never with 423`}},
		{"retryAfter under a second", "name: x\nfaults:\n  - name: a\n    respond: {status: 429, retryAfter: 500ms}\n", []string{`faults[0].respond.retryAfter: Retry-After is an HTTP date with whole seconds`}},
		{"zero latency", "name: x\nfaults:\n  - name: a\n    latency: 0s\n", []string{`bad.yaml:4:14: faults[0].latency: the duration must be above zero`}},
		{"two step kinds", "name: x\nsteps:\n  - wait: 1s\n    advanceClock: 1h\n", []string{`bad.yaml:3:5: steps[0]: the step has 2 kinds (advanceClock, wait)`}},
		{"empty step", "name: x\nsteps:\n  - name: nothing\n", []string{`steps[0]: the step does nothing`}},
		{"install without addon", "name: x\nsteps:\n  - install: {}\n", []string{`steps[0].install: which add-on?`, `steps[0].install: which e-shop?`}},
		{"unknown report rule", "name: x\nsteps:\n  - expectReport: {rules: [rude]}\n", []string{`steps[0].expectReport.rules[0]: value must be one of`}},
		{"two documents", "name: x\n---\nname: y\n", []string{"bad.yaml:2:1: a scenario file holds one YAML document"}},
		{"several problems", "name: x\nfaults:\n  - name: a\n    respond: {status: \"x\"}\n  - name: b\n    latency: 1 sec\n", []string{"bad.yaml:4:", "bad.yaml:6:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("error is %T, not Problems", err)
			}
			msg := err.Error()
			at := 0
			for _, w := range c.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error does not contain %q (in order):\n%s", w, msg)
				}
				at += i + len(w)
			}
			for _, p := range ps {
				if p.Line < 1 || p.Column < 1 {
					t.Errorf("problem without position: %+v", p)
				}
			}
		})
	}
}

// TestSchemaMatchesModel keeps scenario.schema.json and the Go model in
// step: every object in the schema allows exactly the yaml fields of the
// type it decodes into.
func TestSchemaMatchesModel(t *testing.T) {
	raw, err := schemas.FS.ReadFile(SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		t.Fatal(err)
	}
	defs := root["$defs"].(map[string]any)
	resolve := func(s map[string]any) map[string]any {
		for {
			ref, ok := s["$ref"].(string)
			if !ok {
				return s
			}
			s = defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		}
	}
	checked := 0
	var walk func(s map[string]any, typ reflect.Type, where string)
	walk = func(s map[string]any, typ reflect.Type, where string) {
		s = resolve(s)
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			if typ.Kind() == reflect.Slice && typ.Elem().Kind() != reflect.Uint8 {
				if items, ok := s["items"].(map[string]any); ok {
					s = resolve(items)
				}
			}
			typ = typ.Elem()
		}
		// Types that read themselves (a duration, "all" or a list) are
		// not objects of the schema.
		if typ.Kind() != reflect.Struct || reflect.PointerTo(typ).Implements(reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()) {
			return
		}
		props, _ := s["properties"].(map[string]any)
		var names []string
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		if want := yamlFields(typ); !reflect.DeepEqual(names, want) {
			t.Errorf("%s (%s): schema has %v, model has %v", where, typ.Name(), names, want)
		}
		if s["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties must be false so typos are caught", where)
		}
		checked++
		for _, n := range names {
			if f, ok := fieldByTag(typ, n); ok {
				walk(props[n].(map[string]any), f.Type, where+"."+n)
			}
		}
	}
	walk(root, reflect.TypeOf(Scenario{}), "scenario")
	if checked < 15 {
		t.Fatalf("only %d objects compared", checked)
	}
}

// TestReportRulesInSchema: the schema's list of report rules is the
// report's.
func TestReportRulesInSchema(t *testing.T) {
	raw, _ := schemas.FS.ReadFile(SchemaFile)
	var root struct {
		Defs struct {
			Step struct {
				Properties struct {
					ExpectReport struct {
						Properties struct {
							Rules struct {
								Items struct {
									Enum []string `json:"enum"`
								} `json:"items"`
							} `json:"rules"`
						} `json:"properties"`
					} `json:"expectReport"`
				} `json:"properties"`
			} `json:"step"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &root); err != nil {
		t.Fatal(err)
	}
	if got := root.Defs.Step.Properties.ExpectReport.Properties.Rules.Items.Enum; !reflect.DeepEqual(got, RuleNames()) {
		t.Fatalf("schema rules %v, report rules %v", got, RuleNames())
	}
}
