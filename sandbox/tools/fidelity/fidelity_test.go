package fidelity

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/system"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/upstream"
	"github.com/eshop-sandbox/sandbox/schemas"
)

func token(t *testing.T) string {
	return sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
}

func client(base, tok string) *upstream.Client {
	return &upstream.Client{Base: base, Auth: upstream.Auth{Header: "Service-Private-API-Token", Token: tok}}
}

func compare(t *testing.T, upURL, sbURL string) *Report {
	t.Helper()
	rep, err := Compare(context.Background(), Options{Upstream: client(upURL, token(t)), Sandbox: client(sbURL, token(t)), UpstreamName: upURL, SandboxName: sbURL})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// changedFixtures is the embedded set with one file edited.
func changedFixtures(t *testing.T, file string, edit func(map[string]any)) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(fixtures.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(fixtures.FS, p)
		if err != nil {
			return err
		}
		if p == file {
			var doc map[string]any
			if err := json.Unmarshal(raw, &doc); err != nil {
				return err
			}
			edit(doc)
			if raw, err = json.Marshal(doc); err != nil {
				return err
			}
		}
		m[p] = &fstest.MapFile{Data: raw}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSameServiceNoDifference: two sandboxes with the same fixtures
// answer every read endpoint alike; every endpoint is either compared or
// says why not.
func TestSameServiceNoDifference(t *testing.T) {
	up := sandboxtest.New(t, sandbox.Config{})
	sb := sandboxtest.New(t, sandbox.Config{})
	rep := compare(t, up.URL, sb.URL)
	if !rep.Clean() {
		var b strings.Builder
		_ = rep.WriteText(&b, false)
		t.Fatalf("differences between two equal sandboxes:\n%s", b.String())
	}
	cat, _ := schemas.LoadCatalogue()
	reads := 0
	for _, e := range cat.Endpoints {
		if e.Method == "GET" && !e.Async && e.ResponseKind == "json" {
			reads++
		}
	}
	if rep.Compared+rep.NotCompared != reads || len(rep.Results) != reads {
		t.Errorf("%d compared + %d not = %d results, want %d read endpoints", rep.Compared, rep.NotCompared, len(rep.Results), reads)
	}
	if rep.Compared < reads-8 {
		t.Errorf("only %d of %d read endpoints compared", rep.Compared, reads)
	}
	for _, r := range rep.Results {
		if r.NotCompared == "" && (r.UpstreamStatus != 200 || strings.Contains(r.Path, "{")) {
			t.Errorf("%s compared at %s with status %d", r.Operation, r.Path, r.UpstreamStatus)
		}
	}
}

// TestChangedFixtureStatus: a sandbox whose e-shop lacks a module the
// upstream has answers 403 where the upstream answers 200, on exactly
// the endpoints that need the module.
func TestChangedFixtureStatus(t *testing.T) {
	up := sandboxtest.New(t, sandbox.Config{})
	changed := changedFixtures(t, "eshops/1001/eshop.json", func(doc map[string]any) {
		var kept []any
		for _, m := range doc["activeModules"].([]any) {
			if m.(map[string]any)["name"] != eshop.ModulePriceLists {
				kept = append(kept, m)
			}
		}
		doc["activeModules"] = kept
	})
	sb := sandboxtest.New(t, sandbox.Config{Fixtures: changed, FixturesName: "changed"})
	rep := compare(t, up.URL, sb.URL)

	cat, _ := schemas.LoadCatalogue()
	sys := system.NewCatalogue(cat)
	var want, got []string
	for _, r := range rep.Results {
		if m, _ := sys.ModuleOf(r.Operation); m == eshop.ModulePriceLists {
			want = append(want, r.Operation)
		}
		if len(r.Differences) > 0 {
			got = append(got, r.Operation)
			d := r.Differences
			if len(d) != 1 || d[0].Kind != Status || d[0].Upstream != "200" || d[0].Sandbox != "403" {
				t.Errorf("%s: %+v, want status 200 against 403", r.Operation, d)
			}
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if len(want) == 0 || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("differing %v, want the price-list endpoints %v", got, want)
	}
	if rep.Clean() || rep.Differing != len(want) {
		t.Errorf("report: %d differing", rep.Differing)
	}
	var text strings.Builder
	if err := rep.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "GetListOfPriceLists  GET /api/pricelists\n  status   upstream 200, sandbox 403") {
		t.Errorf("text report:\n%s", text.String())
	}
}

// TestNewFieldsAndTypes: an upstream that answers a field the sandbox
// does not know, and another field as another type (a proxy in front of a
// sandbox plays the changed service), is reported field by field, in
// text and in JSON.
func TestNewFieldsAndTypes(t *testing.T) {
	real := sandboxtest.New(t, sandbox.Config{})
	target, _ := url.Parse(real.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.URL.Path != "/api/products" {
			return nil
		}
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		var env map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&env); err != nil {
			return err
		}
		for _, p := range env["data"].(map[string]any)["products"].([]any) {
			prod := p.(map[string]any)
			prod["energyLabel"] = "A++"
			prod["voteCount"] = "7"
		}
		raw, _ = json.Marshal(env)
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		resp.ContentLength = int64(len(raw))
		resp.Header.Set("Content-Length", strconv.Itoa(len(raw)))
		return nil
	}
	up := httptest.NewServer(proxy)
	defer up.Close()
	sb := sandboxtest.New(t, sandbox.Config{})
	rep := compare(t, up.URL, sb.URL)
	if rep.Differing != 1 {
		t.Fatalf("%d endpoints differ, want GetListOfProducts only", rep.Differing)
	}
	var res Result
	for _, r := range rep.Results {
		if len(r.Differences) > 0 {
			res = r
		}
	}
	want := []Difference{
		{Kind: Missing, Path: "data.products[].energyLabel", Upstream: "string"},
		{Kind: Type, Path: "data.products[].voteCount", Upstream: "string", Sandbox: "number"},
	}
	if res.Operation != "GetListOfProducts" || len(res.Differences) != 2 || res.Differences[0] != want[0] || res.Differences[1] != want[1] {
		t.Fatalf("%s: %+v, want %+v", res.Operation, res.Differences, want)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Differing != 1 || back.Upstream != up.URL {
		t.Errorf("JSON report does not read back: %v %+v", err, back.Differing)
	}
	var text strings.Builder
	_ = rep.WriteText(&text, false)
	for _, line := range []string{"missing  data.products[].energyLabel (string)", "type     data.products[].voteCount: upstream string, sandbox number"} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text report lacks %q:\n%s", line, text.String())
		}
	}
}
