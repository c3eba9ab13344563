package record_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/fidelity"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/anonymize"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/upstream"
)

const header = "Service-Private-API-Token"

func upToken(t *testing.T) string {
	return sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
}

// recordInto records e-shop 1001 of an upstream sandbox into out.
func recordInto(t *testing.T, base, out, key string, max int) (*record.Summary, *upstream.Client) {
	t.Helper()
	a, err := anonymize.New([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	c := &upstream.Client{Base: base, Auth: upstream.Auth{Header: header, Token: upToken(t)}}
	sum, err := record.Record(context.Background(), record.Options{Client: c, Anon: a, Out: out, Max: max})
	if err != nil {
		t.Fatal(err)
	}
	return sum, c
}

// check runs `sandbox fixtures check` on a folder.
func check(t *testing.T, dir string) {
	t.Helper()
	l, err := app.FixtureLoader(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Check(""); err != nil {
		t.Fatalf("the recorded folder does not pass sandbox fixtures check: %v", err)
	}
}

// TestRecordRoundTrip: a recording of a sandbox passes the fixture check,
// serves, and answers every read endpoint as the upstream does; every
// resource is recorded in full; only GET was sent; no personal datum,
// token or address of the upstream is in the output.
func TestRecordRoundTrip(t *testing.T) {
	up := sandboxtest.New(t, sandbox.Config{TrafficHistory: 100000})
	out := t.TempDir()
	sum, c := recordInto(t, up.URL, out, "round-trip-test-key", 0)
	check(t, out)

	if sum.Eshop != 1001 || sum.Dir != filepath.Join(out, "eshops", "1001") || len(sum.Skipped) != 0 || len(sum.Truncated) != 0 {
		t.Errorf("summary %+v", sum)
	}
	for _, file := range []string{"products", "orders", "customers", "invoices", "brands", "payment-methods", "order-history", "stock-movements", "settings", "carriers"} {
		want := sandboxtest.Fixture(t, 1001, file, "#")
		if got := sum.Records[file]; want == "" || strings.TrimSpace(want) != itoa(got) {
			t.Errorf("%s: recorded %d records, the upstream has %s", file, got, want)
		}
	}
	if st := c.Stats(); st.MaxActive > upstream.MaxConcurrency || st.MaxActive < 2 {
		t.Errorf("at most %d calls at once", st.MaxActive)
	}

	rec := sandboxtest.New(t, sandbox.Config{Fixtures: os.DirFS(out), FixturesName: out})
	sbc := &upstream.Client{Base: rec.URL, Auth: upstream.Auth{Header: header, Token: sum.Token}}
	rep, err := fidelity.Compare(context.Background(), fidelity.Options{Upstream: c, Sandbox: sbc})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() || rep.Compared < 110 {
		var b strings.Builder
		_ = rep.WriteText(&b, true)
		t.Errorf("the recording answers unlike its upstream:\n%s", b.String())
	}
	for _, r := range rep.Results {
		if r.SandboxPath != "" {
			t.Errorf("%s: the recording lacks the upstream's record %s", r.Operation, r.Path)
		}
	}

	// Only GET reached the upstream.
	var tr struct {
		Data struct {
			Events []struct {
				Call *struct{ Method, Path string }
			}
		}
	}
	getJSON(t, up.URL+"/_sandbox/traffic?limit=100000", &tr)
	calls := 0
	for _, ev := range tr.Data.Events {
		if ev.Call == nil {
			continue
		}
		calls++
		if ev.Call.Method != http.MethodGet {
			t.Errorf("the recording sent %s %s", ev.Call.Method, ev.Call.Path)
		}
	}
	if calls < 100 {
		t.Errorf("the upstream saw %d calls", calls)
	}

	all := readTree(t, out)
	for _, leak := range append(personalData(t), upToken(t), strings.TrimPrefix(up.URL, "http://")) {
		if strings.Contains(all, leak) {
			t.Errorf("the recording holds %q", leak)
		}
	}
	orders, _ := os.ReadFile(filepath.Join(sum.Dir, "orders.json"))
	for i := range sum.Records["orders"] {
		p := strconv.Itoa(i) + ".clientIPAddress"
		if was, now := sandboxtest.Fixture(t, 1001, "orders", p), gjsonGet(orders, p); was != "" && (now == was || now == "") {
			t.Errorf("order %d: IP address %q recorded as %q", i, was, now)
		}
	}
	for _, kept := range []string{"{eshop_url}/", "Trailvik Outdoor", "Stan Alpine 2", "Ridgeon", sum.Token} {
		if !strings.Contains(all, kept) {
			t.Errorf("the recording lost %q", kept)
		}
	}
}

// TestRecordDeterministic: one key gives the same fakes (the same files,
// but for the new token); another key gives other fakes.
func TestRecordDeterministic(t *testing.T) {
	up := sandboxtest.New(t, sandbox.Config{})
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	recordInto(t, up.URL, a, "the-same-key-twice", 4)
	recordInto(t, up.URL, b, "the-same-key-twice", 4)
	recordInto(t, up.URL, c, "another-key-entirely", 4)
	files, _ := filepath.Glob(filepath.Join(a, "eshops", "1001", "*.json"))
	if len(files) < 40 {
		t.Fatalf("%d files", len(files))
	}
	for _, f := range files {
		name := filepath.Base(f)
		x, _ := os.ReadFile(f)
		y, _ := os.ReadFile(filepath.Join(b, "eshops", "1001", name))
		if name == "credentials.json" {
			if bytes.Equal(x, y) {
				t.Error("two recordings got the same token")
			}
			continue
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two recordings with one key:\n%s\n%s", name, x, y)
		}
	}
	x, _ := os.ReadFile(filepath.Join(a, "eshops", "1001", "customers.json"))
	z, _ := os.ReadFile(filepath.Join(c, "eshops", "1001", "customers.json"))
	if bytes.Equal(x, z) {
		t.Error("another key gave the same fakes")
	}
	// --max bounds every resource, and the cut set still passes.
	sum, _ := recordInto(t, up.URL, t.TempDir(), "the-same-key-twice", 4)
	if sum.Records["products"] != 4 || sum.Records["orders"] != 4 || !contains(sum.Truncated, "products") || contains(sum.Truncated, "stocks") {
		t.Errorf("max 4: %+v truncated %v", sum.Records, sum.Truncated)
	}
	check(t, a)
	// A folder is never recorded over.
	an, _ := anonymize.New([]byte("the-same-key-twice"))
	_, err := record.Record(context.Background(), record.Options{Client: &upstream.Client{Base: up.URL, Auth: upstream.Auth{Header: header, Token: upToken(t)}}, Anon: an, Out: a})
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("recording over an e-shop folder: %v", err)
	}
}

// TestRecordThrottled: against an upstream with a small rate bucket the
// recording is told to wait (429 with Retry-After) and waits, never
// exceeds the 3 concurrent calls per token (no too-many-connections
// refusal), and still records a set that passes the check.
func TestRecordThrottled(t *testing.T) {
	lim := sandbox.DefaultLimits()
	lim.BucketCapacity, lim.BucketLeak = 60, 20*time.Millisecond
	up := sandboxtest.New(t, sandbox.Config{Limits: &lim, TrafficHistory: 100000})
	out := t.TempDir()
	start := time.Now()
	sum, c := recordInto(t, up.URL, out, "throttled-test-key", 3)
	check(t, out)
	st := c.Stats()
	if st.Throttled == 0 || st.Waited < 500*time.Millisecond {
		t.Errorf("never told to wait: %+v", st)
	}
	if st.MaxActive > upstream.MaxConcurrency {
		t.Errorf("%d calls at once", st.MaxActive)
	}
	if sum.Records["products"] != 3 {
		t.Errorf("records %v", sum.Records)
	}
	var tr struct {
		Data struct {
			Events []struct {
				Call *struct {
					Status       int
					ResponseBody []byte
				}
			}
		}
	}
	getJSON(t, up.URL+"/_sandbox/traffic?limit=100000", &tr)
	refused := 0
	for _, ev := range tr.Data.Events {
		if ev.Call == nil || ev.Call.Status != 429 {
			continue
		}
		refused++
		if !bytes.Contains(ev.Call.ResponseBody, []byte("rate-limit-exceeded")) {
			t.Errorf("a 429 other than the bucket's: %s", ev.Call.ResponseBody)
		}
	}
	if refused != st.Throttled {
		t.Errorf("the upstream refused %d calls, the client waited out %d", refused, st.Throttled)
	}
	t.Logf("%d calls, %d refused, %s waited, %s in all", st.Calls, refused, st.Waited, time.Since(start))
}

// TestRecordRefusals: a wrong token stops the recording with the
// upstream's reason; a module the e-shop lacks skips its files.
func TestRecordRefusals(t *testing.T) {
	up := sandboxtest.New(t, sandbox.Config{})
	a, _ := anonymize.New([]byte("refusals-test-key"))
	bad := &upstream.Client{Base: up.URL, Auth: upstream.Auth{Header: header, Token: "sbx_prv_0000000000000000wrong"}}
	_, err := record.Record(context.Background(), record.Options{Client: bad, Anon: a, Out: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "GET /api/eshop") || !strings.Contains(err.Error(), "401") {
		t.Errorf("wrong token: %v", err)
	}
	// E-shop 1002 lacks the price-list module: its price lists are not
	// recorded, and the rest is.
	tok := sandboxtest.Fixture(t, 1002, "credentials", "privateTokens.0.token")
	c := &upstream.Client{Base: up.URL, Auth: upstream.Auth{Header: header, Token: tok}}
	out := t.TempDir()
	sum, err := record.Record(context.Background(), record.Options{Client: c, Anon: a, Out: out, Eshop: 7})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sum.Skipped["pricelists"], "403") || sum.Records["products"] == 0 || sum.Folder != 7 {
		t.Errorf("1002: skipped %v records %v folder %d", sum.Skipped, sum.Records, sum.Folder)
	}
	if _, err := os.Stat(filepath.Join(out, "eshops", "7", "pricelists.json")); !os.IsNotExist(err) {
		t.Errorf("pricelists.json written for an e-shop without the module: %v", err)
	}
	check(t, out)

	// An interrupted recording (Ctrl-C cancels the context) leaves
	// nothing behind.
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
	defer cancel()
	cut := t.TempDir()
	_, err = record.Record(ctx, record.Options{Client: &upstream.Client{Base: up.URL, Auth: upstream.Auth{Header: header, Token: upToken(t)}}, Anon: a, Out: cut})
	if err == nil || !strings.Contains(err.Error(), "context deadline exceeded") {
		t.Errorf("interrupted: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(cut, "*", "*")); len(left) > 0 {
		t.Errorf("an interrupted recording left %v", left)
	}
}

// personalData lists the upstream's personal values: every string of
// its fixtures under a field naming an e-mail, phone, person or street.
func personalData(t *testing.T) []string {
	// IP addresses are left out: their fakes come from the ranges the
	// fixtures' own addresses use, so a fake may equal another original
	// (TestRecordRoundTrip checks each one changed instead).
	kinds := map[anonymize.Kind]bool{anonymize.Email: true, anonymize.Phone: true, anonymize.Person: true, anonymize.Street: true}
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if s, ok := c.(string); ok && kinds[anonymize.Fields[k]] && len(s) >= 6 {
					seen[s] = true
				}
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	err := fs.WalkDir(fixtures.FS, "eshops/1001", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "customer-fields.json") {
			return err
		}
		raw, _ := fs.ReadFile(fixtures.FS, p)
		var v any
		_ = json.Unmarshal(raw, &v)
		walk(v)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A few by hand, so the list cannot be empty by mistake.
	for _, s := range []string{"petr.novotny@example.com", "Petr Novotný", "+420 601 111 201", "Jana Horáková", "Korunní"} {
		if !seen[s] {
			t.Errorf("the fixtures no longer hold %q", s)
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	if len(out) < 50 {
		t.Fatalf("only %d personal values found", len(out))
	}
	return out
}

func readTree(t *testing.T, dir string) string {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(p)
		b.Write(raw)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func gjsonGet(raw []byte, path string) string { return gjson.GetBytes(raw, path).String() }

func itoa(n int) string { return strconv.Itoa(n) }

// TestRecordTranslations: the upstream's e-shop has a second language;
// the recording keeps what each resource answers in it, so the served
// recording answers ?language=en as the upstream does (texts, translated
// parameter codes included), and --no-translations keeps the default
// language only.
func TestRecordTranslations(t *testing.T) {
	up := sandboxtest.New(t, sandbox.Config{})
	out := t.TempDir()
	sum, _ := recordInto(t, up.URL, out, "translations-test-key", 0)
	rec := sandboxtest.New(t, sandbox.Config{Fixtures: os.DirFS(out), FixturesName: out})

	product := sandboxtest.Fixture(t, 1001, "products", "0.guid")
	brand := sandboxtest.Fixture(t, 1001, "brands", "0.code")
	paths := []string{
		"/api/products?itemsPerPage=100",
		"/api/products/" + product + "?include=images,allCategories,flags,descriptiveParameters,surchargeParameters,filteringParameters",
		"/api/categories?itemsPerPage=100",
		"/api/brands/" + brand,
		"/api/products/availabilities",
		"/api/products/filtering-parameters",
		"/api/products/flags",
		"/api/products/surcharge-parameters",
		"/api/products/variant-parameters",
		"/api/shipping-methods",
		"/api/articles/sections",
		"/api/orders/statuses",
		"/api/payment-methods",
	}
	answer := func(s *sandboxtest.Server, token, path string) string {
		t.Helper()
		r := s.Do(sandboxtest.Call{Path: path, PrivateToken: token})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", path, r.Status, r.Body)
		}
		// A brand's contact e-mail is personal data: the recording
		// holds a fake.
		var v any
		if err := json.Unmarshal(r.Env.Data, &v); err != nil {
			t.Fatal(err)
		}
		if m, ok := v.(map[string]any); ok {
			delete(m, "contactEmail")
		}
		b, _ := json.Marshal(v)
		return strings.ReplaceAll(string(b), s.URL, "{base}")
	}
	translated := 0
	for _, p := range paths {
		sep := "?"
		if strings.Contains(p, "?") {
			sep = "&"
		}
		en := p + sep + "language=en"
		want, got := answer(up, upToken(t), en), answer(rec, sum.Token, en)
		if got != want {
			t.Errorf("%s: the recording answers\n%s\nthe upstream\n%s", en, got, want)
		}
		if answer(up, upToken(t), p) != want {
			translated++
		}
	}
	if translated < len(paths)-1 {
		t.Fatalf("only %d of %d answers differ in English upstream: the test reads too little", translated, len(paths))
	}
	// A translated identifier names the record in its language.
	code := gjson.Get(answer(up, upToken(t), "/api/products/filtering-parameters?language=en"), "filteringParameters.0.code").String()
	if r := rec.Do(sandboxtest.Call{Path: "/api/products/filtering-parameters/" + code + "?language=en", PrivateToken: sum.Token}); code == "" || r.Status != 200 {
		t.Fatalf("filtering parameter %q in English: %d %s", code, r.Status, r.Body)
	}

	plain := t.TempDir()
	a, _ := anonymize.New([]byte("translations-test-key"))
	c := &upstream.Client{Base: up.URL, Auth: upstream.Auth{Header: header, Token: upToken(t)}}
	if _, err := record.Record(context.Background(), record.Options{Client: c, Anon: a, Out: plain, NoTranslations: true}); err != nil {
		t.Fatal(err)
	}
	if tree := readTree(t, plain); strings.Contains(tree, "_translations") {
		t.Fatal("--no-translations recorded language versions")
	}
	if tree := readTree(t, out); !strings.Contains(tree, "_translations") {
		t.Fatal("the recording holds no language version")
	}
}
