package logistics_test

import (
	"encoding/json"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/shopspring/decimal"
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// overlay is the embedded fixtures with some files replaced.
type overlay struct {
	fs.FS
	files fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if _, ok := o.files[name]; ok {
		return o.files.Open(name)
	}
	return o.FS.Open(name)
}

// TestStockRowShapes: PATCH /api/stocks/{stockId}/movements takes the
// reference's three row shapes, each with its meaning: amountChange
// changes the available amount, quantity sets it, realStock sets the
// physical stock and keeps the reserved amount. Every row is validated on
// its own: a row with none or two of the fields, a negative absolute
// amount, more than 3 decimal places or an unknown code is skipped and
// reported with 200 naming the row, the other rows apply, and each
// applied row leaves a movement of the change it made.
func TestStockRowShapes(t *testing.T) {
	raw, err := fs.ReadFile(fixtures.FS, "eshops/1001/stocks.json")
	if err != nil {
		t.Fatal(err)
	}
	// A reserved amount on the first supply, so realStock has one to keep.
	var stocks []map[string]any
	if err := json.Unmarshal(raw, &stocks); err != nil {
		t.Fatal(err)
	}
	stocks[0]["_supplies"].([]any)[0].(map[string]any)["claim"] = "2.000"
	if raw, err = json.Marshal(stocks); err != nil {
		t.Fatal(err)
	}
	fsys := overlay{FS: fixtures.FS, files: fstest.MapFS{"eshops/1001/stocks.json": {Data: raw}}}
	stock := gjson.GetBytes(raw, "0.id").String()
	codes := gjson.GetBytes(raw, "0._supplies.#.code").Array()
	amount := func(i int) string { return gjson.GetBytes(raw, "0._supplies."+itoa(int64(i))+".amount").String() }

	cases := []struct {
		name     string
		row      string
		skipped  string // the error's instance; "" when the row applies
		code     string
		amount   string // available afterwards
		claim    string // reserved afterwards
		movement string // the movement's amountChange; "" for none
	}{
		{name: "amountChange is relative", row: `{"productCode":"` + codes[1].String() + `","amountChange":-3}`,
			code: codes[1].String(), amount: sub(amount(1), "3"), claim: "0.000", movement: "-3.000"},
		{name: "quantity sets the available amount", row: `{"productCode":"` + codes[2].String() + `","quantity":7}`,
			code: codes[2].String(), amount: "7.000", claim: "0.000", movement: sub("7", amount(2))},
		{name: "realStock sets the physical stock and keeps the reserved amount", row: `{"productCode":"` + codes[0].String() + `","realStock":12.5}`,
			code: codes[0].String(), amount: "10.500", claim: "2.000", movement: sub("10.5", amount(0))},
		{name: "none of the three", row: `{"productCode":"` + codes[3].String() + `"}`, skipped: "data[0]", code: codes[3].String(), amount: amount(3), claim: "0.000"},
		{name: "two of the three", row: `{"productCode":"` + codes[3].String() + `","quantity":1,"realStock":2}`, skipped: "data[0]", code: codes[3].String(), amount: amount(3), claim: "0.000"},
		{name: "negative quantity", row: `{"productCode":"` + codes[3].String() + `","quantity":-1}`, skipped: "data[0].quantity", code: codes[3].String(), amount: amount(3), claim: "0.000"},
		{name: "negative realStock", row: `{"productCode":"` + codes[3].String() + `","realStock":-1}`, skipped: "data[0].realStock", code: codes[3].String(), amount: amount(3), claim: "0.000"},
		{name: "four decimal places", row: `{"productCode":"` + codes[3].String() + `","amountChange":0.0001}`, skipped: "data[0].amountChange", code: codes[3].String(), amount: amount(3), claim: "0.000"},
		{name: "unknown code", row: `{"productCode":"NO-SUCH-CODE","quantity":1}`, skipped: "data[0].productCode", code: codes[3].String(), amount: amount(3), claim: "0.000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}, Fixtures: fsys, FixturesName: "test"})
			tok := sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
			do := func(method, path, body string) (int, gjson.Result) { return s.JSON(method, path, tok, body) }
			_, last := do("GET", "/api/stocks/"+stock+"/movements/last", "")
			// A good row after the one under test proves the request goes
			// on past a skipped row.
			other := codes[4].String()
			st, got := do("PATCH", "/api/stocks/"+stock+"/movements", `{"data":[`+c.row+`,{"productCode":"`+other+`","amountChange":1}]}`)
			if st != 200 {
				t.Fatalf("%d %s", st, got.Raw)
			}
			switch {
			case c.skipped == "" && got.Get("errors").Type != gjson.Null && got.Get("errors.#").Int() > 0:
				t.Fatalf("row skipped: %s", got.Get("errors").Raw)
			case c.skipped != "" && (got.Get("errors.#").Int() != 1 || got.Get("errors.0.instance").String() != c.skipped):
				t.Fatalf("errors %s, want one naming %s", got.Get("errors").Raw, c.skipped)
			}
			_, sup := do("GET", "/api/stocks/"+stock+"/supplies?code="+c.code, "")
			if a, cl := sup.Get("data.supplies.0.amount").String(), sup.Get("data.supplies.0.claim").String(); a != c.amount || cl != c.claim {
				t.Fatalf("supply of %s: amount %s claim %s, want %s and %s", c.code, a, cl, c.amount, c.claim)
			}
			_, sup = do("GET", "/api/stocks/"+stock+"/supplies?code="+other, "")
			if a := sup.Get("data.supplies.0.amount").String(); a != sub(amount(4), "-1") {
				t.Fatalf("the row after: amount %s, want %s", a, sub(amount(4), "-1"))
			}
			_, moves := do("GET", "/api/stocks/"+stock+"/movements?lastId="+last.Get("data.lastId").String(), "")
			mv := moves.Get(`data.movements.#(productCode=="` + c.code + `")`)
			switch {
			case c.movement == "" && mv.Exists():
				t.Fatalf("a skipped row moved stock: %s", mv.Raw)
			case c.movement != "" && mv.Get("amountChange").String() != c.movement:
				t.Fatalf("movement %s, want amountChange %s", mv.Raw, c.movement)
			}
		})
	}
}

// sub is a - b with three decimal places.
func sub(a, b string) string {
	return decimal.RequireFromString(a).Sub(decimal.RequireFromString(b)).StringFixed(3)
}
