package rules

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestDates: the date and date-time fields of an order request, read the
// same way by creation and by the header change.
func TestDates(t *testing.T) {
	for _, tc := range []struct {
		v        any
		dateTime string // "" with ok: absent
		date     any
		dtOK     bool
		dOK      bool
	}{
		{nil, "", nil, true, true},
		{"", "", nil, true, true},
		{"  ", "", nil, true, true},
		{"2025-01-31T12:00:00+0100", "2025-01-31T12:00:00+0100", nil, true, false},
		{"2025-01-31T12:00:00Z", "2025-01-31T12:00:00+0000", nil, true, false},
		{"2025-13-01T00:00:00+0100", "", nil, false, false},
		{"1990-12-31", "", "1990-12-31", false, true},
		{"1990-02-30", "", nil, false, false},
		{"31.12.1990", "", nil, false, false},
		{json.Number("19901231"), "", nil, false, false},
	} {
		dt, err := DateTime(tc.v, "data.creationTime")
		if (err == nil) != tc.dtOK || (tc.dtOK && dt != tc.dateTime) {
			t.Errorf("DateTime(%#v) = %q, %v", tc.v, dt, err)
		}
		checkInvalid(t, err, "data.creationTime")
		d, err := Date(tc.v, "data.birthDate")
		if (err == nil) != tc.dOK || (tc.dOK && d != tc.date) {
			t.Errorf("Date(%#v) = %v, %v", tc.v, d, err)
		}
		checkInvalid(t, err, "data.birthDate")
	}
}

// checkInvalid: a refusal is a 400 validation error naming the field.
func checkInvalid(t *testing.T, err error, path string) {
	t.Helper()
	if err == nil {
		return
	}
	var se *sandbox.Error
	if !errors.As(err, &se) || se.Kind != sandbox.KindInvalid || se.Instance != path {
		t.Errorf("refusal %#v, want a validation error naming %s", err, path)
	}
}

// TestMissingMandatorySent: a partial change is refused only for the
// mandatory fields it sends empty, streetWithNr counting as the street.
func TestMissingMandatorySent(t *testing.T) {
	settings := map[string]any{
		"contactInfo":     map[string]any{"email": "required", "phone": "optional"},
		"billingAddress":  map[string]any{"city": "required", "street": "required", "zip": "required"},
		"deliveryAddress": map[string]any{"city": "required"},
	}
	// A historical order without a zip and without a delivery address.
	order := func(change map[string]any) map[string]any {
		o := map[string]any{"email": "a@example.com", "billingAddress": map[string]any{"city": "Brno", "street": "Dlouhá", "zip": nil}}
		for k, v := range change {
			o[k] = v
		}
		return o
	}
	for _, tc := range []struct {
		name   string
		change map[string]any
		after  map[string]any // the order's fields once the change applies
		want   []string
	}{
		{"an unrelated field of an order lacking a mandatory one", map[string]any{"phone": "1"}, nil, nil},
		{"e-mail sent null", map[string]any{"email": nil}, map[string]any{"email": nil}, []string{"data.email"}},
		{"city sent null", map[string]any{"billingAddress": map[string]any{"city": nil}},
			map[string]any{"billingAddress": map[string]any{"city": nil, "street": "Dlouhá", "zip": nil}}, []string{"data.billingAddress.city"}},
		{"combined street sent empty", map[string]any{"billingAddress": map[string]any{"streetWithNr": ""}},
			map[string]any{"billingAddress": map[string]any{"city": "Brno", "street": nil, "zip": nil}}, []string{"data.billingAddress.street"}},
		{"delivery city of an order without its own delivery address", map[string]any{"deliveryAddress": map[string]any{"city": nil}, "addressesEqual": true},
			map[string]any{"deliveryAddress": map[string]any{"city": nil}, "addressesEqual": true}, nil},
		{"delivery city of its own delivery address", map[string]any{"deliveryAddress": map[string]any{"city": nil}},
			map[string]any{"deliveryAddress": map[string]any{"city": nil}}, []string{"data.deliveryAddress.city"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := MissingMandatorySent(settings, order(tc.after), tc.change)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}
