package scenario

import (
	"net/http"
	"reflect"
	"testing"
)

func TestPathMatches(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"/api/orders", "/api/orders", true},
		{"/api/orders", "/api/orders/", true},
		{"/api/orders", "/api/orders/2025000001", false},
		{"/api/orders/*", "/api/orders/2025000001", true},
		{"/api/orders/*", "/api/orders", false},
		{"/api/orders/*", "/api/orders/1/status", false},
		{"/api/orders/*/status", "/api/orders/1/status", true},
		{"/api/**", "/api/orders/1/status", true},
		{"/api/**", "/api", true},
		{"/api/**", "/eshops/1001/action", false},
		{"/api/order*", "/api/orders", true},
		{"/api/order*", "/api/products", false},
		{"/api/[", "/api/[", false}, // a malformed pattern matches nothing
	}
	for _, c := range cases {
		if got := PathMatches(c.pattern, c.path); got != c.want {
			t.Errorf("PathMatches(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

func TestConditions(t *testing.T) {
	call := Facts{Method: "PATCH", Path: "/api/orders/2025000001/status", Operation: "UpdateOrderStatus", Eshop: 1001,
		Token: "tok-a", TokenKind: "addon", Addon: "my-addon", Header: http.Header{"X-Trace": {"on"}, "Accept": {"application/json"}}}
	cases := []struct {
		name string
		m    Match
		c    Facts
		want bool
	}{
		{"empty matches all", Match{}, call, true},
		{"method any case", Match{Method: "patch"}, call, true},
		{"method differs", Match{Method: "GET"}, call, false},
		{"path glob", Match{Path: "/api/orders/*/status"}, call, true},
		{"path differs", Match{Path: "/api/products/**"}, call, false},
		{"operation", Match{Operation: "UpdateOrderStatus"}, call, true},
		{"operation differs", Match{Operation: "GetOrderDetail"}, call, false},
		{"eshop", Match{Eshop: 1001}, call, true},
		{"eshop differs", Match{Eshop: 1002}, call, false},
		{"token", Match{Token: "tok-a"}, call, true},
		{"token differs", Match{Token: "tok-b"}, call, false},
		{"token kind", Match{TokenKind: "addon"}, call, true},
		{"token kind differs", Match{TokenKind: "private"}, call, false},
		{"add-on", Match{Addon: "my-addon"}, call, true},
		{"add-on differs", Match{Addon: "example-addon"}, call, false},
		{"add-on of a private call", Match{Addon: "my-addon"}, Facts{Method: "GET", Path: "/api/orders", TokenKind: "private"}, false},
		{"header value", Match{Header: map[string]string{"x-trace": "on"}}, call, true},
		{"header any value", Match{Header: map[string]string{"X-Trace": "*"}}, call, true},
		{"header wrong value", Match{Header: map[string]string{"X-Trace": "off"}}, call, false},
		{"header absent", Match{Header: map[string]string{"X-Other": "*"}}, call, false},
		{"all together", Match{Method: "PATCH", Operation: "UpdateOrderStatus", Eshop: 1001, TokenKind: "addon", Header: map[string]string{"Accept": "application/json"}}, call, true},
		{"one of many fails", Match{Method: "PATCH", Eshop: 1002}, call, false},
		{"event", Match{Event: "order:create"}, Facts{Webhook: true, Event: "order:create", Eshop: 1001}, true},
		{"event differs", Match{Event: "order:create"}, Facts{Webhook: true, Event: "order:update"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.m.Conditions(c.c); got != c.want {
				t.Fatalf("Conditions = %v, want %v", got, c.want)
			}
		})
	}
}

// pickSequence sends n identical calls and returns the name picked for
// each ("" for none).
func pickSequence(m *Matcher, c Facts, n int) []string {
	out := make([]string, n)
	for i := range out {
		if f := m.Pick(c); f != nil {
			out[i] = f.Name
		}
	}
	return out
}

func TestMatcherCounters(t *testing.T) {
	half := 0.5
	get := Facts{Method: "GET", Path: "/api/orders"}
	cases := []struct {
		name   string
		faults []Fault
		c      Facts
		want   []string
	}{
		{"every call", []Fault{{Name: "a", Close: true}}, get, []string{"a", "a", "a"}},
		{"nth", []Fault{{Name: "a", Close: true, Match: Match{Nth: 2}}}, get, []string{"", "a", "", ""}},
		{"times", []Fault{{Name: "a", Close: true, Match: Match{Times: 2}}}, get, []string{"a", "a", "", ""}},
		{"first fault wins", []Fault{{Name: "a", Close: true}, {Name: "b", Close: true}}, get, []string{"a", "a"}},
		{"later fault counts on its own", []Fault{{Name: "a", Close: true, Match: Match{Nth: 1}}, {Name: "b", Close: true, Match: Match{Nth: 2}}}, get, []string{"a", "b", ""}},
		{"times budget only spent when applied", []Fault{{Name: "a", Close: true, Match: Match{Nth: 1}}, {Name: "b", Close: true, Match: Match{Times: 1}}}, get, []string{"a", "b", ""}},
		{"conditions first", []Fault{{Name: "a", Close: true, Match: Match{Method: "POST", Nth: 1}}}, get, []string{"", ""}},
		{"header trigger never picked", []Fault{{Name: "a", Close: true, Trigger: TriggerHeader}}, get, []string{"", ""}},
		{"webhook faults ignore calls", []Fault{{Name: "a", Webhook: &WebhookSpec{Fault: "duplicate"}}}, get, []string{"", ""}},
		{"call faults ignore deliveries", []Fault{{Name: "a", Close: true}}, Facts{Webhook: true, Event: "order:create"}, []string{""}},
		{"webhook nth", []Fault{{Name: "a", Webhook: &WebhookSpec{Fault: "duplicate"}, Match: Match{Event: "order:create", Nth: 2}}}, Facts{Webhook: true, Event: "order:create"}, []string{"", "a", ""}},
		{"probability zero", []Fault{{Name: "a", Close: true, Match: Match{Probability: new(float64)}}}, get, []string{"", "", ""}},
		{"probability one", []Fault{{Name: "a", Close: true, Match: Match{Probability: ptr(1.0)}}}, get, []string{"a", "a", "a"}},
		{"probability with nth applies to that call only", []Fault{{Name: "a", Close: true, Match: Match{Nth: 2, Probability: &half, Seed: 1}}}, get, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewMatcher(c.faults, 1)
			n := len(c.want)
			if c.want == nil {
				got := pickSequence(m, c.c, 6)
				for i, g := range got {
					if i != 1 && g != "" {
						t.Fatalf("call %d picked %q: only the 2nd call may be hit (%v)", i+1, g, got)
					}
				}
				return
			}
			if got := pickSequence(m, c.c, n); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("picked %q, want %q", got, c.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestMatcherProbabilityIsSeeded: the same seed hits the same calls, a
// different seed other calls, and the rate is about the probability.
func TestMatcherProbabilityIsSeeded(t *testing.T) {
	fault := func(seed uint64) []Fault {
		return []Fault{{Name: "p", Close: true, Match: Match{Probability: ptr(0.3), Seed: seed}}}
	}
	c := Facts{Method: "GET", Path: "/api/orders"}
	a := pickSequence(NewMatcher(fault(42), 1), c, 1000)
	b := pickSequence(NewMatcher(fault(42), 1), c, 1000)
	other := pickSequence(NewMatcher(fault(43), 1), c, 1000)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed picked different calls")
	}
	if reflect.DeepEqual(a, other) {
		t.Fatal("a different seed picked the same calls")
	}
	hits := 0
	for _, x := range a {
		if x != "" {
			hits++
		}
	}
	if hits < 240 || hits > 360 {
		t.Fatalf("%d of 1000 calls hit at probability 0.3", hits)
	}
	// Without its own seed a fault uses the scenario's.
	s1 := pickSequence(NewMatcher(fault(0), 9), c, 200)
	s2 := pickSequence(NewMatcher(fault(0), 9), c, 200)
	s3 := pickSequence(NewMatcher(fault(0), 10), c, 200)
	if !reflect.DeepEqual(s1, s2) || reflect.DeepEqual(s1, s3) {
		t.Fatal("the scenario seed does not drive faults without their own")
	}
}

func TestMatcherNamedAndHits(t *testing.T) {
	m := NewMatcher([]Fault{{Name: "a", Close: true, Match: Match{Nth: 1}}, {Name: "b", Trigger: TriggerHeader, Close: true}}, 1)
	if m.Named("b") == nil || m.Named("zzz") != nil {
		t.Fatal("Named")
	}
	pickSequence(m, Facts{Method: "GET"}, 3)
	m.CountHit(m.Named("b"))
	if got := m.Hits(); !reflect.DeepEqual(got, map[string]int{"a": 1, "b": 1}) {
		t.Fatalf("hits %v", got)
	}
	if got := m.Names(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("names %v", got)
	}
}
