package locale

import (
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tidwall/gjson"
)

// nbsp keeps an amount and its currency (and groups of digits) on one
// line.
const nbsp = "\u00a0"

// Currency is how an e-shop writes amounts of one currency: the display
// settings of its currencies[] entry in eshop.json.
type Currency struct {
	Code           string
	Text           string // the symbol or abbreviation, "Kč", "€"
	Before         bool   // the symbol goes before the amount
	Decimals       string // the decimal separator
	Thousands      string // the digit-group separator ("" for none)
	PricePlaces    int    // decimal places of catalogue prices
	DocumentPlaces int    // decimal places of order and document amounts
}

// CurrencyOf reads a currency's display settings from the e-shop info
// (eshop.json); a currency the e-shop does not list is written as
// "1234.50 XYZ".
func CurrencyOf(info gjson.Result, code string) Currency {
	return CurrencyIn(info.Get("currencies"), code)
}

// CurrencyIn is CurrencyOf with the e-shop's currencies list already
// found (eshop.json's "currencies").
func CurrencyIn(currencies gjson.Result, code string) Currency {
	c := Currency{Code: code, Text: code, Decimals: ".", PricePlaces: 2, DocumentPlaces: 2}
	for _, cur := range currencies.Array() {
		if cur.Get("code").String() != code {
			continue
		}
		d := cur.Get("display")
		if t := d.Get("text").String(); t != "" {
			c.Text = t
		}
		c.Before = d.Get("location").String() == "before"
		if s := d.Get("decimalsSeparator").String(); s != "" {
			c.Decimals = s
		}
		c.Thousands = d.Get("thousandsSeparator").String()
		if p := cur.Get("priceDecimalPlaces"); p.Exists() && p.Int() >= 0 && p.Int() <= 4 {
			c.PricePlaces = int(p.Int())
		}
		if p := cur.Get("documentPriceDecimalPlaces"); p.Exists() && p.Int() >= 0 && p.Int() <= 4 {
			c.DocumentPlaces = int(p.Int())
		}
	}
	return c
}

// Price writes a catalogue price ("9490.00" in CZK: "9 490 Kč").
func (c Currency) Price(amount string) string { return c.format(amount, c.PricePlaces) }

// Amount writes an order or document amount ("7490.00" in CZK:
// "7 490,00 Kč").
func (c Currency) Amount(amount string) string { return c.format(amount, c.DocumentPlaces) }

func (c Currency) format(amount string, places int) string {
	d, err := decimal.NewFromString(strings.TrimSpace(amount))
	if err != nil {
		return amount // not a number: shown as stored rather than hidden
	}
	sign := ""
	if d.IsNegative() {
		sign, d = "-", d.Neg()
	}
	s := d.StringFixed(int32(places))
	whole, frac, _ := strings.Cut(s, ".")
	sep := strings.ReplaceAll(c.Thousands, " ", nbsp)
	if sep != "" {
		var b strings.Builder
		for i, r := range whole {
			if i > 0 && (len(whole)-i)%3 == 0 {
				b.WriteString(sep)
			}
			b.WriteRune(r)
		}
		whole = b.String()
	}
	num := whole
	if frac != "" {
		num += c.Decimals + frac
	}
	if c.Before {
		return sign + c.Text + num
	}
	return sign + num + nbsp + c.Text
}
