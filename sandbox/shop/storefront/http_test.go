package storefront_test

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront"
)

// get fetches a page as a browser would (no API headers).
func get(t testing.TB, url string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(raw)
}

// api calls the API of e-shop 1001 with its full-access token.
func api(t testing.TB, s *sandboxtest.Server, method, path string, body any) gjson.Result {
	t.Helper()
	r := s.Do(sandboxtest.Call{Method: method, Path: path, PrivateToken: sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`), Body: body})
	if r.Status/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
	}
	return gjson.ParseBytes(r.Body).Get("data")
}

var escaped = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;")

// TestProductPagesAtAPIURLs: every product's url in API answers leads to
// its page (listed and detail-only ones), the others answer 404; the page
// shows the product's texts, price, image cut address and category.
func TestProductPagesAtAPIURLs(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	cuts := api(t, s, "GET", "/api/eshop?include=imageCuts", nil)
	detailCut := cuts.Get(`imageCuts.#(name=="` + storefront.ImageCut + `").cdnPath`).String()
	if detailCut == "" {
		t.Fatal("no detail cut")
	}
	var fixtureProducts []struct {
		GUID       string `json:"guid"`
		Visibility string `json:"visibility"`
	}
	if err := json.Unmarshal([]byte(sandboxtest.Fixture(t, 1001, "products", "@this")), &fixtureProducts); err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, fp := range fixtureProducts {
		p := api(t, s, "GET", "/api/products/"+fp.GUID+"?include=images", nil)
		url := p.Get("url").String()
		t.Run(p.Get("indexName").String(), func(t *testing.T) {
			if !strings.HasPrefix(url, s.URL+"/eshops/1001/") {
				t.Fatalf("url %q", url)
			}
			status, ctype, page := get(t, url)
			if fp.Visibility != "visible" && fp.Visibility != "detail-only" {
				if status != 404 || !strings.Contains(page, `"errorCode"`) {
					t.Errorf("a %s product's page: %d %s", fp.Visibility, status, page)
				}
				return
			}
			pages++
			if status != 200 || !strings.HasPrefix(ctype, "text/html") {
				t.Fatalf("%d %s", status, ctype)
			}
			main := p.Get(`images.#(isMainImage==true)`)
			cut := detailCut + main.Get(`signedCdnNames.#(type=="`+storefront.ImageCut+`").name`).String()
			v := p.Get("variants.0")
			for _, want := range []string{
				`<html lang="cs">`,
				`<h1 id="product-name">` + escaped.Replace(p.Get("name").String()) + `</h1>`,
				`<dd id="product-code">` + v.Get("code").String() + `</dd>`,
				`src="` + escaped.Replace(cut) + `" data-image-url="` + escaped.Replace(cut) + `"`, // the picture at its cut address
				`<a id="product-category" href="` + s.URL + "/eshops/1001/",
				"Kč</span> <span class=\"vat-note\">",
			} {
				if !strings.Contains(page, want) {
					t.Errorf("missing %q", want)
				}
			}
		})
	}
	if pages < 30 {
		t.Fatalf("only %d product pages", pages)
	}
}

// TestHomeAndCategoryPages: the home page lists the categories and the
// listed products; a category page its subcategories and the products
// below it; 1002 is English; unknown addresses answer 404.
func TestHomeAndCategoryPages(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	cards := regexp.MustCompile(`<li class="card product-card" data-name="([^"]*)">`)
	for _, path := range []string{"/eshops/1001/", "/eshops/1001"} {
		status, _, home := get(t, s.URL+path)
		if status != 200 {
			t.Fatalf("%s: %d", path, status)
		}
		names := cards.FindAllStringSubmatch(home, -1)
		if len(names) != 24 {
			t.Errorf("%s: %d product cards, want the first 24", path, len(names))
		}
		for _, n := range names {
			if vis := sandboxtest.Fixture(t, 1001, "products", `#(name=="`+unescape(n[1])+`").visibility`); vis != "visible" {
				t.Errorf("%s lists %q, which is %q", path, n[1], vis)
			}
		}
		for _, want := range []string{`<html lang="cs">`, `<span class="shop-name" id="shop-name">Trailvik Outdoor</span>`, `id="shop-logo" src="data:image/svg&#43;xml;base64,`,
			`--primary:#1f4d3a`, `<h2>Kategorie</h2>`, `href="` + s.URL + `/eshops/1001/stany-a-pristresky/">Stany a přístřešky</a>`, `id="preview-confirmed"`} {
			if !strings.Contains(home, want) {
				t.Errorf("%s: missing %q", path, want)
			}
		}
	}

	cat := api(t, s, "GET", "/api/categories?itemsPerPage=100", nil)
	top := cat.Get(`categories.#(indexName=="stany-a-pristresky")`)
	status, _, page := get(t, top.Get("url").String())
	if status != 200 {
		t.Fatalf("category: %d", status)
	}
	for _, want := range []string{`<h1 id="category-name">Stany a přístřešky</h1>`, `id="subcategories"`, `>Stany</a>`, `data-name="Stan Alpine 2"`, `data-name="Celta Skyline 3×3 m"`, `id="breadcrumbs"`} {
		if !strings.Contains(page, want) {
			t.Errorf("category page: missing %q", want)
		}
	}
	if strings.Contains(page, `data-name="Batoh Ridge 45"`) {
		t.Error("a category page lists a product of another category")
	}

	status, _, en := get(t, s.URL+"/eshops/1002/")
	if status != 200 || !strings.Contains(en, `<html lang="en">`) || !strings.Contains(en, "<h2>Products</h2>") || !strings.Contains(en, "€189.00") || strings.Contains(en, "Kategorie") {
		t.Errorf("1002 home (%d):\n%s", status, en)
	}

	for _, path := range []string{"/eshops/1001/no-such-thing/", "/eshops/1001/pruvodce-krkonose/extra/", "/eshops/9999/"} {
		if status, ctype, body := get(t, s.URL+path); status != 404 || !strings.Contains(ctype, "json") || !strings.Contains(body, `"errors":[{`) {
			t.Errorf("%s: %d %s %s", path, status, ctype, body)
		}
	}
	if status, ctype, body := get(t, s.URL+"/eshops/1001"+storefront.PlaceholderPath); status != 200 || ctype != "image/svg+xml" || !strings.HasPrefix(body, "<svg") {
		t.Errorf("placeholder: %d %s", status, ctype)
	}
}

func unescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&#43;", "+").Replace(s)
}

// TestProductTextsEscaped: a product created through the API with markup
// in its texts gets a page at its url, where the markup is text.
func TestProductTextsEscaped(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	p := api(t, s, "POST", "/api/products", map[string]any{"data": map[string]any{
		"name":             `Evil <script>alert("n")</script> & co`,
		"shortDescription": `<img src=x onerror=alert(1)>`,
		"description":      `<p>First</p><script>alert("d")</script><p>Second <b>bold</b></p>`,
		"variants":         []any{map[string]any{"code": "EVIL-1", "price": "10.00"}},
	}}).Get("product")
	status, _, page := get(t, p.Get("url").String())
	if status != 200 {
		t.Fatalf("the new product's url %s: %d", p.Get("url"), status)
	}
	for _, want := range []string{`src="` + s.URL + "/eshops/1001" + storefront.PlaceholderPath + `" data-image-url=""`, // no images: the placeholder
		`Evil &lt;script&gt;alert(&#34;n&#34;)&lt;/script&gt; &amp; co`, `&lt;img src=x onerror=alert(1)&gt;`, `<p>First</p>`, `<p>Second bold</p>`} {
		if !strings.Contains(page, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(page, "<script>alert") || strings.Contains(page, "<img src=x") || strings.Contains(page, "<b>bold") {
		t.Errorf("markup from the product reached the page:\n%s", page)
	}
	if _, _, home := get(t, s.URL+"/eshops/1001/"); strings.Contains(home, "<script>alert") {
		t.Error("markup on the home page")
	}
}
