package scenario

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

// TestParseFault: a fault sent to a running sandbox is read with the
// scenario file's syntax and rules, and its problems are positioned in
// the body and labelled from the fault down.
func TestParseFault(t *testing.T) {
	cases := []struct {
		name, body string
		want       string // a problem that must be reported; "" for valid
		kind       string
	}{
		{"JSON", `{"name": "slow-down", "match": {"operation": "GetOrderDetail", "addon": "my-addon", "nth": 1}, "respond": {"status": 429, "retryAfter": "1s"}}`, "", KindRespond},
		{"YAML", "match: {path: /api/orders/*}\nlatency: 200ms\n", "", KindLatency},
		{"webhook", `{"match": {"event": "order:create"}, "webhook": {"fault": "bad-signature"}}`, "", KindWebhookSignature},
		{"empty", ``, "send one fault", ""},
		{"a list", `[{"close": true}]`, "a fault is an object", ""},
		{"unknown field", `{"match": {"nth": 1},` + "\n" + ` "respnd": {"status": 500}}`, `2:2: unknown field "respnd"`, ""},
		{"bad status", `{"respond": {"status": 418}}`, "1:24: respond.status: value must be one of", ""},
		{"misspelt operation", `{"match": {"operation": "GetOrderDetial"}, "close": true}`, `1:25: match.operation: "GetOrderDetial" is not an operation of the endpoint catalogue; did you mean "GetOrderDetail"?`, ""},
		{"no action", `{"match": {"nth": 1}}`, "does nothing: give one action", ""},
		{"two actions", `{"close": true, "respond": {"status": 500}}`, "has 2 actions (respond, close)", ""},
		{"add-on on a webhook fault", `{"match": {"addon": "a"}, "webhook": {"fault": "duplicate"}}`, "match.addon: a webhook fault matches deliveries", ""},
		{"nested too deep", `{"close": true, "description": ` + strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5) + `}`, "nest deeper than", ""},
		{"alias bomb", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\nclose: true\n", "beyond its own size", ""},
		{"too large", `{"description": "` + strings.Repeat("x", MaxFaultBody) + `", "close": true}`, "at most 64 KiB", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := ParseFault([]byte(c.body))
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if f.Kind() != c.kind || f.def == nil {
					t.Fatalf("kind %q (def %v), want %q", f.Kind(), f.def, c.kind)
				}
				return
			}
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("error %v (%T), want Problems", err, err)
			}
			if !strings.Contains(ps.Error(), c.want) || strings.Contains(ps.Error(), "faults[0]") {
				t.Fatalf("problems:\n%v\nwant %q, labelled from the fault down", ps, c.want)
			}
		})
	}
}

// TestMatcherRuntimeFaults: faults added while serving join the same
// matcher after the file's, get ids, keep their own counters and can be
// removed one by one or all at once; the file's faults stay.
func TestMatcherRuntimeFaults(t *testing.T) {
	m := NewMatcher([]Fault{{Name: "from-file", Match: Match{Path: "/api/orders"}, Close: true}}, 1)
	named, err := ParseFault([]byte(`{"name": "named", "match": {"path": "/api/products", "nth": 2}, "respond": {"status": 500}}`))
	if err != nil {
		t.Fatal(err)
	}
	unnamed, err := ParseFault([]byte(`{"match": {"path": "/api/products"}, "respond": {"status": 503}}`))
	if err != nil {
		t.Fatal(err)
	}
	if id, err := m.Add(*named); err != nil || id != "f1" {
		t.Fatalf("Add: %q %v", id, err)
	}
	if id, err := m.Add(*unnamed); err != nil || id != "f2" {
		t.Fatalf("Add: %q %v", id, err)
	}
	if _, err := m.Add(*named); err == nil {
		t.Fatal("a second fault with a taken name was added")
	}
	products := Facts{Method: "GET", Path: "/api/products"}
	var picked []string
	for i := 0; i < 3; i++ {
		picked = append(picked, m.Pick(products).Name)
	}
	if got := strings.Join(picked, ","); got != "f2,named,f2" {
		t.Fatalf("picked %s: the nth of each fault counts on its own, first fault in force first", got)
	}
	entries := m.Entries()
	if len(entries) != 3 || entries[0].ID != "" || entries[1].ID != "f1" || entries[1].Matched != 3 || entries[1].Hits != 1 || entries[2].Name() != "f2" || entries[2].Hits != 2 {
		t.Fatalf("entries %+v", entries)
	}
	if def, _ := entries[2].Fault.def.(map[string]any); def["name"] != "f2" {
		t.Fatalf("the unnamed fault's definition carries no name: %v", entries[2].Fault.def)
	}
	if m.Remove("from-file") {
		t.Fatal("a file's fault was removed")
	}
	if !m.Remove("named") || m.Remove("f1") {
		t.Fatal("remove by name")
	}
	if n := m.RemoveRuntime(); n != 1 || m.Len() != 1 || m.Named("from-file") == nil {
		t.Fatalf("RemoveRuntime removed %d, %d left", n, m.Len())
	}
	if id, _ := m.Add(*unnamed); id != "f3" {
		t.Fatalf("ids are not reused: %q", id)
	}
}

// TestMatcherAddWhilePicking: adding and removing faults while calls are
// decided is safe (run with -race).
func TestMatcherAddWhilePicking(t *testing.T) {
	m := NewMatcher(nil, 1)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				m.Pick(Facts{Method: "GET", Path: "/api/orders"})
				_ = m.Entries()
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				f := Fault{Match: Match{Path: "/api/orders"}, Close: true, autoName: true}
				if id, err := m.Add(f); err == nil {
					m.Remove(id)
				}
			}
		}()
	}
	wg.Wait()
	if m.Len() != 0 {
		t.Fatalf("%d faults left", m.Len())
	}
}

// TestParseFaultUnnamedMessages: a fault sent without a name is "the
// fault" in messages, never the stand-in name.
func TestParseFaultUnnamedMessages(t *testing.T) {
	_, err := ParseFault([]byte(`{"close": true, "respond": {"status": 500}}`))
	if err == nil || !strings.Contains(err.Error(), "the fault has 2 actions") || strings.Contains(err.Error(), unnamedFault) {
		t.Fatalf("message %v", err)
	}
}
