// Package templates emulates the Templates group: HTML code inserted at
// the three fixed locations (common-header, common-footer,
// order-confirmed), stored in the storefront's templates collection, and
// the storefront preview at {eshop_url}/ that renders it, so a template
// add-on can see its code in a browser.
package templates

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
	"github.com/eshop-sandbox/sandbox/sandbox/storefront"
)

// Service serves the Templates endpoints and the preview pages.
type Service struct {
	Store *store.Store
	Site  *eshop.Site
}

// Snippet is one location's inserted code.
type Snippet struct {
	Location string `json:"location"`
	HTML     string `json:"html"`
}

// Handlers returns the Templates handlers keyed by operation.
func (s *Service) Handlers() map[string]api.HandlerFunc {
	return map[string]api.HandlerFunc{
		"GetListingOfHtmlCodes":  s.list,
		"CreateAndEditHtmlCodes": s.upsert,
		"DeleteHtmlCode":         s.remove,
	}
}

// Snippets returns the e-shop's inserted code in location order.
func Snippets(tx *store.Tx, eshopID int) []Snippet {
	out := []Snippet{}
	for _, loc := range storefront.Locations {
		if raw, err := tx.Get(eshopID, storefront.TemplatesCollection, loc); err == nil {
			var sn Snippet
			if json.Unmarshal(raw, &sn) == nil {
				sn.Location = loc
				out = append(out, sn)
			}
		}
	}
	return out
}

func (s *Service) list(r *api.Request) (any, error) {
	var out []Snippet
	err := s.Store.View(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, r.Eshop); err != nil {
			return err
		}
		out = Snippets(tx, r.Eshop)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"snippets": out}, nil
}

// upsert stores the code of each given location, replacing what was
// there, and answers every location's code.
func (s *Service) upsert(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data, _ := body["data"].(map[string]any)
	rows, _ := data["snippets"].([]any)
	if len(rows) == 0 {
		return nil, sandbox.Invalid("data.snippets", "Field data.snippets: give at least one {\"location\": \"common-header\", \"html\": \"...\"}.")
	}
	var snippets []Snippet
	for i, row := range rows {
		m, _ := row.(map[string]any)
		loc, _ := m["location"].(string)
		html, ok := m["html"].(string)
		at := fmt.Sprintf("data.snippets[%d]", i)
		if !slices.Contains(storefront.Locations, loc) {
			return nil, sandbox.Invalid(at+".location", "Field %s.location must be one of %s.", at, strings.Join(storefront.Locations, ", "))
		}
		if !ok {
			return nil, sandbox.Invalid(at+".html", "Field %s.html: the HTML code to insert is required.", at)
		}
		snippets = append(snippets, Snippet{Location: loc, HTML: html})
	}
	var out []Snippet
	err = s.Store.Update(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, r.Eshop); err != nil {
			return err
		}
		for _, sn := range snippets {
			raw, err := json.Marshal(sn)
			if err != nil {
				return err
			}
			if _, err := tx.Put(r.Eshop, storefront.TemplatesCollection, sn.Location, raw); err != nil {
				return err
			}
		}
		out = Snippets(tx, r.Eshop)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"snippets": out}, nil
}

func (s *Service) remove(r *api.Request) (any, error) {
	loc := r.Var("location")
	if !slices.Contains(storefront.Locations, loc) {
		return nil, sandbox.NotFound(loc, "Location %q does not exist; the locations are %s.", loc, strings.Join(storefront.Locations, ", "))
	}
	err := s.Store.Update(func(tx *store.Tx) error {
		if err := tx.Delete(r.Eshop, storefront.TemplatesCollection, loc); err != nil {
			return sandbox.NotFound(loc, "No HTML code is inserted at %s.", loc)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return nil, nil
}

// Routes are the e-shop's preview pages: the storefront at {eshop_url}/
// and a preview of the order-confirmed page.
func (s *Service) Routes() []api.Route {
	return []api.Route{
		{Operation: "storefront.home", Method: http.MethodGet, Path: "/", Handler: s.home},
		{Operation: "storefront.home.bare", Method: http.MethodGet, Path: "", Handler: s.home},
		{Operation: "storefront.order-confirmed.preview", Method: http.MethodGet, Path: "/preview/order-confirmed", Handler: s.confirmedPreview},
	}
}

var homeBody = template.Must(template.New("home").Parse(`<header><h1>{{.Name}}</h1><p>Sandbox storefront preview of e-shop {{.ID}}.</p></header>
<main>
<h2>Products</h2>
<ul id="products">{{range .Products}}<li>{{.}}</li>{{else}}<li>No visible products.</li>{{end}}</ul>
<p><a href="{{.ConfirmedURL}}">Preview the order-confirmed page</a></p>
</main>`))

// maxPreviewProducts caps the product list of the preview.
const maxPreviewProducts = 24

func (s *Service) home(r *api.Request) (any, error) {
	id, _ := strconv.Atoi(r.Var("eshopId"))
	var page []byte
	err := s.Store.View(func(tx *store.Tx) error {
		meta, err := eshop.Get(tx, id)
		if err != nil {
			return err
		}
		var names []string
		_ = tx.Scan(id, "products", func(_ string, doc []byte) bool {
			var p struct {
				Name       string `json:"name"`
				Visibility string `json:"visibility"`
			}
			if json.Unmarshal(doc, &p) == nil && p.Name != "" && (p.Visibility == "" || p.Visibility == "visible") {
				names = append(names, p.Name)
			}
			return len(names) < maxPreviewProducts
		})
		var body strings.Builder
		if err := homeBody.Execute(&body, map[string]any{"Name": meta.Name, "ID": id, "Products": names,
			"ConfirmedURL": s.Site.EshopURL(id) + "/preview/order-confirmed"}); err != nil {
			return err
		}
		page = storefront.Render(tx, id, storefront.Page{Title: meta.Name, Body: template.HTML(body.String())})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.Raw{ContentType: "text/html; charset=utf-8", Body: page}, nil
}

func (s *Service) confirmedPreview(r *api.Request) (any, error) {
	id, _ := strconv.Atoi(r.Var("eshopId"))
	var page []byte
	err := s.Store.View(func(tx *store.Tx) error {
		meta, err := eshop.Get(tx, id)
		if err != nil {
			return err
		}
		body := template.HTML(`<h1>Thank you for your order</h1><p>This is a preview of the order-confirmed page; the code inserted at order-confirmed appears below.</p>`)
		page = storefront.Render(tx, id, storefront.Page{Title: meta.Name + ": order confirmed", Body: body, OrderConfirmed: true})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.Raw{ContentType: "text/html; charset=utf-8", Body: page}, nil
}
