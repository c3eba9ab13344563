package app_test

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestOrdersReadOnly covers GET /api/orders, its filters, the order detail
// with include sections, and GET /api/orders/statuses.
func TestOrdersReadOnly(t *testing.T) {
	s, f := start(t)
	var l struct {
		Paginator struct{ TotalCount int } `json:"paginator"`
		Orders    []map[string]any         `json:"orders"`
	}
	s.Do(sandboxtest.Call{Path: "/api/orders?itemsPerPage=100", PrivateToken: f.FullToken}).Data(t, &l)
	if l.Paginator.TotalCount != len(f.Orders) || len(l.Orders) != len(f.Orders) {
		t.Fatalf("%d orders, fixtures have %d", l.Paginator.TotalCount, len(f.Orders))
	}
	first := f.Orders[0]
	code := first["code"].(string)
	ba := first["billingAddress"].(map[string]any)
	if l.Orders[0]["code"] != code || l.Orders[0]["fullName"] != ba["fullName"] {
		t.Fatalf("first list item %v", l.Orders[0])
	}
	if _, ok := l.Orders[0]["items"]; ok {
		t.Fatal("list items carry only the list shape")
	}
	statusID := first["status"].(map[string]any)["id"]
	n := 0
	for _, o := range f.Orders {
		if o["status"].(map[string]any)["id"] == statusID {
			n++
		}
	}
	s.Do(sandboxtest.Call{Path: "/api/orders?itemsPerPage=100&statusId=" + jsonText(statusID), PrivateToken: f.FullToken}).Data(t, &l)
	if l.Paginator.TotalCount != n {
		t.Fatalf("statusId filter: %d, want %d", l.Paginator.TotalCount, n)
	}
	s.Do(sandboxtest.Call{Path: "/api/orders?orderCodes=" + code + ",nope", PrivateToken: f.FullToken}).Data(t, &l)
	if l.Paginator.TotalCount != 1 {
		t.Fatalf("orderCodes filter: %d", l.Paginator.TotalCount)
	}

	var d struct {
		Order map[string]any `json:"order"`
	}
	s.Do(sandboxtest.Call{Path: "/api/orders/" + code, PrivateToken: f.FullToken}).Data(t, &d)
	if d.Order["code"] != code || len(d.Order["items"].([]any)) != len(first["items"].([]any)) || d.Order["notes"] != nil {
		t.Fatalf("detail: code %v items %d notes %v", d.Order["code"], len(d.Order["items"].([]any)), d.Order["notes"])
	}
	s.Do(sandboxtest.Call{Path: "/api/orders/" + code + "?include=notes", PrivateToken: f.FullToken}).Data(t, &d)
	if first["notes"] != nil && d.Order["notes"] == nil {
		t.Fatal("include=notes did not show the notes")
	}
	r := s.Do(sandboxtest.Call{Path: "/api/orders/NO-SUCH-ORDER", PrivateToken: f.FullToken})
	if r.Status != 404 || r.Env.Errors[0].Instance != "NO-SUCH-ORDER" {
		t.Fatalf("unknown order: %d %s", r.Status, r.Body)
	}

	var st struct {
		DefaultStatus int              `json:"defaultStatus"`
		Statuses      []map[string]any `json:"statuses"`
	}
	s.Do(sandboxtest.Call{Path: "/api/orders/statuses", PrivateToken: f.FullToken}).Data(t, &st)
	var fx struct {
		DefaultStatus int              `json:"defaultStatus"`
		Statuses      []map[string]any `json:"statuses"`
	}
	readJSON(t, "eshops/1001/order-statuses.json", &fx)
	if st.DefaultStatus != fx.DefaultStatus || len(st.Statuses) != len(fx.Statuses) {
		t.Fatalf("statuses: default %d (%d), %d statuses (%d)", st.DefaultStatus, fx.DefaultStatus, len(st.Statuses), len(fx.Statuses))
	}
	custom, canceled := false, false
	for i, s := range st.Statuses {
		if _, ok := s["_role"]; ok {
			t.Fatal("metadata leaked")
		}
		if s["system"] == false {
			custom = true
		}
		if fx.Statuses[i]["_role"] == "canceled" {
			canceled = true
		}
	}
	if !custom || !canceled {
		t.Fatalf("fixtures need a custom and a canceled status: custom %v canceled %v", custom, canceled)
	}
}

// TestEshopInfo covers GET /api/eshop and its include sections.
func TestEshopInfo(t *testing.T) {
	s, f := start(t)
	var plain, full map[string]any
	s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken}).Data(t, &plain)
	for _, sec := range []string{"paymentMethods", "shippingMethods", "imageCuts", "orderStatuses"} {
		if plain[sec] != nil {
			t.Fatalf("%s present without include", sec)
		}
	}
	if plain["contactInformation"] == nil || plain["settings"].(map[string]any)["eshopLanguage"] == nil {
		t.Fatalf("basic info missing: %v", plain)
	}
	idents := map[string]bool{}
	for _, u := range plain["urls"].([]any) {
		idents[u.(map[string]any)["ident"].(string)] = true
	}
	for _, id := range []string{"admin-orders-list", "admin-customers-list", "oauth"} {
		if !idents[id] {
			t.Fatalf("address ident %s missing", id)
		}
	}
	s.Do(sandboxtest.Call{Path: "/api/eshop?include=orderStatuses,imageCuts,PaymentMethods,shippingMethods", PrivateToken: f.FullToken}).Data(t, &full)
	cuts := map[string]bool{}
	for _, c := range full["imageCuts"].([]any) {
		cm := c.(map[string]any)
		if cm["urlPath"] == "" || cm["cdnPath"] == "" {
			t.Fatalf("cut without paths: %v", cm)
		}
		cuts[cm["name"].(string)] = true
	}
	for _, c := range []string{"orig", "big", "detail", "category", "related"} {
		if !cuts[c] {
			t.Fatalf("image cut %s missing", c)
		}
	}
	os := full["orderStatuses"].(map[string]any)
	if os["defaultStatus"] == nil || len(os["statuses"].([]any)) == 0 {
		t.Fatalf("orderStatuses: %v", os)
	}
	pm := full["paymentMethods"].(map[string]any)["retail"].(map[string]any)
	if len(pm["methods"].([]any)) == 0 || full["shippingMethods"] == nil {
		t.Fatalf("payment/shipping sections: %v", full["paymentMethods"])
	}
}
