package jobs_test

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
)

// TestUploadedImageNames: an uploaded image is named as the fixtures name
// theirs, "<product number>_<source name>.<format>" with the seoName
// "<product URL slug>-<position>.<format>", so no two images of an
// e-shop share a name (they share one folder per cut): a product keeps
// its number, a product without images gets the e-shop's next one, and a
// second image from the same source name gets a suffix.
func TestUploadedImageNames(t *testing.T) {
	var products []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	prefix := regexp.MustCompile(`^([0-9]+)_`)
	var highest int
	for _, p := range products {
		imgs, _ := p["images"].([]any)
		for _, im := range imgs {
			if g := prefix.FindStringSubmatch(im.(map[string]any)["name"].(string)); g != nil {
				n, _ := strconv.Atoi(g[1])
				highest = max(highest, n)
			}
		}
	}
	if highest == 0 {
		t.Fatal("the fixtures' images have no numbered names")
	}
	seeded := products[0]["guid"].(string)
	seededNumber := prefix.FindStringSubmatch(products[0]["images"].([]any)[0].(map[string]any)["name"].(string))[1]

	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	create := func(name string) (guid, slug string) {
		r := e.Call("POST", "/api/products", map[string]any{"data": map[string]any{"name": name, "variants": []any{map[string]any{"code": name}}}})
		if r.Status != 201 {
			t.Fatalf("create product: %d %s", r.Status, r.Body)
		}
		var d struct{ Product struct{ GUID, URL string } }
		r.Data(t, &d)
		return d.Product.GUID, path.Base(d.Product.URL) // the answer's URL, {eshop_url} filled in
	}
	upload := func(guid, source string) (name, seo string) {
		id := submit(t, e, "POST", "/api/products/"+guid+"/images/shop", map[string]any{"data": map[string]any{"images": []map[string]any{{"sourceUrl": source}}}})
		e.Advance("5s")
		if j := job(t, e, id); j.Status != jobs.Completed {
			t.Fatalf("upload to %s: %+v log %q", guid, j, deref(j.Log))
		}
		r := e.Call("GET", "/api/products/"+guid+"/images/shop", nil)
		var d struct {
			Images []struct{ Name, SeoName string }
		}
		r.Data(t, &d)
		if len(d.Images) == 0 {
			t.Fatalf("no images after the upload: %s", r.Body)
		}
		last := d.Images[len(d.Images)-1]
		return last.Name, last.SeoName
	}

	a, slugA := create("NAMES-A")
	b, slugB := create("NAMES-B")
	seen := map[string]string{}
	for _, c := range []struct {
		guid, source, name, seo string
	}{
		{a, png, fmt.Sprintf("%d_image.png", highest+1), slugA + "-1.png"},
		{b, png, fmt.Sprintf("%d_image.png", highest+2), slugB + "-1.png"},
		{a, png, fmt.Sprintf("%d_image-2.png", highest+1), slugA + "-2.png"},
		{seeded, png, seededNumber + "_image.png", ""},
	} {
		name, seo := upload(c.guid, c.source)
		if name != c.name || (c.seo != "" && seo != c.seo) {
			t.Errorf("upload to %s: name %q seoName %q, want %q %q", c.guid, name, seo, c.name, c.seo)
		}
		for _, n := range []string{name, seo} {
			if other, ok := seen[n]; ok {
				t.Errorf("%q names an image of %s and one of %s", n, other, c.guid)
			}
			seen[n] = c.guid
		}
	}
}
