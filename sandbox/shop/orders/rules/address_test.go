package rules

import (
	"encoding/json"
	"testing"
)

// TestAddressRules covers address rules 1-4 in both street modes.
func TestAddressRules(t *testing.T) {
	tests := []struct {
		name         string
		mode         string
		in           map[string]any
		street, nr   any
		noCombinedIn bool
	}{
		{"rule 2: separate fields, split e-shop", StreetSplit, map[string]any{"street": "Korunní", "houseNumber": "1208/74"}, "Korunní", "1208/74", true},
		{"rule 1: separate fields, combined e-shop", StreetCombined, map[string]any{"street": "Korunní", "houseNumber": "1208/74"}, "Korunní 1208/74", nil, true},
		{"rule 3: combined value split", StreetSplit, map[string]any{"streetWithNr": "Korunní 1208/74"}, "Korunní", "1208/74", true},
		{"rule 3: combined value stored whole", StreetCombined, map[string]any{"streetWithNr": "Korunní 1208/74"}, "Korunní 1208/74", nil, true},
		{"rule 3: several words before the number", StreetSplit, map[string]any{"streetWithNr": "Náměstí Svobody 12a"}, "Náměstí Svobody", "12a", true},
		{"rule 3: no number in the combined value", StreetSplit, map[string]any{"streetWithNr": "Na Kopci"}, "Na Kopci", nil, true},
		{"rule 4: separate fields win over the combined one", StreetSplit,
			map[string]any{"street": "Vinohradská", "houseNumber": "12", "streetWithNr": "Korunní 1208/74"}, "Vinohradská", "12", true},
		{"rule 4: in a combined e-shop too", StreetCombined,
			map[string]any{"street": "Vinohradská", "houseNumber": "12", "streetWithNr": "Korunní 1208/74"}, "Vinohradská 12", nil, true},
		{"street alone with the combined value: combined is complete", StreetSplit,
			map[string]any{"street": "Vinohradská", "streetWithNr": "Korunní 1208/74"}, "Korunní", "1208/74", true},
		{"street alone", StreetSplit, map[string]any{"street": "Vinohradská"}, "Vinohradská", nil, true},
		{"nothing", StreetSplit, map[string]any{"city": "Brno"}, nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			NormalizeStreet(tc.in, tc.mode)
			if tc.in["street"] != tc.street || tc.in["houseNumber"] != tc.nr {
				t.Errorf("street %v, houseNumber %v; want %v, %v", tc.in["street"], tc.in["houseNumber"], tc.street, tc.nr)
			}
			if _, ok := tc.in["streetWithNr"]; ok && tc.noCombinedIn {
				t.Error("streetWithNr is not a field of the stored address")
			}
		})
	}
}

func TestMissingMandatory(t *testing.T) {
	settings := map[string]any{}
	_ = json.Unmarshal([]byte(`{"contactInfo":{"email":"required","phone":"optional","birthday":"hidden"},
		"billingAddress":{"fullName":"required","street":"required","houseNumber":"optional","city":"required","zip":"required"},
		"billingInfo":{"companyId":"optional"},
		"deliveryAddress":{"fullName":"required","city":"required"}}`), &settings)
	full := func() map[string]any {
		return map[string]any{"email": "a@example.com", "billingAddress": map[string]any{"fullName": "A", "street": "S", "city": "C", "zip": "1"}}
	}
	tests := []struct {
		name   string
		change func(m map[string]any)
		want   []string
	}{
		{"complete", func(map[string]any) {}, nil},
		{"no e-mail", func(m map[string]any) { delete(m, "email") }, []string{"data.email"}},
		{"blank city", func(m map[string]any) { m["billingAddress"].(map[string]any)["city"] = "  " }, []string{"data.billingAddress.city"}},
		{"no billing address", func(m map[string]any) { delete(m, "billingAddress") },
			[]string{"data.billingAddress.city", "data.billingAddress.fullName", "data.billingAddress.street", "data.billingAddress.zip"}},
		{"own delivery address is checked", func(m map[string]any) { m["deliveryAddress"] = map[string]any{"fullName": "B"} },
			[]string{"data.deliveryAddress.city"}},
		{"equal addresses skip the delivery fields", func(m map[string]any) {
			m["deliveryAddress"] = map[string]any{"fullName": "B"}
			m["addressesEqual"] = true
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := full()
			tc.change(m)
			got := MissingMandatory(settings, m)
			if len(got) != len(tc.want) {
				t.Fatalf("missing %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("missing %v, want %v", got, tc.want)
				}
			}
		})
	}
}
