package orders_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// overlay deep-merges a change into a copy of an order body: objects key
// by key, anything else replaced.
func overlay(base, change map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range change {
		if cm, ok := v.(map[string]any); ok {
			if bm, ok := out[k].(map[string]any); ok {
				out[k] = overlay(bm, cm)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// firstError is what a refusal says: status, errorCode and instance of
// its first error.
type firstError struct {
	Status          int
	Code, Instance  string
	DataNullOnError bool
}

func refusal(r *sandboxtest.Response) firstError {
	fe := firstError{Status: r.Status, DataNullOnError: bytes.Equal(bytes.TrimSpace(r.Env.Data), []byte("null"))}
	if len(r.Env.Errors) > 0 {
		fe.Code, fe.Instance = r.Env.Errors[0].ErrorCode, r.Env.Errors[0].Instance
	}
	return fe
}

// TestHeaderChangeValidatesLikeCreation sends PATCH /api/orders/{code}/head
// with each value order creation refuses: the header change must refuse
// it with creation's status, errorCode and instance (422 for what the
// request schema refuses, 400 for the e-shop's mandatory fields and the
// dates), in the envelope, and a GET after must show the order exactly
// as before. Valid changes (the same fields well formed) are stored.
func TestHeaderChangeValidatesLikeCreation(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	valid := f.order(product(v, "1", "10.00"))
	valid["addressesEqual"] = false
	valid["deliveryAddress"] = map[string]any{"fullName": "Petr Příjemce", "street": "Dlouhá", "houseNumber": "7", "city": "Brno", "zip": "602 00", "countryCode": "CZ"}
	code, _ := e.create(t, "/api/orders", valid)["code"].(string)

	bad := []struct {
		name   string
		change map[string]any
		want   firstError
	}{
		{"invalid e-mail", map[string]any{"email": "not-an-e-mail"}, firstError{422, "schema-mismatch", "data.email", true}},
		{"mandatory e-mail null", map[string]any{"email": nil}, firstError{400, "validation-error", "data.email", true}},
		{"e-mail empty", map[string]any{"email": ""}, firstError{422, "schema-mismatch", "data.email", true}},
		{"mandatory billing city null", map[string]any{"billingAddress": map[string]any{"city": nil}}, firstError{400, "validation-error", "data.billingAddress.city", true}},
		{"mandatory billing name empty", map[string]any{"billingAddress": map[string]any{"fullName": ""}}, firstError{400, "validation-error", "data.billingAddress.fullName", true}},
		{"mandatory billing street null", map[string]any{"billingAddress": map[string]any{"street": nil, "houseNumber": nil}}, firstError{400, "validation-error", "data.billingAddress.street", true}},
		{"billing country null", map[string]any{"billingAddress": map[string]any{"countryCode": nil}}, firstError{422, "schema-mismatch", "data.billingAddress.countryCode", true}},
		{"mandatory delivery zip null", map[string]any{"deliveryAddress": map[string]any{"zip": nil}}, firstError{400, "validation-error", "data.deliveryAddress.zip", true}},
		{"birth date in another form", map[string]any{"birthDate": "31.12.1990"}, firstError{400, "validation-error", "data.birthDate", true}},
		{"birth date not in the calendar", map[string]any{"birthDate": "1990-02-30"}, firstError{400, "validation-error", "data.birthDate", true}},
		{"creation time malformed", map[string]any{"creationTime": "2025-13-01T00:00:00+0100"}, firstError{400, "validation-error", "data.creationTime", true}},
		{"creation time a number", map[string]any{"creationTime": 20250101}, firstError{422, "schema-mismatch", "data.creationTime", true}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			before := e.call(t, "GET", "/api/orders/"+code, nil)
			if before.Status != 200 {
				t.Fatalf("GET before: %d %s", before.Status, before.Body)
			}
			r := e.call(t, "PATCH", "/api/orders/"+code+"/head", map[string]any{"data": tc.change})
			if got := refusal(r); got != tc.want {
				t.Errorf("header change: %+v, want %+v: %s", got, tc.want, r.Body)
			}
			after := e.call(t, "GET", "/api/orders/"+code, nil)
			if !bytes.Equal(before.Env.Data, after.Env.Data) {
				t.Errorf("the refused change was stored:\nbefore %s\nafter  %s", before.Env.Data, after.Env.Data)
			}
			c := e.call(t, "POST", "/api/orders", map[string]any{"data": overlay(valid, tc.change)})
			if got := refusal(c); got != tc.want {
				t.Errorf("creation refuses the same value otherwise: %+v, want %+v: %s", got, tc.want, c.Body)
			}
		})
	}

	good := []struct {
		name   string
		change map[string]any
		want   map[string]any // paths of data.order and their values after
	}{
		{"e-mail and birth date", map[string]any{"email": "new@example.com", "birthDate": "1990-12-31"},
			map[string]any{"email": "new@example.com", "birthDate": "1990-12-31"}},
		{"combined street replaces street and number", map[string]any{"billingAddress": map[string]any{"streetWithNr": "Krátká 3"}},
			map[string]any{"billingAddress.street": "Krátká", "billingAddress.houseNumber": "3", "billingAddress.city": "Praha"}},
		{"optional field emptied", map[string]any{"phone": nil, "billingAddress": map[string]any{"company": nil}},
			map[string]any{"phone": nil, "billingAddress.company": nil}},
		{"creation time", map[string]any{"creationTime": "2025-01-31T12:00:00+0100"},
			map[string]any{"creationTime": "2025-01-31T12:00:00+0100"}},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			r := e.call(t, "PATCH", "/api/orders/"+code+"/head", map[string]any{"data": tc.change})
			if r.Status != 200 {
				t.Fatalf("header change: %d %s", r.Status, r.Body)
			}
			var d struct{ Order map[string]any }
			e.call(t, "GET", "/api/orders/"+code, nil).Data(t, &d)
			for path, want := range tc.want {
				if got := at(d.Order, path); !sameJSON(got, want) {
					t.Errorf("%s = %v, want %v", path, got, want)
				}
			}
		})
	}
}

// at reads a dotted path of a decoded object.
func at(m map[string]any, path string) any {
	var cur any = m
	for _, step := range bytes.Split([]byte(path), []byte(".")) {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[string(step)]
	}
	return cur
}

func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}
