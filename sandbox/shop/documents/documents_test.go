package documents

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func sample() Doc {
	rec := map[string]any{
		"code": "2025100001", "orderCode": "2025000001", "creationTime": "2025-03-01T10:00:00+0100", "dueDate": "2025-03-15",
		"taxDate": "2025-03-01", "varSymbol": 2025000001, "documentRemark": "Děkujeme (a přijďte zas)",
		"price":          map[string]any{"currencyCode": "CZK"},
		"billingAddress": map[string]any{"fullName": "Petr Novotný", "street": "Korunní", "houseNumber": "1208/74", "city": "Praha", "zip": "101 00", "countryCode": "CZ"},
		"customer":       map[string]any{"email": "petr@example.com"},
		"items": []any{
			map[string]any{"code": "TNT-1", "name": "Stan", "amount": "2.000", "itemPrice": map[string]any{"withVat": "242.00", "withoutVat": "200.00", "vatRate": "21.00"},
				"unitPrice": map[string]any{"withVat": "121.00", "withoutVat": "100.00"}},
			map[string]any{"name": "Kniha", "amount": "1.000", "itemPrice": map[string]any{"withVat": "112.00", "withoutVat": "100.00", "vatRate": "12.00"}},
		},
	}
	info := map[string]any{"billingInformation": map[string]any{"billingName": "Trailvik s.r.o.", "address": map[string]any{"streetAddress": "Horská 1", "city": "Brno", "zip": "602 00"},
		"company": map[string]any{"companyId": "12345678", "vatId": "CZ12345678"}, "country": map[string]any{"countryCode": "CZ"}}}
	return FromRecord(Invoice, rec, info)
}

// TestPDFIsWellFormed checks what a viewer needs: the header, every
// cross-reference offset pointing at its object, the trailer and the
// escaped text.
func TestPDFIsWellFormed(t *testing.T) {
	var rows []string
	for i := 0; i < 130; i++ { // more than one page
		rows = append(rows, "row "+strconv.Itoa(i))
	}
	for name, pdf := range map[string][]byte{"invoice": PDF(sample()), "long": Text("Long (test)", rows)} {
		if !bytes.HasPrefix(pdf, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(pdf, []byte("%%EOF\n")) {
			t.Fatalf("%s: header or trailer missing", name)
		}
		m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(pdf)
		if m == nil {
			t.Fatalf("%s: no startxref", name)
		}
		at, _ := strconv.Atoi(string(m[1]))
		if !bytes.HasPrefix(pdf[at:], []byte("xref\n0 ")) {
			t.Fatalf("%s: startxref does not point at the xref table", name)
		}
		lines := strings.Split(string(pdf[at:]), "\n")
		count, _ := strconv.Atoi(strings.Fields(lines[1])[1])
		for i := 1; i < count; i++ {
			off, _ := strconv.Atoi(strings.Fields(lines[2+i])[0])
			if !bytes.HasPrefix(pdf[off:], []byte(strconv.Itoa(i)+" 0 obj")) {
				t.Fatalf("%s: xref entry %d points at %q", name, i, pdf[off:off+10])
			}
		}
		for _, m := range regexp.MustCompile(`(?s)/Length (\d+) >>\nstream\n(.*?)\nendstream`).FindAllSubmatch(pdf, -1) {
			if n, _ := strconv.Atoi(string(m[1])); n != len(m[2]) {
				t.Fatalf("%s: stream /Length %d, but it holds %d bytes", name, n, len(m[2]))
			}
		}
		if name == "long" && !bytes.Contains(pdf, []byte("/Count 3")) {
			t.Fatalf("long: want 3 pages")
		}
	}
	pdf := string(PDF(sample()))
	for _, want := range []string{"Invoice - tax document 2025100001", "Petr Novotny", `Dekujeme \(a prijdte zas\)`, "Total: 354.00 CZK", "VAT 21.00 %: base 200.00, VAT 42.00"} {
		if !strings.Contains(pdf, want) {
			t.Errorf("PDF lacks %q", want)
		}
	}
}

// TestISDOC checks the document parses, names the ISDOC namespace and
// version, and that the lines, VAT breakdown and totals agree.
func TestISDOC(t *testing.T) {
	raw, err := ISDOC(sample())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"http://isdoc.cz/namespace/2013 Invoice"`
		Version string   `xml:"version,attr"`
		Type    int      `xml:"DocumentType"`
		ID      string   `xml:"ID"`
		UUID    string   `xml:"UUID"`
		Lines   []struct {
			Ext string `xml:"LineExtensionAmount"`
		} `xml:"InvoiceLines>InvoiceLine"`
		Subs []struct {
			Percent string `xml:"TaxCategory>Percent"`
			Tax     string `xml:"TaxAmount"`
		} `xml:"TaxTotal>TaxSubTotal"`
		Payable string `xml:"LegalMonetaryTotal>PayableAmount"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, raw)
	}
	if doc.Version != ISDOCVersion || doc.Type != 1 || doc.ID != "2025100001" || len(doc.Lines) != 2 || doc.Payable != "354.00" {
		t.Fatalf("document %+v", doc)
	}
	if !regexp.MustCompile(`^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$`).MatchString(doc.UUID) {
		t.Fatalf("UUID %q", doc.UUID)
	}
	if len(doc.Subs) != 2 || doc.Subs[0].Percent != "21" || doc.Subs[0].Tax != "42.00" || doc.Subs[1].Tax != "12.00" {
		t.Fatalf("VAT breakdown %+v", doc.Subs)
	}
	if _, err := ISDOC(Doc{Kind: DeliveryNote}); err == nil {
		t.Fatal("a delivery note has no ISDOC form")
	}
}
