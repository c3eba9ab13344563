package templates_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
)

type snippets struct {
	Snippets []struct{ Location, HTML string }
}

func page(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return string(b)
}

// TestTemplates inserts code at the three locations and sees it on the
// storefront preview and the order-confirmed preview.
func TestTemplates(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	var got snippets
	e.Call("GET", "/api/template-include", nil).Data(t, &got)
	if len(got.Snippets) != 0 {
		t.Fatalf("fresh e-shop has snippets: %+v", got)
	}
	head := `<script src="https://addon.test/pixel.js" data-x="1"></script>`
	foot := `<div id="addon-footer">Powered by add-on</div>`
	conf := `<img src="https://addon.test/conversion?order=1" alt="">`
	r := e.Call("POST", "/api/template-include", map[string]any{"data": map[string]any{"snippets": []map[string]string{
		{"location": "common-footer", "html": foot}, {"location": "common-header", "html": head}, {"location": "order-confirmed", "html": conf},
	}}})
	if r.Status != 200 {
		t.Fatalf("insert: %d %s", r.Status, r.Body)
	}
	r.Data(t, &got)
	if len(got.Snippets) != 3 || got.Snippets[0].Location != "common-header" || got.Snippets[0].HTML != head {
		t.Fatalf("after insert: %+v", got)
	}
	home := page(t, e.S.URL+"/eshops/1001/")
	hi, bi, fi := strings.Index(home, head), strings.Index(home, "<body>"), strings.Index(home, foot)
	if hi < 0 || hi > bi || fi < bi || fi > strings.Index(home, "</body>") || strings.Contains(home, conf) {
		t.Fatalf("storefront preview:\n%s", home)
	}
	if bare := page(t, e.S.URL+"/eshops/1001"); bare != home {
		t.Fatal("{eshop_url} without the slash differs")
	}
	if confirmed := page(t, e.S.URL+"/eshops/1001/preview/order-confirmed"); !strings.Contains(confirmed, conf) || !strings.Contains(confirmed, head) {
		t.Fatalf("order-confirmed preview:\n%s", confirmed)
	}
	// Another e-shop's pages do not carry 1001's code.
	if other := page(t, e.S.URL+"/eshops/1002/"); strings.Contains(other, head) {
		t.Fatal("e-shop 1002 shows 1001's code")
	}

	if r := e.Call("DELETE", "/api/template-include/common-header", nil); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if strings.Contains(page(t, e.S.URL+"/eshops/1001/"), head) {
		t.Fatal("deleted code still on the page")
	}
	for path, status := range map[string]int{"/api/template-include/common-header": 404, "/api/template-include/sidebar": 404} {
		if r := e.Call("DELETE", path, nil); r.Status != status {
			t.Errorf("DELETE %s: %d", path, r.Status)
		}
	}
	for _, bad := range []map[string]any{
		{"data": map[string]any{"snippets": []any{}}},
		{"data": map[string]any{"snippets": []map[string]string{{"location": "common-header"}}}},
	} {
		if r := e.Call("POST", "/api/template-include", bad); r.Status != 400 {
			t.Errorf("%v: %d %s", bad, r.Status, r.Body)
		}
	}
	if r := e.Call("POST", "/api/template-include", map[string]any{"data": map[string]any{"snippets": []map[string]string{{"location": "sidebar", "html": "x"}}}}); r.Status != 422 {
		t.Errorf("unknown location: %d %s", r.Status, r.Body)
	}
	if resp, _ := http.Get(e.S.URL + "/eshops/4242/"); resp.StatusCode != 404 {
		t.Errorf("unknown e-shop: %d", resp.StatusCode)
	}
}
