package logistics_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestStockAndShipping: a stock change moves the product's amounts and
// skips unknown codes with 200; too many rows answer 413; shipments go
// through their statuses; a shipping request is found only for its
// shipping method.
func TestStockAndShipping(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	tok := sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
	do := func(method, path, body string) (int, gjson.Result) { return s.JSON(method, path, tok, body) }
	stock := sandboxtest.Fixture(t, 1001, "stocks", "0.id")
	code := sandboxtest.Fixture(t, 1001, "stocks", "0._supplies.0.code")
	before := gjson.Parse(sandboxtest.Fixture(t, 1001, "stocks", "0._supplies.0.amount")).Float()
	st, got := do("PATCH", "/api/stocks/"+stock+"/movements", `{"data":[{"productCode":"`+code+`","amountChange":-3},{"productCode":"NO-SUCH","amountChange":1}]}`)
	if st != 200 || got.Get("errors.#").Int() != 1 || got.Get("errors.0.instance").String() != "data[1].productCode" {
		t.Fatalf("partial stock change: %d %s", st, got.Raw)
	}
	_, sup := do("GET", "/api/stocks/"+stock+"/supplies?code="+code, "")
	if a := sup.Get("data.supplies.0.amount").Float(); a != before-3 {
		t.Fatalf("amount %v, want %v", a, before-3)
	}
	_, last := do("GET", "/api/stocks/"+stock+"/movements/last", "")
	_, moves := do("GET", "/api/stocks/"+stock+"/movements?lastId="+itoa(last.Get("data.lastId").Int()-1), "")
	if moves.Get("data.movements.#").Int() != 1 || moves.Get("data.movements.0.amountChange").String() != "-3.000" {
		t.Fatalf("movements after lastId: %s", moves.Get("data").Raw)
	}
	rows := strings.TrimSuffix(strings.Repeat(`{"productCode":"`+code+`","amountChange":1},`, 101), ",")
	if st, _ := do("PATCH", "/api/stocks/"+stock+"/movements", `{"data":[`+rows+`]}`); st != 413 {
		t.Fatalf("101 rows: %d", st)
	}
	if st, _ := do("GET", "/api/stocks/999/movements", ""); st != 404 {
		t.Fatalf("unknown stock: %d", st)
	}
	order := sandboxtest.Fixture(t, 1001, "orders", "0.code")
	st, got = do("POST", "/api/shipments", `{"data":{"orderCode":"`+order+`"}}`)
	if st != 201 {
		t.Fatalf("shipment: %d %s", st, got.Raw)
	}
	guid := got.Get("data.guid").String()
	if st, _ := do("POST", "/api/shipments/"+guid+"/cancel-request", ""); st != 204 {
		t.Fatalf("cancel: %d", st)
	}
	if _, d := do("GET", "/api/shipments/"+guid, ""); d.Get("data.status").String() != "cancel-requested" {
		t.Fatalf("status %s", d.Get("data.status"))
	}
	if st, got := do("POST", "/api/shipments", `{"data":{"orderCode":"NOPE"}}`); st != 404 || got.Get("errors.0.instance").String() != "data.orderCode" {
		t.Fatalf("unknown order: %d %s", st, got.Raw)
	}
	req := sandboxtest.Fixture(t, 1001, "shipping-requests", "0.shippingRequestCode")
	if st, _ := do("GET", "/api/shipping-request/"+req+"/"+sandboxtest.Fixture(t, 1001, "shipping-methods", "0.guid"), ""); st != 404 {
		t.Fatalf("request for another shipping method: %d", st)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
