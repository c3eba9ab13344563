package orders

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// TestAnswerIsRenderEncoded: answer gives the bytes the envelope wrote
// for Render's result (placeholders filled, metadata removed at every
// depth, exact numbers), and leaves the record as it was.
func TestAnswerIsRenderEncoded(t *testing.T) {
	view := api.View{BaseURL: "http://127.0.0.1:8080", EshopURL: "http://127.0.0.1:8080/e/1001"}
	records := []string{
		`{}`,
		`{"code":"2026000001","_stock":{"stockId":1},"adminUrl":"{eshop_url}/admin/orders/2026000001/"}`,
		`{"items":[{"itemId":7,"_known":true,"_pricing":{"withVat":"1.00"},"price":{"withVat":"121.00"}},{"itemId":8}],"_invoiceCode":"1"}`,
		`{"nested":{"deeper":{"_hidden":1,"shown":[1,{"_x":2,"y":3}]}},"text":"<b>Žluťoučký</b> & \u2028","n":12345678901234567890.5}`,
		`{"links":["{base_url}/a","{eshop_url}/b"],"list":[],"null":null,"flag":false}`,
	}
	for _, raw := range records {
		rec, err := api.DecodeObject([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		before, _ := crud.Encode(rec)
		rendered, err := Render(rec, view)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]any{"order": rendered}); err != nil {
			t.Fatal(err)
		}
		got, err := answer("order", rec, view)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("answer of %s\n got %s\nwant %s", raw, got, want.Bytes())
		}
		if after, _ := crud.Encode(rec); string(after) != string(before) {
			t.Errorf("answer changed the record %s: %s", before, after)
		}
	}
}
