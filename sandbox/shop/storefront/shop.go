package storefront

import (
	"html/template"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
)

// shop is what every page shows of its e-shop: name, look, contact, the
// header's categories, and how it writes amounts.
type shop struct {
	ID       int
	Name     string
	Subtitle string
	Title    string // the e-shop's title line (eshopTitle)
	URL      string // {eshop_url}
	BaseURL  string // {base_url}
	Email    string
	Phone    string
	Look     Look
	Logo     template.URL // "" when the e-shop has no logo: its initials show instead
	Initials string
	Nav      []link // top-level categories
	Lang     string // the e-shop's default language, the pages' language
	info     gjson.Result
	currency func(code string) locale.Currency
}

// loadShop reads an e-shop's facts for a page. eshopURL is the e-shop's
// address ("" gives the root-relative /eshops/<id>).
func loadShop(tx *store.Tx, eshopID int, eshopURL string) (*shop, error) {
	meta, err := eshop.Get(tx, eshopID)
	if err != nil {
		return nil, err
	}
	if eshopURL == "" {
		eshopURL = eshop.EshopPath(eshopID)
	}
	s := &shop{ID: eshopID, Name: meta.Name, URL: eshopURL, BaseURL: strings.TrimSuffix(eshopURL, eshop.EshopPath(eshopID)),
		Lang: meta.DefaultLanguage, Look: DefaultLook}
	if raw, err := tx.Get(eshopID, eshop.InfoCollection, "info"); err == nil {
		s.info = gjson.ParseBytes(raw)
		if look, err := ReadLook(raw); err == nil { // checked when the fixtures load
			s.Look = look
		}
	}
	ci := s.info.Get("contactInformation")
	s.Subtitle, s.Title = ci.Get("eshopSubtitle").String(), ci.Get("eshopTitle").String()
	s.Email, s.Phone = ci.Get("email").String(), ci.Get("phone").String()
	if s.Name == "" {
		s.Name = ci.Get("eshopName").String()
	}
	s.Logo, s.Initials = s.Look.LogoSrc(s.BaseURL, s.URL), initials(s.Name)
	currencies := map[string]locale.Currency{}
	s.currency = func(code string) locale.Currency {
		if code == "" {
			code = meta.DefaultCurrency
		}
		c, ok := currencies[code]
		if !ok {
			c = locale.CurrencyOf(s.info, code)
			currencies[code] = c
		}
		return c
	}
	cat := &catalog{tx: tx, shop: s}
	for _, c := range cat.categories() {
		if c.ParentGUID == "" && len(s.Nav) < maxNavCategories {
			s.Nav = append(s.Nav, cat.categoryLink(c))
		}
	}
	return s, nil
}

// fill replaces the address placeholders of a stored address.
func (s *shop) fill(u string) string {
	return strings.NewReplacer("{eshop_url}", s.URL, "{base_url}", s.BaseURL).Replace(u)
}

// Home is the e-shop's home page address.
func (s *shop) Home() string { return s.URL + "/" }
