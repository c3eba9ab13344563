package conformance

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// minConforming is the ratchet: the number of reference endpoints that
// conform today. The test fails when fewer do; raise it as endpoints land,
// up to 328.
const minConforming = 328

// TestEveryEndpointConforms walks the reference catalogue: every endpoint
// is called with the table's valid request on fresh fixtures (the sandbox
// is reset before each group), and must answer its documented status
// with a body that matches its response schema (a real PDF or ISDOC
// document for downloads), hold the table's assertions, and show its
// write in the follow-up GET.
func TestEveryEndpointConforms(t *testing.T) {
	s := startSandbox(t)
	f := loadFixtures(t)
	c := &client{s: s, token: f.token(), hc: &http.Client{Timeout: 30 * time.Second}}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(receiver.Close)

	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := loadRaw()
	if err != nil {
		t.Fatal(err)
	}
	pres := newPresence(rs)
	table := buildTable(f, receiver.URL)
	byGroup := map[string][]schemas.Endpoint{}
	for _, ep := range cat.Endpoints {
		if _, ok := table[ep.Operation]; !ok {
			t.Errorf("%s has no entry in the conformance table", ep.Operation)
			continue
		}
		byGroup[ep.Group] = append(byGroup[ep.Group], ep)
	}
	for op := range table {
		if !hasOp(cat, op) {
			t.Errorf("table entry %s names no reference operation", op)
		}
	}
	var groups []string
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Strings(groups)

	reasons := map[string]string{}
	conform := 0
	for _, g := range groups {
		if _, err := c.do(http.MethodPost, "/_sandbox/reset", nil); err != nil {
			t.Fatalf("reset: %v", err)
		}
		eps := byGroup[g]
		sort.SliceStable(eps, func(i, j int) bool {
			return phase(table[eps[i].Operation], eps[i]) < phase(table[eps[j].Operation], eps[j])
		})
		for _, ep := range eps {
			why := c.run(table[ep.Operation], ep, documentedStatus(reg, ep), pres)
			if why == "" {
				conform++
				continue
			}
			reasons[ep.Operation] = why
		}
	}
	total := len(cat.Endpoints)
	t.Logf("%d/%d endpoints conform", conform, total)
	fmt.Printf("%d/%d endpoints conform\n", conform, total)
	var failing []string
	for op := range reasons {
		failing = append(failing, op)
	}
	sort.Strings(failing)
	for _, op := range failing {
		t.Logf("  %s: %s", op, reasons[op])
		fmt.Printf("  does not conform: %s: %s\n", op, reasons[op])
	}
	for _, gap := range pres.coverage(cat) {
		t.Errorf("presence check: %s", gap)
	}
	t.Logf("presence check: %d endpoints walked, %d bodyless, result lines of %d snapshots", len(pres.walked), len(pres.skipped), len(pres.lines))
	if conform < minConforming {
		t.Errorf("%d/%d endpoints conform, fewer than minConforming = %d", conform, total, minConforming)
	}
}

func hasOp(cat *schemas.Catalogue, op string) bool {
	for _, e := range cat.Endpoints {
		if e.Operation == op {
			return true
		}
	}
	return false
}

// phase orders a group's calls: reads, then creates, then changes, then
// deletes, then the entries marked last.
func phase(en *entry, ep schemas.Endpoint) int {
	if en.after {
		return 5
	}
	switch ep.Method {
	case http.MethodGet:
		return 0
	case http.MethodPost:
		return 1
	case http.MethodPut, http.MethodPatch:
		return 2
	}
	return 3
}

// run calls one entry and returns why it does not conform ("" when it
// does): status, schema, every declared property present (pres), the
// table's assertions and the follow-up GET.
func (c *client) run(en *entry, ep schemas.Endpoint, want int, pres *presence) string {
	vars, why := c.prepare(en)
	if why != "" {
		return why
	}
	path := ep.Path
	for _, p := range ep.PathParams {
		v, ok := vars[p]
		if !ok {
			return "the table gives no value for {" + p + "}"
		}
		path = strings.Replace(path, "{"+p+"}", url.PathEscape(v), 1)
	}
	if en.query != "" {
		path += "?" + expand(en.query, vars, nil)
	}
	a, err := c.do(ep.Method, path, expandBody(en.body, vars))
	if err != nil {
		return err.Error()
	}
	if st := en.status; st != 0 {
		want = st
	}
	if a.status != want {
		return fmt.Sprintf("status %d, want %d: %s", a.status, want, a)
	}
	if why := c.schemaError(a); why != "" {
		return why
	}
	if why := rawCheck(ep, a); why != "" {
		return why
	}
	if why := pres.check(ep, a); why != "" {
		return why
	}
	if ep.ResponseKind == "json" && ep.Response != "" && a.get("errors").Type != 0 && a.get("errors").IsArray() && len(a.get("errors").Array()) > 0 {
		return "a valid request answered errors: " + a.get("errors").Raw
	}
	for _, as := range en.asserts {
		if why := assert(a.body, expand(as, vars, a)); why != "" {
			return "answer: " + why
		}
	}
	if en.follow == nil {
		if ep.Method != http.MethodGet {
			return "the table has no follow-up GET for this write"
		}
		return ""
	}
	fp := expand(en.follow.path, vars, a)
	fa, err := c.do(http.MethodGet, fp, nil)
	if err != nil {
		return "follow-up: " + err.Error()
	}
	if fa.status != en.follow.status {
		return fmt.Sprintf("follow-up GET %s: status %d, want %d: %s", fp, fa.status, en.follow.status, fa)
	}
	if why := c.schemaError(fa); why != "" {
		return "follow-up: " + why
	}
	if why := pres.follow(fa.op, fa); why != "" {
		return fmt.Sprintf("follow-up GET %s: %s", fp, why)
	}
	if why := pres.snapshot(c, ep, a); why != "" {
		return why
	}
	for _, as := range en.follow.asserts {
		if why := assert(fa.body, expand(as, vars, a)); why != "" {
			return fmt.Sprintf("follow-up GET %s: %s", fp, why)
		}
	}
	return ""
}

// rawCheck proves a download is the file it claims: a PDF with its
// trailer, an XML document of the ISDOC namespace; an empty answer is
// empty.
func rawCheck(ep schemas.Endpoint, a *answer) string {
	if ep.ResponseKind != "raw" {
		return ""
	}
	switch {
	case strings.HasSuffix(ep.Path, "/pdf"):
		if !bytes.HasPrefix(a.body, []byte("%PDF-")) || !bytes.Contains(a.body, []byte("%%EOF")) || !strings.HasPrefix(a.ctype, "application/pdf") {
			return "the download is not a PDF (" + a.ctype + ")"
		}
	case strings.HasSuffix(ep.Path, "/isdoc"):
		if !bytes.HasPrefix(a.body, []byte("<?xml")) || !bytes.Contains(a.body, []byte("http://isdoc.cz/namespace/2013")) {
			return "the download is not an ISDOC document (" + a.ctype + ")"
		}
	default:
		if len(a.body) != 0 {
			return "an empty answer has a body: " + a.String()
		}
	}
	return ""
}

// expandBody fills placeholders in a body (marshalled form).
func expandBody(body any, vars map[string]string) any {
	if body == nil {
		return nil
	}
	raw := mustJSON(body)
	return expand(raw, vars, nil)
}

// prepare makes an entry's setup calls and returns its variables (the
// table's plus those the setup saved), or why the setup failed.
func (c *client) prepare(en *entry) (map[string]string, string) {
	vars := map[string]string{}
	for k, v := range en.vars {
		vars[k] = v
	}
	for _, sc := range en.setup {
		a, err := c.do(sc.method, expand(sc.path, vars, nil), expandBody(sc.body, vars))
		if err != nil {
			return nil, "setup: " + err.Error()
		}
		if a.status >= 300 {
			return nil, fmt.Sprintf("setup %s %s answered %s", sc.method, sc.path, a)
		}
		for _, s := range sc.save {
			name, path, _ := strings.Cut(s, "=")
			path, pattern, cut := strings.Cut(path, "~")
			v := a.get(expand(path, vars, nil)).String()
			if cut {
				m := regexp.MustCompile(pattern).FindStringSubmatch(v)
				if m == nil {
					return nil, fmt.Sprintf("setup %s %s: %q does not match %s", sc.method, sc.path, v, pattern)
				}
				v = m[1]
			}
			vars[name] = v
		}
	}
	return vars, ""
}
