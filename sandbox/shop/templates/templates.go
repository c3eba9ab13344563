// Package templates emulates the Templates group: HTML code inserted at
// the three fixed locations (common-header, common-footer,
// order-confirmed), stored in the storefront's templates collection, and
// the storefront pages at {eshop_url}/ that show it (sandbox/shop/storefront),
// so a template add-on can see its code in a browser.
package templates

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront"
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

// Routes are the storefront pages that show the inserted code: the
// catalogue pages of sandbox/shop/storefront (home, categories, products, the
// order-confirmed preview).
func (s *Service) Routes() []api.Route {
	return (&storefront.Catalog{Store: s.Store, Site: s.Site}).Routes()
}
