package conformance

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// pendingGroups are endpoint groups whose error cases do not pass yet,
// each with the reason; the ratchet empties this list. A group listed here
// that passes fails the test, so the list only shrinks.
var pendingGroups = map[string]string{}

// TestGroupErrors sends, for every endpoint group, a malformed body to a
// write endpoint (a field of the wrong type, and a body that is not JSON)
// and an unknown id to an endpoint with an identifier in its path, and
// expects the spec's 422 and 404 envelopes. Groups without a body or
// without an identifier say so in the log.
func TestGroupErrors(t *testing.T) {
	s := startSandbox(t)
	f := loadFixtures(t)
	c := &client{s: s, token: f.token(), hc: &http.Client{Timeout: 30 * time.Second}}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(receiver.Close)
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	table := buildTable(f, receiver.URL)
	groups := map[string][]schemas.Endpoint{}
	for _, ep := range cat.Endpoints {
		groups[ep.Group] = append(groups[ep.Group], ep)
	}
	var names []string
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	passed := 0
	for _, g := range names {
		t.Run(g, func(t *testing.T) {
			if _, err := c.do(http.MethodPost, "/_sandbox/reset", nil); err != nil {
				t.Fatal(err)
			}
			var problems []string
			op, why := c.malformed(groups[g], table)
			if why != "" {
				problems = append(problems, why)
			}
			if op == "" {
				t.Logf("malformed body: no endpoint of %s takes a body", g)
			} else {
				t.Logf("malformed body sent to %s", op)
			}
			op, why = c.unknownID(groups[g], table)
			if why != "" {
				problems = append(problems, why)
			}
			if op == "" {
				t.Logf("unknown id: no endpoint of %s has an identifier in its path", g)
			} else {
				t.Logf("unknown id sent to %s", op)
			}
			reason, pending := pendingGroups[g]
			switch {
			case len(problems) > 0 && pending:
				t.Logf("pending (%s): %s", reason, strings.Join(problems, "; "))
			case len(problems) > 0:
				t.Errorf("%s", strings.Join(problems, "; "))
			case pending:
				t.Errorf("group %s passes now: remove it from pendingGroups", g)
			default:
				passed++
			}
		})
	}
	t.Logf("%d/%d groups answer malformed bodies with 422 and unknown ids with 404", passed, len(names))
}

// malformed sends two bad bodies to the group's first write endpoint with
// a request body (synchronous ones first); it returns the operation used
// ("" when none) and why it failed ("" when both answer 422 with the
// spec's envelope).
func (c *client) malformed(eps []schemas.Endpoint, table map[string]*entry) (string, string) {
	eps = append([]schemas.Endpoint(nil), eps...)
	sort.SliceStable(eps, func(i, j int) bool { return !eps[i].Async && eps[j].Async })
	for _, ep := range eps {
		if ep.Request == "" {
			continue
		}
		vars, why := c.prepare(table[ep.Operation])
		if why != "" {
			return ep.Operation, why
		}
		path, ok := resolvePath(ep, vars)
		if !ok {
			continue
		}
		field, body := wrongType(ep.Operation)
		a, err := c.do(ep.Method, path, body)
		if err != nil {
			return ep.Operation, err.Error()
		}
		if why := envelope(a, 422, "schema-mismatch", field); why != "" {
			return ep.Operation, fmt.Sprintf("%s %s with %s: %s", ep.Method, ep.Path, mustJSON(body), why)
		}
		a, err = c.do(ep.Method, path, `{"data": {`)
		if err != nil {
			return ep.Operation, err.Error()
		}
		if why := envelope(a, 422, "invalid-json", "body"); why != "" {
			return ep.Operation, fmt.Sprintf("%s %s with a truncated body: %s", ep.Method, ep.Path, why)
		}
		return ep.Operation, ""
	}
	return "", ""
}

// wrongType builds a body whose top-level field (data, or the batch
// endpoints' batchFileUrlPath) has the wrong JSON type, and names that
// field as the error's instance must.
func wrongType(op string) (string, any) {
	body := shape.RequestBody(op)
	field := "data"
	if !body.HasProp(field) {
		props := body.Props()
		sort.Strings(props)
		if len(props) > 0 {
			field = props[0]
		}
	}
	var bad any = 42
	if top := body.Prop(field); top.Is("integer") || top.Is("number") {
		bad = "not a number"
	}
	return field, map[string]any{field: bad}
}

// unknownID calls the group's endpoint that has an identifier in its
// path with an id no record has; it returns the operation used and why it
// failed ("" when it answers 404).
func (c *client) unknownID(eps []schemas.Endpoint, table map[string]*entry) (string, string) {
	for _, ep := range sortForLookup(eps) {
		en := table[ep.Operation]
		param := idParam(ep)
		if param == "" {
			continue
		}
		vars, why := c.prepare(en)
		if why != "" {
			return ep.Operation, why
		}
		real := vars[param]
		for _, p := range ep.PathParams {
			if _, ok := vars[p]; !ok && p != param {
				vars = nil
				break
			}
		}
		if vars == nil {
			continue
		}
		vars[param] = unknownValue(real)
		path := ep.Path
		for _, p := range ep.PathParams {
			path = strings.Replace(path, "{"+p+"}", url.PathEscape(vars[p]), 1)
		}
		var body any
		if ep.Request != "" {
			body = en.body
		}
		a, err := c.do(ep.Method, path, body)
		if err != nil {
			return ep.Operation, err.Error()
		}
		if why := envelope(a, 404, "not-found", ""); why != "" {
			return ep.Operation, fmt.Sprintf("%s %s: %s", ep.Method, path, why)
		}
		return ep.Operation, ""
	}
	return "", ""
}

// sortForLookup tries reads first: an unknown id is best shown by a GET.
func sortForLookup(eps []schemas.Endpoint) []schemas.Endpoint {
	out := append([]schemas.Endpoint(nil), eps...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Method == http.MethodGet && out[j].Method != http.MethodGet })
	return out
}

// notIDs are path parameters that select a variant of an endpoint
// rather than name a record.
var notIDs = map[string]bool{"gallery": true, "type": true, "format": true, "location": true}

// idParam is the path parameter naming a record (the last one), "" when
// the endpoint has none.
func idParam(ep schemas.Endpoint) string {
	for i := len(ep.PathParams) - 1; i >= 0; i-- {
		if p := ep.PathParams[i]; !notIDs[p] {
			return p
		}
	}
	return ""
}

var (
	digits = regexp.MustCompile(`^[0-9]+$`)
	guidRe = regexp.MustCompile(`^[0-9a-f]{8}-`)
)

// unknownValue is an id of the same form as a real one that no record
// has.
func unknownValue(real string) string {
	switch {
	case digits.MatchString(real) && len(real) >= 9:
		return "2099999999"
	case digits.MatchString(real):
		return "999999"
	case guidRe.MatchString(real):
		return "00000000-0000-4000-8000-0000000000ff"
	}
	return "no-such-record"
}

// resolvePath fills an endpoint's path from variables.
func resolvePath(ep schemas.Endpoint, vars map[string]string) (string, bool) {
	path := ep.Path
	for _, p := range ep.PathParams {
		v, ok := vars[p]
		if !ok {
			return "", false
		}
		path = strings.Replace(path, "{"+p+"}", url.PathEscape(v), 1)
	}
	return path, true
}

// envelope checks an error answer: status, data null, one error with the
// code (and the instance, when given) and a message.
func envelope(a *answer, status int, code, instance string) string {
	if a.status != status {
		return fmt.Sprintf("status %d, want %d: %s", a.status, status, a)
	}
	if a.get("data").Type != 0 && a.get("data").Raw != "null" {
		return "data is not null: " + a.String()
	}
	errs := a.get("errors").Array()
	if len(errs) == 0 {
		return "no error in the envelope: " + a.String()
	}
	if got := errs[0].Get("errorCode").String(); got != code {
		return fmt.Sprintf("errorCode %q, want %q", got, code)
	}
	if instance != "" && errs[0].Get("instance").String() != instance {
		return fmt.Sprintf("instance %q, want %q", errs[0].Get("instance").String(), instance)
	}
	if errs[0].Get("message").String() == "" {
		return "the error has no message"
	}
	return ""
}
