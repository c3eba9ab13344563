package app_test

import (
	"net/url"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestChangesQueriesAgree: every "last changes" endpoint reads its query
// with one parser, so the orders' log and the products' one accept the
// same values and refuse the same bad ones. An unencoded "+" before the zone offset, which the query
// decodes to a space, reads as the "+" the client meant: it selects what
// the encoded %2B selects.
func TestChangesQueriesAgree(t *testing.T) {
	s, f := start(t)
	cases := []struct {
		name, query string
		status      int
		instance    string // of the error, when refused
	}{
		{"unencoded plus", "from=2025-01-01T00:00:00+0100", 200, ""},
		{"encoded plus", "from=" + url.QueryEscape("2025-01-01T00:00:00+0100"), 200, ""},
		{"minus offset", "from=2025-01-01T00:00:00-0500", 200, ""},
		{"RFC 3339 UTC", "from=2025-01-01T00:00:00Z", 200, ""},
		{"change type", "from=2000-01-01T00:00:00Z&changeType=edit", 200, ""},
		{"both", "from=2025-01-01T00:00:00+0100&changeType=add", 200, ""},
		{"from the start", "from=2000-01-01T00:00:00Z", 200, ""},
		{"no parameters", "", 400, "from"}, // from is required (reference)
		{"empty from", "from=", 400, "from"},
		{"a word", "from=yesterday", 400, "from"},
		{"date only", "from=2025-01-01", 400, "from"},
		{"offset without sign", "from=2025-01-01T00:00:00%200", 400, "from"},
		{"unknown change type", "from=2000-01-01T00:00:00Z&changeType=update", 400, "changeType"},
	}
	type page struct {
		Changes   []map[string]any
		Paginator struct{ TotalCount int }
	}
	totals := map[string]map[string]int{}
	for _, path := range []string{"/api/orders/changes", "/api/products/changes"} {
		totals[path] = map[string]int{}
		for _, c := range cases {
			r := s.Do(sandboxtest.Call{Path: path + "?" + c.query, PrivateToken: f.FullToken})
			if r.Status != c.status {
				t.Errorf("%s %s (%s): %d, want %d: %s", path, c.query, c.name, r.Status, c.status, r.Body)
				continue
			}
			if c.status != 200 {
				if len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != c.instance {
					t.Errorf("%s %s (%s): errors %+v, want one naming %s", path, c.query, c.name, r.Env.Errors, c.instance)
				}
				continue
			}
			var p page
			r.Data(t, &p)
			totals[path][c.name] = p.Paginator.TotalCount
		}
		if got := totals[path]; got["unencoded plus"] != got["encoded plus"] || got["from the start"] == 0 {
			t.Errorf("%s: the unencoded + selects %d changes, %%2B %d, from the start %d", path, got["unencoded plus"], got["encoded plus"], got["from the start"])
		}
	}
}
