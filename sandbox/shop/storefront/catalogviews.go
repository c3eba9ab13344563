package storefront

import (
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
)

// crumbs is a breadcrumb trail.
type crumbs struct {
	Home     string
	HomeName string
	Links    []link
}

// trail is the breadcrumb trail down to a category (itself included).
func (c *catalog) trail(guid string, t *locale.Messages) crumbs {
	out := crumbs{Home: c.shop.Home(), HomeName: t.Home}
	byGUID := map[string]*category{}
	for _, cat := range c.categories() {
		byGUID[cat.GUID] = cat
	}
	var chain []link
	for seen := map[string]bool{}; guid != "" && !seen[guid]; {
		seen[guid] = true
		cat, ok := byGUID[guid]
		if !ok {
			break
		}
		chain = append([]link{c.categoryLink(cat)}, chain...)
		guid = cat.ParentGUID
	}
	out.Links = chain
	return out
}

type productView struct {
	GUID, Name, AdditionalName, Short string
	Image                             image
	Price, VATNote, Availability      string
	Code, Brand                       string
	Category                          *link
	Flags                             []string
	Description                       []string
	Variants                          []variantView
	Params                            []param
	Crumbs                            crumbs
}

type variantView struct{ Name, Code, Availability, Price string }

type param struct{ Name, Value string }

func (c *catalog) productView(p *product, t *locale.Messages) productView {
	cd := c.card(p, t)
	v := productView{GUID: p.GUID, Name: p.Name, AdditionalName: p.AdditionalName, Short: p.ShortDescription, Image: cd.Image,
		Price: cd.Price, VATNote: cd.VATNote, Availability: cd.Availability, Flags: cd.Flags,
		Description: plainParagraphs(p.Description)}
	if p.Brand != nil {
		v.Brand = p.Brand.Name
	}
	if len(p.Variants) > 0 {
		v.Code = p.Variants[0].Code
	}
	for _, pv := range p.Variants {
		row := variantView{Name: pv.Name, Code: pv.Code, Price: c.shop.currency(pv.CurrencyCode).Price(pv.Price)}
		if pv.Availability != nil {
			row.Availability = pv.Availability.Name
		}
		v.Variants = append(v.Variants, row)
	}
	for _, dp := range p.DescriptiveParameters {
		if dp.Name != "" && dp.Value != "" {
			v.Params = append(v.Params, param{dp.Name, dp.Value})
		}
	}
	guid := ""
	if p.DefaultCategory != nil {
		guid = p.DefaultCategory.GUID
	} else if len(p.Categories) > 0 {
		guid = p.Categories[0].GUID
	}
	v.Crumbs = c.trail(guid, t)
	if n := len(v.Crumbs.Links); n > 0 {
		v.Category = &v.Crumbs.Links[n-1]
	}
	return v
}

type categoryView struct {
	GUID, Name  string
	Description []string
	Children    []link
	Cards       []card
	Crumbs      crumbs
}

// categoryView shows a category with its subcategories and the listed
// products of it and of every category below it.
func (c *catalog) categoryView(cat *category, t *locale.Messages) categoryView {
	v := categoryView{GUID: cat.GUID, Name: cat.Name, Description: plainParagraphs(cat.Description), Crumbs: c.trail(cat.ParentGUID, t)}
	all := c.categories()
	below := map[string]bool{cat.GUID: true}
	for grew := true; grew; {
		grew = false
		for _, x := range all {
			if below[x.ParentGUID] && !below[x.GUID] {
				below[x.GUID], grew = true, true
			}
		}
	}
	for _, x := range all {
		if x.ParentGUID == cat.GUID {
			v.Children = append(v.Children, c.categoryLink(x))
		}
	}
	c.products(func(p *product) bool {
		if p.listed() && p.inAny(below) {
			v.Cards = append(v.Cards, c.card(p, t))
		}
		return len(v.Cards) < maxCategoryProducts
	})
	return v
}
