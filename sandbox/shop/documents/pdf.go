package documents

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// PDF renders the document as a PDF 1.4 file: A4 pages, the standard
// Helvetica font (no embedding needed), a correct cross-reference table,
// so browsers and PDF tools open it. Text is written in ASCII (diacritics
// dropped), which the standard fonts can show without an encoding table.
func PDF(d Doc) []byte {
	return Text(d.Kind.Title()+" "+d.Code, d.lines())
}

// lines lays out the document as text rows.
func (d Doc) lines() []string {
	var out []string
	out = append(out, fmt.Sprintf("Issued: %s   Tax point: %s   Due: %s", d.Issued, d.TaxDate, orDash(d.DueDate)))
	if d.VarSymbol != "" {
		out = append(out, "Variable symbol: "+d.VarSymbol)
	}
	if d.OrderCode != "" {
		out = append(out, "Order: "+d.OrderCode)
	}
	if d.Related != "" {
		out = append(out, "Related document: "+d.Related)
	}
	out = append(out, "", "Seller: "+d.Seller.Name, "  "+joinNonEmpty(", ", d.Seller.Street, d.Seller.Zip+" "+d.Seller.City, d.Seller.Country))
	if d.Seller.CompanyID != "" || d.Seller.VatID != "" {
		out = append(out, "  Company ID: "+d.Seller.CompanyID+"   VAT ID: "+d.Seller.VatID)
	}
	out = append(out, "Buyer: "+d.Buyer.Name, "  "+joinNonEmpty(", ", d.Buyer.Street, strings.TrimSpace(d.Buyer.Zip+" "+d.Buyer.City), d.Buyer.Country))
	if d.Buyer.CompanyID != "" || d.Buyer.VatID != "" {
		out = append(out, "  Company ID: "+d.Buyer.CompanyID+"   VAT ID: "+d.Buyer.VatID)
	}
	out = append(out, "", fmt.Sprintf("%-44s %10s %6s %12s", "Item", "Amount", "VAT %", "Total "+d.Currency))
	for _, l := range d.Lines {
		name := l.Name
		if l.Code != "" {
			name = l.Code + " " + name
		}
		total := ""
		if l.HasPrice {
			total = l.TotalWithVat.StringFixed(2)
		}
		out = append(out, fmt.Sprintf("%-44s %10s %6s %12s", clip(name, 44), l.Amount, l.VatRate.StringFixed(0), total))
	}
	without, vat, with := d.Totals()
	if d.Kind != DeliveryNote {
		out = append(out, "")
		for _, v := range d.VatBreakdown() {
			out = append(out, fmt.Sprintf("VAT %s %%: base %s, VAT %s", v.Rate.StringFixed(2), v.Base.StringFixed(2), v.Vat().StringFixed(2)))
		}
		out = append(out, fmt.Sprintf("Total without VAT: %s %s", without.StringFixed(2), d.Currency),
			fmt.Sprintf("VAT: %s %s", vat.StringFixed(2), d.Currency),
			fmt.Sprintf("Total: %s %s", with.StringFixed(2), d.Currency))
	}
	if d.Remark != "" {
		out = append(out, "", d.Remark)
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "~"
	}
	return s
}

// Page geometry (points): A4, margins, line height.
const (
	pageW, pageH = 595, 842
	margin       = 50
	leading      = 14
	perPage      = (pageH - 2*margin - 30) / leading
)

// Text renders a title and text rows as a PDF; rows flow onto as many
// pages as they need.
func Text(title string, rows []string) []byte {
	var pages [][]string
	for len(rows) > perPage {
		pages = append(pages, rows[:perPage])
		rows = rows[perPage:]
	}
	pages = append(pages, rows)

	var b bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	// 1 catalog, 2 pages, 3 font, 4 bold font, then per page: page, content.
	n := len(pages)
	kids := make([]string, n)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 5+2*i)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	for i, rowsOnPage := range pages {
		var c bytes.Buffer
		y := pageH - margin
		c.WriteString("BT\n")
		if i == 0 {
			fmt.Fprintf(&c, "/F2 16 Tf %d %d Td (%s) Tj\n", margin, y, escape(title))
			y -= 30
			fmt.Fprintf(&c, "ET\nBT\n")
		}
		fmt.Fprintf(&c, "/F1 9 Tf %d TL %d %d Td\n", leading, margin, y)
		for _, r := range rowsOnPage {
			fmt.Fprintf(&c, "(%s) Tj T*\n", escape(r))
		}
		fmt.Fprintf(&c, "ET\nBT /F1 8 Tf %d %d Td (Page %d of %d) Tj ET\n", margin, margin/2, i+1, n)
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>",
			pageW, pageH, 6+2*i))
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", c.Len(), c.String()))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info << /Producer (sandbox) >> >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// escape writes text as a PDF literal string in plain ASCII: diacritics
// dropped, other non-ASCII replaced, and the delimiters escaped.
func escape(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == '(' || r == ')' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\u2013' || r == '\u2014':
			b.WriteByte('-')
		case r < 32:
			b.WriteByte(' ')
		case r < 127:
			b.WriteRune(r)
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}
