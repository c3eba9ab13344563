package app_test

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestPackedSeedAnswersAsRead packs every seeded collection of the
// default fixtures (the threshold set to one byte, where a large set is
// packed from 4 MiB) and checks that the health report says packing
// until it is done, and that lists and details answer byte for byte what
// an unpacked sandbox answers, before and after a write.
func TestPackedSeedAnswersAsRead(t *testing.T) {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	plain := sandboxtest.New(t, sandbox.Config{Seed: 7, PackAbove: -1, Clock: sandbox.NewFrozenClock(at)})
	packed := sandboxtest.New(t, sandbox.Config{Seed: 7, PackAbove: 1, Clock: sandbox.NewFrozenClock(at)})
	packed.WaitFor("the health report to stop saying packing", func() bool {
		res := packed.Do(sandboxtest.Call{Method: http.MethodGet, Path: "/_sandbox/health"})
		return res.Status == http.StatusOK && !gjson.GetBytes(res.Body, "data.packing").Bool()
	})
	if !packed.App.Store.HasPacked() || plain.App.Store.HasPacked() {
		t.Fatalf("packed collections: %v with PackAbove 1, %v with PackAbove -1; want true, false",
			packed.App.Store.HasPacked(), plain.App.Store.HasPacked())
	}
	guid := gjson.GetBytes(apiGet(plain, "/api/products?itemsPerPage=1").Body, "data.products.0.guid").String()
	code := gjson.GetBytes(apiGet(plain, "/api/orders?itemsPerPage=1").Body, "data.orders.0.code").String()
	if guid == "" || code == "" {
		t.Fatalf("no product (%q) or order (%q) to read", guid, code)
	}
	paths := []string{"/api/products?itemsPerPage=50", "/api/orders?itemsPerPage=50", "/api/customers",
		"/api/products/" + guid, "/api/orders/" + code}
	answerAlike(t, plain, packed, paths, guid)
}

// answerAlike checks that two sandboxes seeded alike answer GET paths
// byte for byte (but for their addresses), then after the same write to
// the product guid in both, again.
func answerAlike(t *testing.T, want, got *sandboxtest.Server, paths []string, guid string) {
	t.Helper()
	compare := func(when string) {
		t.Helper()
		for _, p := range paths {
			a, b := apiGet(want, p), apiGet(got, p)
			// The two sandboxes differ in their addresses only.
			da := strings.ReplaceAll(string(a.Env.Data), want.URL, "{base}")
			db := strings.ReplaceAll(string(b.Env.Data), got.URL, "{base}")
			if a.Status != http.StatusOK || a.Status != b.Status || da != db {
				t.Errorf("%s, GET %s: %d %.200s\nwant %d %.200s", when, p, b.Status, b.Body, a.Status, a.Body)
			}
		}
	}
	compare("untouched")
	for _, s := range []*sandboxtest.Server{want, got} {
		res := s.Do(sandboxtest.Call{Method: http.MethodPatch, Path: "/api/products/" + guid, PrivateToken: s.PrivateToken,
			Body: map[string]any{"data": map[string]any{"name": "Renamed after the start"}}})
		if res.Status != http.StatusOK {
			t.Fatalf("PATCH product: %d %s", res.Status, res.Body)
		}
	}
	compare("after a write")
}

// TestStartFromPacksAnswersAsRead: a fixture folder checked with a stamp
// and packed (what `sandbox fixtures check --stamp` does) starts with its
// collections attached from the packs, and answers byte for byte what a
// start reading the JSON files answers: lists, details, the change logs
// told by the seeded records, and the payment codes of the seeded orders
// whose payment is pending (found through the packs' marks), before and
// after a write.
func TestStartFromPacksAnswersAsRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, fixtures.FS); err != nil {
		t.Fatal(err)
	}
	l, err := app.FixtureLoader(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Check(dir); err != nil {
		t.Fatal(err)
	}
	packs, err := l.WritePacks(dir, 1)
	if err != nil || !slices.Contains(packs, "eshops/1001/orders.json") || !slices.Contains(packs, "eshops/1001/products.json") {
		t.Fatalf("packed %v, %v", packs, err)
	}
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	config := func(packAbove int64) sandbox.Config {
		return sandbox.Config{Seed: 7, PackAbove: packAbove, Fixtures: os.DirFS(dir), FixturesName: dir, Clock: sandbox.NewFrozenClock(at)}
	}
	// Background packing is kept out of the way (nothing holds 1 TiB), so
	// packed records come from the packs alone.
	fromPacks := sandboxtest.New(t, config(1<<40))
	fromFiles := sandboxtest.New(t, config(-1))
	if !fromPacks.App.Store.HasPacked() || fromFiles.App.Store.HasPacked() {
		t.Fatalf("packed collections: %v from packs, %v from files; want true, false",
			fromPacks.App.Store.HasPacked(), fromFiles.App.Store.HasPacked())
	}
	guid := gjson.GetBytes(apiGet(fromFiles, "/api/products?itemsPerPage=1").Body, "data.products.0.guid").String()
	paths := []string{"/api/products?itemsPerPage=50", "/api/orders?itemsPerPage=50", "/api/customers",
		"/api/products/" + guid, "/api/orders/2025000020", "/api/products/changes?from=2000-01-01T00:00:00%2B0000", "/api/orders/changes?from=2000-01-01T00:00:00%2B0000",
		"/api/payment-status/TRX-78A72CCD1CE3", "/api/payment-status/TRX-69894025277F"}
	answerAlike(t, fromFiles, fromPacks, paths, guid)
}

// apiGet sends GET path with the sandbox's private token.
func apiGet(s *sandboxtest.Server, path string) *sandboxtest.Response {
	return s.Do(sandboxtest.Call{Method: http.MethodGet, Path: path, PrivateToken: s.PrivateToken})
}
