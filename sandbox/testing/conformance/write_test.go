package conformance

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// writeEndpoints is how many write endpoints (POST, PUT, PATCH, DELETE)
// the reference declares.
const writeEndpoints = 179

var writesReport = flag.String("writes.report", "", "write the write-conformance report (what each write endpoint was sent and what was checked) to this file")

// wresult is what one write endpoint was sent and what was checked.
type wresult struct {
	op, method, path string
	sent             []string // what was sent
	checked          []string // what was checked, one line each
	readBack         bool     // the change was read back
	fail             []string // why it does not conform
}

func (r *wresult) check(format string, args ...any) {
	r.checked = append(r.checked, fmt.Sprintf(format, args...))
}
func (r *wresult) bad(format string, args ...any) {
	r.fail = append(r.fail, fmt.Sprintf(format, args...))
}

// TestWriteConformance calls every write endpoint of the reference with a
// body built from its request schema and the sandbox's own data (ids
// from list answers, records the group created reused for their own
// update and delete), on fresh fixtures per endpoint group, and checks:
// the documented status; the answer valid against the response schema
// with every declared property present; the change visible in a read-back
// (a created record readable with the values sent, updated fields
// changed, a deleted record gone); the events the write must emit; the
// change log that must list it. Asynchronous writes are followed to the
// end of their job first. Every record of a change-logged registry table
// that a write created, changed or deleted (the order flow's documents,
// stock-driven product changes and payment results included) must have
// its entry in the change log. Each endpoint's subtest logs what it sent and
// what it checked; the test fails unless all 179 conform, each with a
// read-back.
func TestWriteConformance(t *testing.T) {
	s := startSandbox(t)
	f := loadFixtures(t)
	c := &client{s: s, token: f.token(), hc: &http.Client{Timeout: 30 * time.Second}}
	rec := newRecorder(s.App.Bus)
	rs, err := loadRaw()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	shop := shopValues{currency: f.v("eshop", `currencies.#(isDefault==true).code`), country: "CZ", vatRate: "21.00",
		language: f.v("eshop", `languages.#(isDefault==true).code`)}
	table := writeTable(f)

	eps := map[string]schemas.Endpoint{}
	for _, ep := range cat.Endpoints {
		if ep.Method != http.MethodGet {
			eps[ep.Operation] = ep
		}
	}
	if len(eps) != writeEndpoints {
		t.Fatalf("the catalogue has %d write endpoints, the reference %d", len(eps), writeEndpoints)
	}
	byGroup := map[string][]*wentry{}
	seen := map[string]bool{}
	for _, en := range table {
		ep, ok := eps[en.op]
		switch {
		case !ok:
			t.Errorf("table entry %s names no write endpoint of the reference", en.op)
			continue
		case seen[en.op]:
			t.Errorf("table entry %s twice", en.op)
			continue
		}
		seen[en.op] = true
		byGroup[ep.Group] = append(byGroup[ep.Group], en)
	}
	var groups []string
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Strings(groups)

	results := map[string]*wresult{}
	for _, g := range groups {
		if a, err := c.do(http.MethodPost, "/_sandbox/reset", nil); err != nil || a.status != 200 {
			t.Fatalf("reset: %v %v", err, a)
		}
		// Asynchronous writes need job:finished registered (spec, Events
		// rule 1): to the sandbox's own inbox.
		if a, err := c.do(http.MethodPost, "/api/webhooks", map[string]any{"data": []any{map[string]any{"event": "job:finished", "url": s.URL + "/_sandbox/inbox/writes"}}}); err != nil || a.status != 201 {
			t.Fatalf("register job:finished: %v %v", err, a)
		}
		vars := groupVars{"from": c.sandboxNow(), "inbox": s.URL + "/_sandbox/inbox"}
		for _, en := range byGroup[g] {
			ep := eps[en.op]
			t.Run(g+"/"+en.op, func(t *testing.T) {
				before, err := snapshotLogged(s.App.Store, reg)
				if err != nil {
					t.Fatal(err)
				}
				r := c.write(en, ep, vars, rec, rs, reg, shop)
				results[en.op] = r
				// Every record of a change-logged table that the write
				// (and what it implied: documents, stock, products)
				// created, changed or deleted has its entry.
				after, err := snapshotLogged(s.App.Store, reg)
				if err != nil {
					t.Fatal(err)
				}
				missing, checked := before.unlogged(after)
				for _, why := range missing {
					r.bad("%s", why)
				}
				if checked > 0 && len(missing) == 0 {
					r.check("the change logs list each of the %d records of change-logged tables the write changed", checked)
				}
				t.Logf("%s %s", r.method, r.path)
				for _, line := range r.sent {
					t.Logf("sent: %s", line)
				}
				for _, line := range r.checked {
					t.Logf("checked: %s", line)
				}
				for _, why := range r.fail {
					t.Errorf("%s", why)
				}
			})
		}
	}

	var missing, failing []string
	conform := 0
	for op := range eps {
		r, ok := results[op]
		switch {
		case !ok:
			missing = append(missing, op)
		case len(r.fail) > 0 || !r.readBack:
			failing = append(failing, op)
		default:
			conform++
		}
	}
	sort.Strings(missing)
	sort.Strings(failing)
	fmt.Printf("%d/%d write endpoints conform, each read back\n", conform, writeEndpoints)
	for _, gap := range knownGaps(table) {
		fmt.Printf("  known gap, not sent or not compared: %s\n", gap)
		t.Logf("known gap, not sent or not compared: %s", gap)
	}
	if len(missing) > 0 {
		t.Errorf("write endpoints without an entry in the write table: %s", strings.Join(missing, ", "))
	}
	if conform < writeEndpoints {
		t.Errorf("%d/%d write endpoints conform with a read-back; not: %s", conform, writeEndpoints, strings.Join(failing, ", "))
	}
	if *writesReport != "" {
		if err := os.WriteFile(*writesReport, report(results, eps), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// knownGaps lists the body fields the table leaves out or accepts as
// read back differently because of a defect it leaves to another
// package (their reason starts with "KNOWN GAP"), so every run says
// what the suite does not hold the sandbox to.
func knownGaps(table []*wentry) []string {
	var out []string
	for _, en := range table {
		for _, m := range []map[string]string{en.omit, en.differ} {
			for path, why := range m {
				if strings.HasPrefix(why, "KNOWN GAP") {
					out = append(out, en.op+" data."+path+": "+strings.TrimPrefix(why, "KNOWN GAP: "))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
