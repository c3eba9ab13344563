// Package storefront renders the buyer-facing pages the sandbox serves at
// an e-shop's own address: the shop preview, the order-confirmed page with
// its online-payment button, the thank-you page. Every page carries the
// HTML inserted through the templates endpoints at the three fixed
// locations, so a template add-on can see its code in a browser.
package storefront

import (
	"bytes"
	"html/template"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/store"
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

// Page is one buyer-facing page.
type Page struct {
	Title string
	// Head is extra trusted markup for <head> (e.g. a meta refresh).
	Head template.HTML
	// Body is the page's own trusted markup.
	Body template.HTML
	// OrderConfirmed inserts the order-confirmed code (on the page that
	// confirms an order).
	OrderConfirmed bool
}

var layout = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
{{.Head}}
{{.Header}}
</head>
<body>
{{.Body}}
{{if .Confirmed}}<div id="order-confirmed-insert">{{.Confirmed}}</div>{{end}}
{{.Footer}}
</body>
</html>
`))

// Render renders a page with the e-shop's inserted HTML. Inserted code is
// the e-shop's own and is placed verbatim, as the real service does.
func Render(tx *store.Tx, eshopID int, p Page) []byte {
	data := struct {
		Title                     string
		Head, Body                template.HTML
		Header, Footer, Confirmed template.HTML
	}{Title: p.Title, Head: p.Head, Body: p.Body,
		Header: template.HTML(Inserted(tx, eshopID, CommonHeader)),
		Footer: template.HTML(Inserted(tx, eshopID, CommonFooter))}
	if p.OrderConfirmed {
		data.Confirmed = template.HTML(Inserted(tx, eshopID, OrderConfirmed))
	}
	var buf bytes.Buffer
	_ = layout.Execute(&buf, data)
	return buf.Bytes()
}
