// Package storefront renders the buyer-facing pages the sandbox serves at
// an e-shop's own address {eshop_url}: the home page, category and
// product pages at the addresses the API gives them, the order-confirmed
// page with its online-payment button, the thank-you page at the payment
// gateway's return address. Pages are in the e-shop's default language
// (sandbox/shop/storefront/locale), in its colours and with its logo (the
// "_storefront" key of eshop.json), styled by one embedded stylesheet.
// Every page carries the HTML inserted through the templates endpoints at
// the spec's places (common-header in the head, common-footer before the
// end of the body, order-confirmed on the page confirming an order), so a
// template add-on can see its code in a browser. Everything else on a
// page is escaped by html/template.
package storefront

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
)

// TemplatesCollection is the per-e-shop store collection of inserted
// HTML: the record id is the location and the field "html" the code.
const TemplatesCollection = "templates"

// The three insertion locations of the spec.
const (
	CommonHeader   = "common-header"   // into the head of every page
	CommonFooter   = "common-footer"   // before the end of the body
	OrderConfirmed = "order-confirmed" // the page confirming an order
)

// Locations lists the insertion locations in a stable order.
var Locations = []string{CommonHeader, CommonFooter, OrderConfirmed}

// Inserted returns the HTML stored for a location ("" when none).
func Inserted(tx *store.Tx, eshopID int, location string) string {
	raw, err := tx.Get(eshopID, TemplatesCollection, location)
	if err != nil {
		return ""
	}
	return gjson.GetBytes(raw, "html").String()
}

//go:embed assets/*.html assets/style.css
var assets embed.FS

// stylesheet is the one stylesheet of every page.
var stylesheet = func() template.CSS {
	raw, err := assets.ReadFile("assets/style.css")
	if err != nil {
		panic(err)
	}
	return template.CSS(raw)
}()

// pageKinds are the page templates; each defines "title" and "content"
// for the shared layout.
var pageKinds = []string{"home", "category", "product", "confirmed", "thankyou", "redirect", "preview"}

var pageTemplates = func() map[string]*template.Template {
	base := template.Must(template.ParseFS(assets, "assets/layout.html", "assets/order.html"))
	out := map[string]*template.Template{}
	for _, kind := range pageKinds {
		out[kind] = template.Must(template.Must(base.Clone()).ParseFS(assets, "assets/"+kind+".html"))
	}
	return out
}()

// Page is one buyer-facing page, built once its e-shop is known.
type Page struct {
	kind     string
	eshopURL string // the e-shop's address; "" gives root-relative links
	// data builds the page's own data from its e-shop and language.
	data           func(s *shop, t *locale.Messages) any
	refresh        *refresh
	orderConfirmed bool
}

// refresh sends the browser on after a delay (meta refresh).
type refresh struct {
	Seconds int
	URL     string
}

// pageData is what the layout reads.
type pageData struct {
	Kind                      string
	Shop                      *shop
	T                         *locale.Messages
	ShopID                    string
	Page                      any
	CSS                       template.CSS
	Refresh                   *refresh
	Header, Footer, Confirmed template.HTML
}

// Render renders a page of an e-shop with its look, language and
// inserted HTML. Inserted code is the e-shop's own and is placed
// verbatim, as the real service does. An e-shop that does not exist gets
// a page that says so (the callers have loaded it already).
func Render(tx *store.Tx, eshopID int, p Page) []byte {
	out, err := render(tx, eshopID, p)
	if err != nil {
		return []byte("<!DOCTYPE html><title>Error</title><p>" + template.HTMLEscapeString(err.Error()) + "</p>")
	}
	return out
}

func render(tx *store.Tx, eshopID int, p Page) ([]byte, error) {
	tpl, ok := pageTemplates[p.kind]
	if !ok {
		return nil, fmt.Errorf("storefront: no page of kind %q", p.kind)
	}
	s, err := loadShop(tx, eshopID, p.eshopURL)
	if err != nil {
		return nil, err
	}
	t := locale.For(s.Lang)
	d := pageData{Kind: p.kind, Shop: s, T: t, ShopID: strconv.Itoa(eshopID), CSS: stylesheet, Refresh: p.refresh,
		Header: template.HTML(Inserted(tx, eshopID, CommonHeader)),
		Footer: template.HTML(Inserted(tx, eshopID, CommonFooter))}
	if p.data != nil {
		d.Page = p.data(s, t)
	}
	if p.orderConfirmed {
		d.Confirmed = template.HTML(Inserted(tx, eshopID, OrderConfirmed))
	}
	var buf bytes.Buffer
	if err := tpl.ExecuteTemplate(&buf, "layout", d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
