package robustness

import (
	"bytes"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// privateToken is the default fixtures' private token with every right
// (fixtures/eshops/1001/credentials.json).
const privateToken = "sbx_prv_538318d5dbe63220d64365f084946f66"

// bad is one malformed request and what makes it malformed.
type bad struct {
	what string
	call sandboxtest.Call
}

// fill puts a value into every path placeholder of a route template.
func fill(path, value string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			b.WriteString(path)
			return b.String()
		}
		j := strings.IndexByte(path[i:], '}')
		b.WriteString(path[:i])
		b.WriteString(value)
		path = path[i+j+1:]
	}
}

// pick chooses, per endpoint group, one endpoint taking a JSON body
// (without path placeholders when the group has one), one pageable list
// and one endpoint with a path placeholder, so the battery covers every
// group.
func pick(eps []schemas.Endpoint) (writes, lists, details []schemas.Endpoint) {
	byGroup := map[string][]schemas.Endpoint{}
	var groups []string
	for _, e := range eps {
		if _, ok := byGroup[e.Group]; !ok {
			groups = append(groups, e.Group)
		}
		byGroup[e.Group] = append(byGroup[e.Group], e)
	}
	sort.Strings(groups)
	for _, g := range groups {
		var w, l, d *schemas.Endpoint
		for i := range byGroup[g] {
			e := &byGroup[g][i]
			switch {
			case e.Request != "" && (w == nil || (len(w.PathParams) > 0 && len(e.PathParams) == 0)):
				w = e
			case e.Pageable && e.Method == http.MethodGet && l == nil:
				l = e
			case e.Method == http.MethodGet && len(e.PathParams) > 0 && d == nil:
				d = e
			}
		}
		for _, x := range []struct {
			e   *schemas.Endpoint
			out *[]schemas.Endpoint
		}{{w, &writes}, {l, &lists}, {d, &details}} {
			if x.e != nil {
				*x.out = append(*x.out, *x.e)
			}
		}
	}
	return writes, lists, details
}

// battery builds the malformed requests.
func battery(t *testing.T) []bad {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	writes, lists, details := pick(cat.Endpoints)
	if len(writes) < 10 || len(lists) < 10 || len(details) < 10 {
		t.Fatalf("too few endpoints to exercise: %d writes, %d lists, %d details", len(writes), len(lists), len(details))
	}
	deep := strings.Repeat("[", 100_000)
	var out []bad
	add := func(what string, c sandboxtest.Call) {
		if c.PrivateToken == "" && c.AccessToken == "" {
			c.PrivateToken = privateToken
		}
		out = append(out, bad{what, c})
	}
	for i, e := range writes {
		path := fill(e.Path, "00000000-0000-4000-8000-000000000000")
		m := e.Method
		add("invalid JSON", sandboxtest.Call{Method: m, Path: path, Body: `{"data": {"name": `})
		add("data of the wrong type", sandboxtest.Call{Method: m, Path: path, Body: `{"data": 12}`})
		add("an array instead of an object", sandboxtest.Call{Method: m, Path: path, Body: `[{"data": {}}]`})
		add("invalid UTF-8", sandboxtest.Call{Method: m, Path: path, Body: []byte("{\"data\": {\"name\": \"\xff\xfe\xfd\"}}")})
		add("no Content-Type", sandboxtest.Call{Method: m, Path: path, Body: `{"data": {}}`, ContentType: "-"})
		add("wrong Content-Type", sandboxtest.Call{Method: m, Path: path, Body: `{"data": {}}`, ContentType: "text/plain"})
		add("deeply nested body", sandboxtest.Call{Method: m, Path: path, Body: `{"data": ` + deep})
		add("trailing garbage", sandboxtest.Call{Method: m, Path: path, Body: `{"data": {}} {"data": {}}`})
		if i < 3 {
			huge := append([]byte(`{"data": {"name": "`), bytes.Repeat([]byte("x"), api.MaxBodyBytes+1024)...)
			add("body over the size limit", sandboxtest.Call{Method: m, Path: path, Body: append(huge, `"}}`...)})
		}
	}
	for _, e := range lists {
		path := fill(e.Path, "00000000-0000-4000-8000-000000000000")
		for _, q := range []string{"page=-1", "page=0", "page=abc", "page=99999999999999999999999", "itemsPerPage=-5", "itemsPerPage=abc", "itemsPerPage=1e9"} {
			add("bad paging "+q, sandboxtest.Call{Path: path + "?" + q})
		}
		for _, name := range e.QueryParams {
			if name == "include" {
				add("unknown include section", sandboxtest.Call{Path: path + "?include=noSuchSection"})
			}
		}
	}
	for _, e := range details {
		for _, v := range []string{"not-a-guid", strings.Repeat("9", 300), "%C3%28", "a%00b"} {
			add("malformed identifier "+v[:min(len(v), 12)], sandboxtest.Call{Path: fill(e.Path, v)})
		}
	}
	for _, e := range lists[:10] {
		path := fill(e.Path, "00000000-0000-4000-8000-000000000000")
		add("oversized token header", sandboxtest.Call{Path: path, PrivateToken: strings.Repeat("t", 200_000)})
		add("oversized access token", sandboxtest.Call{Path: path, AccessToken: strings.Repeat("a", 200_000)})
		// The edges (issue 13).
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
			add("double slash", sandboxtest.Call{Method: m, Path: strings.Replace(path, "/api/", "/api//", 1)})
			add("dot-dot segment", sandboxtest.Call{Method: m, Path: path + "/%2e%2e"})
			add("dot segment", sandboxtest.Call{Method: m, Path: strings.Replace(path, "/api/", "/api/./", 1)})
		}
		add("token header twice", sandboxtest.Call{Path: path, Headers: http.Header{"Service-Private-API-Token": {privateToken, "sbx_prv_other"}}})
		add("both token headers, different tokens", sandboxtest.Call{Path: path, AccessToken: "sbx_api_other"})
		add("foreign Host", sandboxtest.Call{Path: path, Host: "rebind.attacker.example"})
	}
	for _, n := range []string{"1e309", "-1e309", "9223372036854775808", "-9223372036854775809", "1" + strings.Repeat("0", 400)} {
		add("integer beyond int64: "+n[:min(len(n), 12)], sandboxtest.Call{Method: http.MethodPatch, Path: "/api/products/surcharge-parameters/gift-wrapping", Body: `{"data":{"priority":` + n + `}}`})
	}
	for _, n := range []string{"1e309", "-1e400", "1" + strings.Repeat("0", 400)} {
		add("number beyond a double: "+n[:min(len(n), 12)], sandboxtest.Call{Method: http.MethodPatch, Path: "/api/orders/status-change", Body: `{"data":{"statusId":` + n + `,"orderCodes":["2025000001"]}}`})
	}
	for _, c := range []sandboxtest.Call{
		{Method: http.MethodPost, Path: "/_sandbox/reset", Body: `{}`, ContentType: "text/plain"},
		{Method: http.MethodPost, Path: "/_sandbox/clock", Body: `advance=3h`, ContentType: "application/x-www-form-urlencoded"},
		{Method: http.MethodPost, Path: "/_sandbox/reset", Header: map[string]string{"Origin": "http://attacker.example"}},
		{Method: http.MethodPost, Path: "/_sandbox/clock", Body: `{"advance":"3h"}`, Header: map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{Path: "/_sandbox/eshops", Host: "rebind.attacker.example"},
	} {
		out = append(out, bad{"cross-site control request", c})
	}
	return out
}

// TestBadInputBattery sends every malformed request and demands a 4xx
// error envelope with a code and a message, no 5xx, and a healthy
// sandbox afterwards.
func TestBadInputBattery(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	cases := battery(t)
	if len(cases) < 200 {
		t.Fatalf("the battery has %d malformed requests, want at least 200", len(cases))
	}
	for _, c := range cases {
		r := s.Do(c.call)
		label := c.what + ": " + c.call.Method + " " + c.call.Path[:min(len(c.call.Path), 120)]
		if r.Status < 400 || r.Status > 499 {
			t.Errorf("%s answered %d, want a 4xx:\n%.300s", label, r.Status, r.Body)
			continue
		}
		if len(r.Env.Errors) == 0 || r.Env.Errors[0].ErrorCode == "" || len(r.Env.Errors[0].Message) < 10 {
			t.Errorf("%s answered %d without an error envelope with a code and a clear message:\n%.300s", label, r.Status, r.Body)
		}
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/health"}); r.Status != http.StatusOK {
		t.Fatalf("unhealthy after the battery: %d %s", r.Status, r.Body)
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/products", PrivateToken: privateToken}); r.Status != http.StatusOK {
		t.Fatalf("reads fail after the battery: %d %.300s", r.Status, r.Body)
	}
	t.Logf("%d malformed requests, all refused with a 4xx envelope", len(cases))
}
