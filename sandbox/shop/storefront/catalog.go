package storefront

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
)

// The store collections the catalogue pages read (the registry's
// products and categories, seeded from the fixtures and changed through
// the API).
const (
	ProductsCollection   = "products"
	CategoriesCollection = "categories"
)

// Caps that keep a page quick on a large fixture set.
const (
	maxHomeProducts     = 24 // product cards on the home page
	maxCategoryProducts = 48 // product cards on a category page
	maxNavCategories    = 10 // top-level categories in the header
)

// product is what the pages read of a product record.
type product struct {
	GUID             string `json:"guid"`
	Name             string `json:"name"`
	IndexName        string `json:"indexName"`
	URL              string `json:"url"`
	Type             string `json:"type"`
	Visibility       string `json:"visibility"`
	ShortDescription string `json:"shortDescription"`
	Description      string `json:"description"`
	AdditionalName   string `json:"additionalName"`
	Brand            *struct {
		Name string `json:"name"`
	} `json:"brand"`
	DefaultCategory *struct {
		GUID string `json:"guid"`
	} `json:"defaultCategory"`
	Categories []struct {
		GUID string `json:"guid"`
	} `json:"categories"`
	Flags []struct {
		Title string `json:"title"`
	} `json:"flags"`
	Images []struct {
		Name           string `json:"name"`
		Description    string `json:"description"`
		IsMainImage    bool   `json:"isMainImage"`
		Priority       int    `json:"priority"`
		SignedCdnNames []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"signedCdnNames"`
	} `json:"images"`
	Variants []struct {
		Code         string `json:"code"`
		Name         string `json:"name"`
		Price        string `json:"price"`
		CurrencyCode string `json:"currencyCode"`
		IncludingVat bool   `json:"includingVat"`
		Availability *struct {
			Name string `json:"name"`
		} `json:"availability"`
	} `json:"variants"`
	DescriptiveParameters []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"descriptiveParameters"`
}

// listed reports whether the product shows in lists; detail-only ones
// have a page but no card, and hidden, blocked and registered-only ones
// neither (the storefront has no logged-in customer).
func (p *product) listed() bool { return p.Visibility == "" || p.Visibility == "visible" }

// hasPage reports whether the product has a page of its own.
func (p *product) hasPage() bool { return p.listed() || p.Visibility == "detail-only" }

// inAny reports whether the product is in one of the categories.
func (p *product) inAny(guids map[string]bool) bool {
	if p.DefaultCategory != nil && guids[p.DefaultCategory.GUID] {
		return true
	}
	for _, c := range p.Categories {
		if guids[c.GUID] {
			return true
		}
	}
	return false
}

// category is what the pages read of a category record.
type category struct {
	GUID        string `json:"guid"`
	Name        string `json:"name"`
	MenuTitle   string `json:"menuTitle"`
	IndexName   string `json:"indexName"`
	URL         string `json:"url"`
	ParentGUID  string `json:"parentGuid"`
	Priority    int    `json:"priority"`
	Visible     *bool  `json:"visible"`
	Description string `json:"description"`
}

func (c *category) visible() bool { return c.Visible == nil || *c.Visible }

// title is the category's name in menus.
func (c *category) title() string {
	if c.MenuTitle != "" {
		return c.MenuTitle
	}
	return c.Name
}

// catalog reads an e-shop's products and categories inside one
// transaction.
type catalog struct {
	tx   *store.Tx
	shop *shop
}

// categories returns the visible categories in menu order.
func (c *catalog) categories() []*category {
	var out []*category
	_ = c.tx.Scan(c.shop.ID, CategoriesCollection, func(_ string, doc []byte) bool {
		var cat category
		if json.Unmarshal(doc, &cat) == nil && cat.visible() && cat.Name != "" {
			out = append(out, &cat)
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Priority < out[j].Priority })
	return out
}

// products calls fn for each product record until it returns false.
func (c *catalog) products(fn func(p *product) bool) {
	_ = c.tx.Scan(c.shop.ID, ProductsCollection, func(_ string, doc []byte) bool {
		var p product
		if json.Unmarshal(doc, &p) != nil {
			return true
		}
		return fn(&p)
	})
}

// bySlug finds the product or category whose address is
// {eshop_url}/<slug>/ (its url as the API returns it, or its index name).
func (c *catalog) bySlug(slug string) (*product, *category) {
	matches := func(url, indexName string) bool {
		if url != "" {
			return url == "{eshop_url}/"+slug+"/" || url == c.shop.URL+"/"+slug+"/"
		}
		return indexName == slug
	}
	var found *product
	_ = c.tx.Scan(c.shop.ID, ProductsCollection, func(_ string, doc []byte) bool {
		// gjson first: most records are not the one, and need no decoding
		if !matches(gjson.GetBytes(doc, "url").String(), gjson.GetBytes(doc, "indexName").String()) {
			return true
		}
		var p product
		if json.Unmarshal(doc, &p) == nil && p.hasPage() {
			found = &p
			return false
		}
		return true
	})
	if found != nil {
		return found, nil
	}
	for _, cat := range c.categories() {
		if matches(cat.URL, cat.IndexName) {
			return nil, cat
		}
	}
	return nil, nil
}

// link is a named address.
type link struct {
	Name string
	URL  string
}

// url fills an address's placeholder; a record without one gets
// {eshop_url}/<index name>/.
func (c *catalog) url(stored, indexName string) string {
	if stored == "" {
		stored = "{eshop_url}/" + indexName + "/"
	}
	return c.shop.fill(stored)
}

func (c *catalog) categoryLink(cat *category) link {
	return link{Name: cat.title(), URL: c.url(cat.URL, cat.IndexName)}
}

// card is a product in a list.
type card struct {
	Name         string
	URL          string
	Image        image
	Price        string
	VATNote      string
	Availability string
	Flags        []string
}

// image is a product picture: the address shown and the image cut
// address the API gives for it.
type image struct {
	Src    string
	CutURL string // "" when the product has no image
	Alt    string
}

// ImageCut is the image cut the storefront shows products in.
const ImageCut = "detail"

// mainImage is the product's representative image: the one marked main,
// else the first by priority.
func (c *catalog) mainImage(p *product, t *locale.Messages) image {
	img := image{Src: imageSrc(c.shop.URL, ""), Alt: fmt.Sprintf(t.PicturePlain, p.Name)}
	best := -1
	for i, im := range p.Images {
		if best < 0 || im.IsMainImage && !p.Images[best].IsMainImage ||
			im.IsMainImage == p.Images[best].IsMainImage && im.Priority < p.Images[best].Priority {
			best = i
		}
	}
	if best < 0 {
		return img
	}
	im := p.Images[best]
	name := im.Name
	for _, s := range im.SignedCdnNames {
		if s.Type == ImageCut {
			name = s.Name
		}
	}
	if base := c.shop.info.Get(`imageCuts.#(name=="` + ImageCut + `").cdnPath`).String(); base != "" && name != "" {
		img.CutURL = c.shop.fill(base) + name
	}
	if im.Description != "" {
		img.Alt = im.Description
	}
	img.Src = imageSrc(c.shop.URL, img.CutURL)
	return img
}

func (c *catalog) card(p *product, t *locale.Messages) card {
	out := card{Name: p.Name, URL: c.url(p.URL, p.IndexName), Image: c.mainImage(p, t)}
	if len(p.Variants) > 0 {
		v := p.Variants[0]
		out.Price = c.shop.currency(v.CurrencyCode).Price(v.Price)
		out.VATNote = t.ExclVAT
		if v.IncludingVat {
			out.VATNote = t.InclVAT
		}
		if v.Availability != nil {
			out.Availability = v.Availability.Name
		}
	}
	for _, f := range p.Flags {
		if f.Title != "" {
			out.Flags = append(out.Flags, f.Title)
		}
	}
	return out
}

var (
	codeBlocks = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)\s*>`)
	tags       = regexp.MustCompile(`<[^>]*>`)
	paragraphs = regexp.MustCompile(`(?i)</p>|<br\s*/?>|</li>|</h[1-6]>`)
)

// plainParagraphs turns a record's HTML description into paragraphs of
// plain text: the page escapes them like every other text, so a
// description can never bring its own markup or script.
func plainParagraphs(markup string) []string {
	var out []string
	for _, part := range paragraphs.Split(codeBlocks.ReplaceAllString(markup, " "), -1) {
		text := strings.Join(strings.Fields(html.UnescapeString(tags.ReplaceAllString(part, " "))), " ")
		if text != "" {
			out = append(out, text)
		}
	}
	return out
}
