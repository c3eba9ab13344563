// Package images serves an e-shop's product images at the addresses the
// API gives for them (spec, "Product images"): a cut's urlPath plus an
// image's name, the cut's cdnPath plus the image's signed name for that
// cut (cdnName for big, an entry of signedCdnNames for each cut), and an
// image's seoName after a urlPath, which redirects to its name. The
// sandbox stores no pixels: every picture is generated with the standard
// library's image packages, of the cut's size, in the format the name's
// extension says (picture.go).
package images

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// productsCollection is the store collection of products (the registry
// row "products"), whose records hold the images.
const productsCollection = "products"

// Service serves the images of every e-shop.
type Service struct {
	Store *store.Store
}

// Routes are the e-shop routes ({eshop_url}/...) serving images: the
// cuts' urlPath (uncached, for the add-on's backend) and cdnPath (cached,
// for a shop's pages).
func (s *Service) Routes() []api.Route {
	return []api.Route{
		{Operation: "images.url", Method: http.MethodGet, Path: "/user/{folder}/{cut}/{name}", Handler: s.serveURL,
			Summary: "A product image by a cut's urlPath and the image's name (its seoName redirects there)"},
		{Operation: "images.cdn", Method: http.MethodGet, Path: "/cdn/{cut}/{name}", Handler: s.serveCDN,
			Summary: "A product image by a cut's cdnPath and the image's signed name for that cut"},
	}
}

// Cut is one image cut of an e-shop, as GET /api/eshop?include=imageCuts
// gives it (paths with the {eshop_url} placeholder).
type Cut struct {
	Name    string `json:"name"`
	URLPath string `json:"urlPath"`
	CDNPath string `json:"cdnPath"`
	Width   *int   `json:"width"`
	Height  *int   `json:"height"`
}

// Size is the size of the cut's pictures.
func (c *Cut) Size() Size {
	deref := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	return SizeOf(deref(c.Width), deref(c.Height))
}

// picture is what the addresses of one product image are made of.
type picture struct {
	Name    string `json:"name"`
	SeoName string `json:"seoName"`
	CDNName string `json:"cdnName"`
	Signed  []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"signedCdnNames"`
}

// signedFor reports whether signed ("name?signature") is the picture's
// name for the cdnPath of cut: cdnName for big, its signedCdnNames entry
// of that cut's type for every cut.
func (p *picture) signedFor(cut, signed string) bool {
	if cut == "big" && p.CDNName == signed {
		return true
	}
	for _, s := range p.Signed {
		if s.Type == cut && s.Name == signed {
			return true
		}
	}
	return false
}

// cutsOf reads an e-shop's image cuts.
func cutsOf(tx *store.Tx, eshopID int) ([]Cut, error) {
	raw, err := tx.Get(eshopID, eshop.InfoCollection, "info")
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(strconv.Itoa(eshopID), "E-shop %d does not exist.", eshopID)
	}
	if err != nil {
		return nil, err
	}
	var cuts []Cut
	if v := gjson.GetBytes(raw, "imageCuts"); v.IsArray() {
		if err := json.Unmarshal([]byte(v.Raw), &cuts); err != nil {
			return nil, fmt.Errorf("e-shop %d image cuts: %w", eshopID, err)
		}
	}
	return cuts, nil
}

// cutAt finds the cut whose urlPath (or cdnPath) is dir under the
// e-shop's address.
func cutAt(cuts []Cut, dir string, cdn bool) *Cut {
	for i := range cuts {
		p := cuts[i].URLPath
		if cdn {
			p = cuts[i].CDNPath
		}
		if p == eshopURL+dir {
			return &cuts[i]
		}
	}
	return nil
}

// eshopURL is the placeholder the stored cut paths start with.
const eshopURL = "{eshop_url}"

// plainName matches the names a byte search finds as they are in the
// stored JSON (no character there is escaped).
var plainName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// find returns the first product image of the e-shop that match accepts,
// or nil. name, which every accepted image's names contain, lets most
// products be skipped without parsing.
func find(tx *store.Tx, eshopID int, name string, match func(*picture) bool) (*picture, error) {
	var found *picture
	var ferr error
	needle := []byte(name)
	if !plainName.MatchString(name) {
		needle = nil
	}
	err := tx.Scan(eshopID, productsCollection, func(_ string, doc []byte) bool {
		if needle != nil && !bytes.Contains(doc, needle) {
			return true
		}
		for _, im := range gjson.GetBytes(doc, "images").Array() {
			var p picture
			if ferr = json.Unmarshal([]byte(im.Raw), &p); ferr != nil {
				return false
			}
			if match(&p) {
				found = &p
				return false
			}
		}
		return true
	})
	if err == nil {
		err = ferr
	}
	return found, err
}

// lookup finds, in one transaction, the cut of the request's e-shop at
// dir (its cdnPath when cdn, else its urlPath) and the image pick finds
// for it: a 404 naming what is missing when either is not there.
func (s *Service) lookup(r *api.Request, dir string, cdn bool, pick func(tx *store.Tx, id int, cut *Cut) (*picture, error)) (int, *Cut, *picture, error) {
	id, _ := strconv.Atoi(r.Var("eshopId"))
	var cut *Cut
	var pic *picture
	err := s.Store.View(func(tx *store.Tx) error {
		cuts, err := cutsOf(tx, id)
		if err != nil {
			return err
		}
		if cut = cutAt(cuts, dir, cdn); cut == nil {
			return sandbox.NotFound(strings.Trim(dir, "/"), "E-shop %d has no image cut at {eshop_url}%s. GET /api/eshop?include=imageCuts gives each cut's urlPath and cdnPath.", id, dir)
		}
		pic, err = pick(tx, id, cut)
		return err
	})
	return id, cut, pic, err
}

// serveURL serves GET {eshop_url}/user/{folder}/{cut}/{name}: the image
// of that name in the cut whose urlPath this is, or a redirect to it from
// its seoName.
func (s *Service) serveURL(r *api.Request) (any, error) {
	dir := "/user/" + r.Var("folder") + "/" + r.Var("cut") + "/"
	name := r.Var("name")
	id, cut, pic, err := s.lookup(r, dir, false, func(tx *store.Tx, id int, _ *Cut) (*picture, error) {
		for _, field := range []func(*picture) string{func(p *picture) string { return p.Name }, func(p *picture) string { return p.SeoName }} {
			if pic, err := find(tx, id, name, func(p *picture) bool { return field(p) == name }); err != nil || pic != nil {
				return pic, err
			}
		}
		return nil, sandbox.NotFound(name, "E-shop %d has no product image named %q. After a cut's urlPath goes an image's name or seoName (GET /api/products/{guid}?include=images).", id, name)
	})
	if err != nil {
		return nil, err
	}
	if pic.Name != name { // its seoName: "an alternative name that redirects to the same image"
		return &api.Raw{Status: http.StatusMovedPermanently, Header: http.Header{
			"Location": {eshop.EshopPath(id) + dir + url.PathEscape(pic.Name)}}}, nil
	}
	return serve(pic.Name, cut, "no-cache") // urlPath: uncached, for backend retrieval
}

// serveCDN serves GET {eshop_url}/cdn/{cut}/{name}?{signature}: the image
// whose signed name for that cut this is.
func (s *Service) serveCDN(r *api.Request) (any, error) {
	name := r.Var("name")
	signed := name + "?" + r.URL.RawQuery
	_, cut, pic, err := s.lookup(r, "/cdn/"+r.Var("cut")+"/", true, func(tx *store.Tx, id int, cut *Cut) (*picture, error) {
		if r.URL.RawQuery != "" {
			if pic, err := find(tx, id, name, func(p *picture) bool { return p.signedFor(cut.Name, signed) }); err != nil || pic != nil {
				return pic, err
			}
		}
		return nil, sandbox.NotFound(name, "E-shop %d has no product image signed %q for the %s cut. After a cut's cdnPath goes the image's signed name for that cut: cdnName for big, the signedCdnNames entry of the cut's type for any cut (GET /api/products/{guid}?include=images).", id, signed, cut.Name)
	})
	if err != nil {
		return nil, err
	}
	// cdnPath: cached, for frontend display; a signed name changes with
	// the image, so the answer never goes stale.
	return serve(pic.Name, cut, "public, max-age=31536000, immutable")
}

// serve answers the generated picture of an image in a cut.
func serve(name string, cut *Cut, cacheControl string) (any, error) {
	f := FormatOf(name)
	body, err := f.Encode(name, cut.Size())
	if err != nil {
		return nil, fmt.Errorf("image %s (%s cut): %w", name, cut.Name, err)
	}
	return &api.Raw{ContentType: f.ContentType, Body: body, Header: http.Header{
		"Cache-Control":  {cacheControl},
		"Content-Length": {strconv.Itoa(len(body))},
	}}, nil
}

// servedURL and servedCDN are the shapes of cut paths the routes serve.
var (
	servedURL = regexp.MustCompile(`^\{eshop_url\}/user/[^/?#]+/[^/?#]+/$`)
	servedCDN = regexp.MustCompile(`^\{eshop_url\}/cdn/[^/?#]+/$`)
)

// Check refuses image cuts the sandbox cannot serve: every cut's urlPath
// must be {eshop_url}/user/<folder>/<cut>/ and its cdnPath
// {eshop_url}/cdn/<cut>/, as in the embedded fixtures, or the addresses
// the API gives would answer 404 (or point at another server).
func (s *Service) Check() error {
	return s.Store.View(func(tx *store.Tx) error {
		shops, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range shops {
			cuts, err := cutsOf(tx, m.ID)
			if se := (*sandbox.Error)(nil); errors.As(err, &se) && se.Kind == sandbox.KindNotFound {
				continue // no eshop.json: no cuts
			}
			if err != nil {
				return err
			}
			for _, c := range cuts {
				if !servedURL.MatchString(c.URLPath) || !servedCDN.MatchString(c.CDNPath) {
					return fmt.Errorf("e-shop %d, image cut %q: the sandbox serves images at urlPath {eshop_url}/user/<folder>/<cut>/ and cdnPath {eshop_url}/cdn/<cut>/, not %q and %q; fix eshop.json",
						m.ID, c.Name, c.URLPath, c.CDNPath)
				}
			}
		}
		return nil
	})
}
