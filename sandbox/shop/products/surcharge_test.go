package products

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
)

func TestApplySurchargeUpdate(t *testing.T) {
	meta := &eshop.Meta{Currencies: []string{"CZK", "EUR"}, DefaultCurrency: "CZK"}
	base := `{"id":3,"code":"gift-wrapping","name":"Gift wrapping","displayName":null,"description":null,"priority":null,"required":false,"currency":"CZK","includingVat":true,"googleMapping":null}`
	tests := []struct {
		name     string
		data     string
		wantCode string
		check    map[string]any // field -> JSON of expected value
		errKind  sandbox.Kind
		errInst  string
	}{
		{name: "empty update keeps all", data: `{}`, wantCode: "gift-wrapping", check: map[string]any{"name": `"Gift wrapping"`, "currency": `"CZK"`}},
		{name: "rename regenerates code", data: `{"name":"Dárkové balení"}`, wantCode: "darkove-baleni", check: map[string]any{"name": `"Dárkové balení"`}},
		{name: "explicit code wins over name", data: `{"name":"Box","code":"special-box"}`, wantCode: "special-box"},
		{name: "code only", data: `{"code":"wrap"}`, wantCode: "wrap", check: map[string]any{"name": `"Gift wrapping"`}},
		{name: "bad code", data: `{"code":"Not OK"}`, errKind: sandbox.KindInvalid, errInst: "code"},
		{name: "empty name", data: `{"name":""}`, errKind: sandbox.KindInvalid, errInst: "name"},
		{name: "currency of the shop", data: `{"currency":"EUR"}`, wantCode: "gift-wrapping", check: map[string]any{"currency": `"EUR"`}},
		{name: "null currency is the default", data: `{"currency":null}`, wantCode: "gift-wrapping", check: map[string]any{"currency": `"CZK"`}},
		{name: "foreign currency", data: `{"currency":"USD"}`, errKind: sandbox.KindInvalid, errInst: "currency"},
		{name: "flags", data: `{"required":true,"includingVat":false,"priority":5,"displayName":"Wrap","description":"Nice"}`, wantCode: "gift-wrapping",
			check: map[string]any{"required": `true`, "includingVat": `false`, "priority": `5`, "displayName": `"Wrap"`, "description": `"Nice"`}},
		{name: "null flags keep defaults", data: `{"required":null,"includingVat":null}`, wantCode: "gift-wrapping", check: map[string]any{"required": `false`, "includingVat": `true`}},
		{name: "google mapping string becomes object", data: `{"googleMapping":"Apparel > Gifts"}`, wantCode: "gift-wrapping", check: map[string]any{"googleMapping": `{"description":null,"value":"Apparel \u003e Gifts"}`}},
		{name: "google mapping null", data: `{"googleMapping":null}`, wantCode: "gift-wrapping", check: map[string]any{"googleMapping": `null`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rec, data map[string]any
			_ = json.Unmarshal([]byte(base), &rec)
			_ = json.Unmarshal([]byte(tc.data), &data)
			code, err := ApplySurchargeUpdate(rec, data, meta)
			if tc.errInst != "" {
				var se *sandbox.Error
				if !errors.As(err, &se) || se.Kind != tc.errKind || se.Instance != tc.errInst || se.Message == "" {
					t.Fatalf("err = %v, want kind %v instance %s", err, tc.errKind, tc.errInst)
				}
				return
			}
			if err != nil || code != tc.wantCode || rec["code"] != tc.wantCode {
				t.Fatalf("code = %q (record %v), err %v; want %q", code, rec["code"], err, tc.wantCode)
			}
			for f, want := range tc.check {
				got, _ := json.Marshal(rec[f])
				if string(got) != want.(string) {
					t.Errorf("%s = %s, want %s", f, got, want)
				}
			}
		})
	}
}

// TestCheckSurchargeTexts: the name and code rules a translation follows
// too (PATCH with language), field by field.
func TestCheckSurchargeTexts(t *testing.T) {
	tests := []struct {
		data, errInst string
	}{
		{`{}`, ""},
		{`{"name":"Engraving","code":"engraving"}`, ""},
		{`{"code":null}`, ""},
		{`{"displayName":null,"description":""}`, ""},
		{`{"name":""}`, "name"},
		{`{"name":null}`, "name"},
		{`{"code":""}`, "code"},
		{`{"code":"Engraving"}`, "code"},
		{`{"code":7}`, "code"},
	}
	for _, tc := range tests {
		t.Run(tc.data, func(t *testing.T) {
			var data map[string]any
			if err := json.Unmarshal([]byte(tc.data), &data); err != nil {
				t.Fatal(err)
			}
			err := CheckSurchargeTexts(data)
			if tc.errInst == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Kind != sandbox.KindInvalid || se.Instance != tc.errInst {
				t.Fatalf("err = %v, want an invalid %s", err, tc.errInst)
			}
		})
	}
}
