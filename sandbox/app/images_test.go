package app_test

import (
	"image"
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/images"
)

// cutView is an image cut as GET /api/eshop?include=imageCuts gives it.
type cutView struct {
	Name    string `json:"name"`
	URLPath string `json:"urlPath"`
	CDNPath string `json:"cdnPath"`
	Width   *int   `json:"width"`
	Height  *int   `json:"height"`
}

// imageView is a product image as GET /api/products/{guid}?include=images
// gives it.
type imageView struct {
	Name    string `json:"name"`
	SeoName string `json:"seoName"`
	CDNName string `json:"cdnName"`
	Signed  []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"signedCdnNames"`
}

// TestImagesServedAtTheirAddresses fetches, through the sandbox's own
// listener, every address the API gives for a fixture product's image: a
// cut's urlPath + name, the big cut's cdnPath + cdnName, each cut's
// cdnPath + its signedCdnNames entry. Each answers a picture of the cut's
// size (the sandbox's Orig for the size-less orig cut) in the format of
// the name. The seoName after a urlPath redirects to the name; names,
// signatures and cuts the API never gave answer 404 in the envelope.
func TestImagesServedAtTheirAddresses(t *testing.T) {
	s, f := start(t)
	var info struct {
		ImageCuts []cutView `json:"imageCuts"`
	}
	s.Do(sandboxtest.Call{Path: "/api/eshop?include=imageCuts", PrivateToken: f.FullToken}).Data(t, &info)
	if len(info.ImageCuts) < 2 {
		t.Fatalf("image cuts: %+v", info.ImageCuts)
	}
	product := productBy(f, func(p map[string]any) bool { imgs, _ := p["images"].([]any); return len(imgs) > 0 })
	var detail struct {
		Images []imageView `json:"images"`
	}
	s.Do(sandboxtest.Call{Path: "/api/products/" + product["guid"].(string) + "?include=images", PrivateToken: f.FullToken}).Data(t, &detail)
	if len(detail.Images) == 0 {
		t.Fatal("the product's images are missing")
	}
	img := detail.Images[0]
	// Another e-shop's image: not served under this e-shop's address.
	var other struct {
		Products []struct {
			MainImage *imageView `json:"mainImage"`
		} `json:"products"`
	}
	s.Do(sandboxtest.Call{Path: "/api/products", PrivateToken: f.OtherToken}).Data(t, &other)
	foreign := ""
	for _, p := range other.Products {
		if p.MainImage != nil {
			foreign = p.MainImage.Name
		}
	}
	if foreign == "" {
		t.Fatal("e-shop 1002 has no product image")
	}

	type fetch struct {
		name, url string
		cut       cutView
	}
	var ok []fetch
	var big cutView
	for _, c := range info.ImageCuts {
		if !strings.HasPrefix(c.URLPath, s.URL+"/") || !strings.HasPrefix(c.CDNPath, s.URL+"/") {
			t.Fatalf("cut %s is not on the sandbox's listener %s: %s, %s", c.Name, s.URL, c.URLPath, c.CDNPath)
		}
		if c.Name == "big" {
			big = c
		}
		ok = append(ok, fetch{"urlPath + name, " + c.Name, c.URLPath + img.Name, c})
		signed := ""
		for _, sn := range img.Signed {
			if sn.Type == c.Name {
				signed = sn.Name
			}
		}
		if signed == "" {
			t.Fatalf("image %s has no signed name for the %s cut", img.Name, c.Name)
		}
		ok = append(ok, fetch{"cdnPath + signedCdnNames, " + c.Name, c.CDNPath + signed, c})
	}
	ok = append(ok, fetch{"cdnPath + cdnName, big", big.CDNPath + img.CDNName, big})
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			resp := get(t, s, tc.url)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d %s", tc.url, resp.StatusCode, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "image/jpeg" { // the fixture's names end in .jpg
				t.Errorf("Content-Type %q, want image/jpeg for %s", ct, img.Name)
			}
			cfg, format, err := image.DecodeConfig(strings.NewReader(string(body)))
			if err != nil || format != "jpeg" {
				t.Fatalf("not a JPEG picture: %v (%s)", err, format)
			}
			want := images.Orig // the orig cut has no size of its own
			if tc.cut.Width != nil && tc.cut.Height != nil {
				want = images.Size{W: *tc.cut.Width, H: *tc.cut.Height}
			}
			if cfg.Width != want.W || cfg.Height != want.H {
				t.Errorf("picture %dx%d, want the %s cut's %dx%d", cfg.Width, cfg.Height, tc.cut.Name, want.W, want.H)
			}
		})
	}

	var detailCut cutView
	for _, c := range info.ImageCuts {
		if c.Name == "detail" {
			detailCut = c
		}
	}
	t.Run("seoName redirects to the name", func(t *testing.T) {
		if img.SeoName == img.Name {
			t.Fatalf("the fixture image's seoName is its name: %s", img.Name)
		}
		resp := get(t, s, detailCut.URLPath+img.SeoName)
		resp.Body.Close()
		loc, err := resp.Location()
		if resp.StatusCode != http.StatusMovedPermanently || err != nil || loc.String() != detailCut.URLPath+img.Name {
			t.Fatalf("GET %s: %d Location %v (%v), want 301 to %s", detailCut.URLPath+img.SeoName, resp.StatusCode, loc, err, detailCut.URLPath+img.Name)
		}
		followed, err := s.Client.Get(detailCut.URLPath + img.SeoName)
		if err != nil {
			t.Fatal(err)
		}
		defer followed.Body.Close()
		cfg, _, err := image.DecodeConfig(followed.Body)
		if followed.StatusCode != 200 || err != nil || cfg.Width != *detailCut.Width || cfg.Height != *detailCut.Height {
			t.Fatalf("followed: %d %v %dx%d", followed.StatusCode, err, cfg.Width, cfg.Height)
		}
	})

	u, _ := url.Parse(s.URL)
	for _, tc := range []struct{ name, url string }{
		{"unknown name", detailCut.URLPath + "no-such-image.jpg"},
		{"another e-shop's image", detailCut.URLPath + foreign},
		{"unsigned name on the CDN", detailCut.CDNPath + img.Name},
		{"wrong signature", detailCut.CDNPath + img.Name + "?0000000000"},
		{"big's cdnName on another cut's cdnPath", detailCut.CDNPath + img.CDNName},
		{"seoName on the CDN", big.CDNPath + img.SeoName},
		{"unknown cut", strings.Replace(detailCut.URLPath, "/detail/", "/huge/", 1) + img.Name},
		{"unknown e-shop", strings.Replace(detailCut.URLPath, "/eshops/1001/", "/eshops/9999/", 1) + img.Name},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.HasPrefix(tc.url, u.String()) {
				t.Fatalf("%s is not on the sandbox", tc.url)
			}
			resp := get(t, s, tc.url)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 404 || !strings.Contains(string(body), `"errorCode":"not-found"`) {
				t.Fatalf("GET %s: %d %s, want 404 not-found", tc.url, resp.StatusCode, body)
			}
		})
	}
}

// get fetches a URL without following redirects; the body is the
// caller's to close.
func get(t *testing.T, s *sandboxtest.Server, u string) *http.Response {
	t.Helper()
	c := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}
