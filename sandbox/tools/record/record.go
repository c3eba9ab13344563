// Package record reads an e-shop through its API (the real service, or a
// sandbox standing in for it) and writes what it read as a fixture
// folder that `sandbox up --fixtures DIR` serves and `sandbox fixtures
// check` accepts, with the personal data replaced by deterministic fakes
// (sandbox/tools/record/anonymize). It only sends GET, through sandbox/tools/record/upstream, which
// keeps the spec's limits.
//
// What is recorded follows the registry: every resource with a list
// endpoint of its own becomes its fixture file, each record read through
// the resource's detail endpoint with every include section; the
// metadata arrays the sandbox keeps beside a record (a price list's
// prices, a stock's supplies, a mailing list's addresses) come from their
// list endpoints; e-shop information, order statuses, customer fields and
// settings documents from their single endpoints. NotRecorded says what
// the API cannot give.
package record

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/anonymize"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/upstream"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// DefaultMax bounds the records read per resource when Options.Max is 0:
// enough for a sandbox, and a recording that the spec's rate bucket (4
// calls a second once 100 are spent) lets finish in minutes, since every
// record costs a call.
const DefaultMax = 200

// Options say what to record and where.
type Options struct {
	Client *upstream.Client      // reads the upstream (its Auth names the token)
	Anon   *anonymize.Anonymizer // replaces personal data
	Out    string                // fixture folder; the e-shop lands in Out/eshops/<id>
	Max    int                   // records per resource (0: DefaultMax)
	Eshop  int                   // folder id (0: the upstream's e-shop id)
	// Token is the private token written to credentials.json ("": a new
	// random one). The upstream's token is never written.
	Token string
	// Progress, when set, gets one line per file recorded.
	Progress io.Writer
	// NoTranslations skips the language versions: only the default
	// language's texts are recorded (one read per record fewer for each
	// further language).
	NoTranslations bool
}

// Summary says what a recording wrote.
type Summary struct {
	Eshop     int               // the upstream's e-shop id
	Folder    int               // the folder id written
	Name      string            // the e-shop's name
	Dir       string            // Out/eshops/<Folder>
	Records   map[string]int    // file (without .json) -> records
	Truncated []string          // files that reached Max while the upstream had more
	Skipped   map[string]string // file -> why it was not recorded (the upstream refused)
	Token     string            // the private token of credentials.json
	Replaced  map[anonymize.Kind]int
	Stats     upstream.Stats
}

// recorder is one recording in progress.
type recorder struct {
	opt  Options
	r    *reader
	plan *plan
	reg  *registry.Registry
	sum  *Summary

	mu       sync.Mutex
	files    map[string][]map[string]any // collection file -> records
	lists    map[string]*listed          // table -> its list as read, for the language versions
	singles  map[string]map[string]any   // eshop, order-statuses, customer-fields
	eshopURL string                      // the upstream's e-shop address, for {eshop_url}
}

// Record reads the upstream's e-shop and writes its fixture folder. The
// folder of the e-shop must not exist yet (another e-shop may already be
// in Out).
func Record(ctx context.Context, opt Options) (*Summary, error) {
	if opt.Client == nil || opt.Anon == nil || opt.Out == "" {
		return nil, fmt.Errorf("record: a client, an anonymizer and an output folder are needed")
	}
	if opt.Max <= 0 {
		opt.Max = DefaultMax
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		return nil, err
	}
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, err
	}
	p, err := newPlan(reg, cat)
	if err != nil {
		return nil, err
	}
	rec := &recorder{
		opt: opt, r: &reader{c: opt.Client, ctx: ctx}, plan: p, reg: reg,
		sum:   &Summary{Records: map[string]int{}, Skipped: map[string]string{}},
		files: map[string][]map[string]any{}, singles: map[string]map[string]any{}, lists: map[string]*listed{},
	}
	if err := rec.eshopInfo(); err != nil {
		return nil, err
	}
	if opt.Eshop > 0 {
		rec.sum.Folder = opt.Eshop
	} else {
		rec.sum.Folder = rec.sum.Eshop
	}
	// Refused now rather than after minutes of reading.
	if dir := filepath.Join(opt.Out, "eshops", strconv.Itoa(rec.sum.Folder)); exists(dir) {
		return nil, fmt.Errorf("%s already exists: record into another --out folder, or remove it first", dir)
	}
	if err := rec.readAll(); err != nil {
		return nil, err
	}
	if !opt.NoTranslations {
		if err := rec.translations(); err != nil {
			return nil, err
		}
	}
	rec.anonymize()
	if err := rec.write(); err != nil {
		return nil, err
	}
	rec.sum.Replaced = opt.Anon.Replaced()
	rec.sum.Stats = opt.Client.Stats()
	return rec.sum, nil
}

// eshopInfo reads GET /api/eshop with every section: eshop.json, the
// e-shop's id and address. A refusal here (a wrong token, a wrong URL)
// stops the recording.
func (rec *recorder) eshopInfo() error {
	d, err := rec.r.data(withQuery("/api/eshop", "include", strings.Join(eshop.Sections, ",")))
	if err != nil {
		return fmt.Errorf("reading the e-shop: %w", err)
	}
	ci, _ := d["contactInformation"].(map[string]any)
	id, err := strconv.Atoi(str(ci["eshopId"]))
	if err != nil || id <= 0 {
		return fmt.Errorf("GET /api/eshop: contactInformation.eshopId is %v, not an e-shop id", ci["eshopId"])
	}
	rec.sum.Eshop, rec.sum.Name = id, str(ci["eshopName"])
	rec.opt.Anon.Keep(rec.sum.Name) // the shop's name, not a person's
	rec.eshopURL = strings.TrimSuffix(str(ci["url"]), "/")
	// The sandbox builds these three from their own files.
	for _, k := range []string{"paymentMethods", "shippingMethods", "orderStatuses"} {
		delete(d, k)
	}
	rec.singles["eshop"] = d
	return nil
}

// readAll reads every file of the plan.
func (rec *recorder) readAll() error {
	for _, s := range []struct{ file, path string }{
		{"order-statuses", "/api/orders/statuses"},
		{"customer-fields", "/api/eshop/customer-fields"},
	} {
		d, err := rec.r.data(s.path)
		if err != nil {
			if rec.skip(s.file, err) {
				continue
			}
			return err
		}
		rec.singles[s.file] = d
		rec.progress(s.file, 1)
	}
	for _, t := range rec.plan.Tables {
		if err := rec.table(t); err != nil {
			return err
		}
	}
	for _, step := range []func() error{rec.settings, rec.paymentMethods, rec.orderHistory, rec.stockMovements, rec.children, rec.carriers, rec.defaults} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// skip notes a file the upstream refused (a module the e-shop lacks, a
// right the token lacks) and reports whether the recording goes on: only
// answers, not failures to get one, are skipped.
func (rec *recorder) skip(file string, err error) bool {
	var se *StatusError
	if !errors.As(err, &se) {
		return false
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if _, dup := rec.sum.Skipped[file]; !dup {
		rec.sum.Skipped[file] = se.Error()
	}
	return true
}

func (rec *recorder) progress(file string, n int) {
	if rec.opt.Progress != nil {
		fmt.Fprintf(rec.opt.Progress, "  %-28s %d\n", file+".json", n)
	}
}

// table records one collection: its list, then each record's detail.
func (rec *recorder) table(t table) error {
	name := t.Row.Name
	listInclude := ""
	if t.Detail == nil {
		listInclude = t.Include
	}
	items, truncated, err := rec.r.list(t.ListPath, t.List.Key, t.List.Paged(), rec.opt.Max, "include", listInclude)
	if err != nil {
		if rec.skip(name, err) {
			return nil
		}
		return err
	}
	recs := make([]map[string]any, len(items))
	err = each(len(items), func(i int) error {
		item, _ := items[i].(map[string]any)
		if item == nil {
			return fmt.Errorf("GET %s: item %d of %s is not an object", t.ListPath, i+1, t.List.Key)
		}
		if t.Detail == nil {
			recs[i] = item
			return nil
		}
		id := idOf(t.Row, item)
		if id == "" {
			return fmt.Errorf("GET %s: item %d of %s has no %s", t.ListPath, i+1, t.List.Key, t.Row.IDField)
		}
		path := withQuery(fill(t.DetailPath, map[string]string{t.Detail.Var: id}), "include", t.Include)
		d, err := rec.r.data(path)
		if err != nil {
			if gone(err) {
				return nil // gone since the list was read
			}
			return err
		}
		r := detailRecord(d, t.Detail.Key, t.Row.IDField, id)
		if r == nil {
			return nil
		}
		if str(r[t.Row.IDField]) == "" {
			r[t.Row.IDField] = id // a brand's code is its index name; a sales channel's guid sits inside it
		}
		recs[i] = fillFrom(r, item)
		return nil
	})
	if err != nil {
		if rec.skip(name, err) {
			return nil
		}
		return err
	}
	rec.mu.Lock()
	rec.lists[name] = &listed{items: items, recs: append([]map[string]any(nil), recs...)}
	rec.mu.Unlock()
	rec.put(name, compact(recs), truncated)
	return nil
}

// idOf is a list item's identifier: the row's id field, else the field
// a new record's id comes from (a brand's index name), else another field
// that identifies it in a path.
func idOf(row *registry.Resource, item map[string]any) string {
	for _, f := range append(append([]string{row.IDField}, row.IDFrom...), row.Alt...) {
		if v := str(dotted(item, f)); v != "" {
			return v
		}
	}
	return ""
}

// dotted reads a dotted path of objects.
func dotted(m map[string]any, path string) any {
	var v any = m
	for _, step := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[step]
	}
	return v
}

// detailRecord picks the record out of a detail answer: data itself, or
// data[key], or the element of data[key] with the id when the detail
// answers a list.
func detailRecord(d map[string]any, key, idField, id string) map[string]any {
	if key == "" {
		return d
	}
	switch v := d[key].(type) {
	case map[string]any:
		return v
	case []any:
		for _, x := range v {
			if m, ok := x.(map[string]any); ok && str(m[idField]) == id {
				return m
			}
		}
	}
	return nil
}

// fillFrom adds to a detail record the fields only its list item shows
// (an article's section), so that the sandbox answers both.
func fillFrom(detail, item map[string]any) map[string]any {
	for k, v := range item {
		if _, ok := detail[k]; !ok {
			detail[k] = v
		}
	}
	return detail
}

// compact drops the records that vanished between list and detail.
func compact(recs []map[string]any) []map[string]any {
	out := recs[:0]
	for _, r := range recs {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

func (rec *recorder) put(file string, recs []map[string]any, truncated bool) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.files[file] = recs
	rec.sum.Records[file] = len(recs)
	if truncated {
		rec.sum.Truncated = append(rec.sum.Truncated, file)
		sort.Strings(rec.sum.Truncated)
	}
	rec.progress(file, len(recs))
}

// anonymize replaces the personal data of everything read, then scrubs
// the replaced values out of every other text, then turns the upstream's
// addresses into the placeholders the sandbox fills with its own. The
// customer fields are settings ("required", "hidden"), not data.
func (rec *recorder) anonymize() {
	a := rec.opt.Anon
	var all []any
	for name, d := range rec.singles {
		if name != "customer-fields" {
			all = append(all, a.Value(d))
		}
	}
	names := make([]string, 0, len(rec.files))
	for n := range rec.files {
		names = append(names, n)
	}
	sort.Strings(names) // one order, so that fakes are the same run after run
	for _, n := range names {
		for _, r := range rec.files[n] {
			all = append(all, a.Value(r))
		}
	}
	s := a.Scrubber()
	for _, v := range all {
		s.Value(v)
	}
	ph := placeholders(rec.eshopURL, rec.opt.Client.Base)
	for _, v := range all {
		ph.Value(v)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// newToken makes a private token for credentials.json.
func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "sbx_prv_" + hex.EncodeToString(b), nil
}
