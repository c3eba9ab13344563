package storefront

import (
	"net/http"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
)

// Catalog serves the e-shop's catalogue pages: the home page, category
// pages and product pages, at the addresses the API gives them, and a
// preview of the order-confirmed page.
type Catalog struct {
	Store *store.Store
	Site  *eshop.Site
}

// Routes are the catalogue pages, relative to {eshop_url}. A product or
// category lives at {eshop_url}/<index name>/ (its url in API answers), a
// single path segment with a slash after it, which no other e-shop route
// uses.
func (c *Catalog) Routes() []api.Route {
	return []api.Route{
		{Operation: "storefront.home", Method: http.MethodGet, Path: "/", Handler: c.home},
		{Operation: "storefront.home.bare", Method: http.MethodGet, Path: "", Handler: c.home},
		{Operation: "storefront.order-confirmed.preview", Method: http.MethodGet, Path: "/preview/order-confirmed", Handler: c.preview},
		{Operation: "storefront.placeholder", Method: http.MethodGet, Path: PlaceholderPath, Handler: placeholderImage},
		{Operation: "storefront.page", Method: http.MethodGet, Path: "/{slug}/", Handler: c.page},
	}
}

func htmlAnswer(page []byte) *api.Raw {
	return &api.Raw{ContentType: "text/html; charset=utf-8", Body: page}
}

// view renders a page of the request's e-shop inside a read transaction.
func (c *Catalog) view(r *api.Request, build func(cat *catalog) (Page, error)) (any, error) {
	id, _ := strconv.Atoi(r.Var("eshopId"))
	var out []byte
	err := c.Store.View(func(tx *store.Tx) error {
		s, err := loadShop(tx, id, c.Site.EshopURL(id))
		if err != nil {
			return err
		}
		p, err := build(&catalog{tx: tx, shop: s})
		if err != nil {
			return err
		}
		p.eshopURL = s.URL
		out, err = render(tx, id, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return htmlAnswer(out), nil
}

type homeView struct {
	Categories []link
	Cards      []card
	PreviewURL string
}

func (c *Catalog) home(r *api.Request) (any, error) {
	return c.view(r, func(cat *catalog) (Page, error) {
		t := locale.For(cat.shop.Lang)
		v := homeView{Categories: cat.shop.Nav, PreviewURL: cat.shop.URL + "/preview/order-confirmed"}
		cat.products(func(p *product) bool {
			if p.listed() {
				v.Cards = append(v.Cards, cat.card(p, t))
			}
			return len(v.Cards) < maxHomeProducts
		})
		return Page{kind: "home", data: func(*shop, *locale.Messages) any { return v }}, nil
	})
}

func (c *Catalog) preview(r *api.Request) (any, error) {
	return c.view(r, func(*catalog) (Page, error) {
		return Page{kind: "preview", orderConfirmed: true}, nil
	})
}

// page serves {eshop_url}/<slug>/: the product or the category there.
func (c *Catalog) page(r *api.Request) (any, error) {
	slug := r.Var("slug")
	return c.view(r, func(cat *catalog) (Page, error) {
		p, category := cat.bySlug(slug)
		switch {
		case p != nil:
			v := cat.productView(p, locale.For(cat.shop.Lang))
			return Page{kind: "product", data: func(*shop, *locale.Messages) any { return v }}, nil
		case category != nil:
			v := cat.categoryView(category, locale.For(cat.shop.Lang))
			return Page{kind: "category", data: func(*shop, *locale.Messages) any { return v }}, nil
		}
		return Page{}, sandbox.NotFound(slug, "E-shop %d has no product or category at %s/%s/.", cat.shop.ID, cat.shop.URL, slug)
	})
}
