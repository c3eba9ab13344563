package api

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// TestCheckQuery: a required parameter must be there with a value; a
// value of the wrong kind is refused naming the parameter; an empty
// optional value and parameters not declared pass.
func TestCheckQuery(t *testing.T) {
	params := []QueryParam{
		{Name: "from", Required: true, Kind: QueryDateTime},
		{Name: "changeType", Kind: QueryEnum, Enum: []string{"add", "edit", "delete"}},
		{Name: "page", Kind: QueryPositive},
		{Name: "statusId", Kind: QueryInteger},
		{Name: "vatRate", Kind: QueryNumber},
		{Name: "isValid", Kind: QueryBoolean},
		{Name: "validFrom", Kind: QueryDate},
		{Name: "template", Kind: QueryGUID},
		{Name: "productGuids", Kind: QueryGUIDList},
		{Name: "shippingPrice", Kind: QueryNumberOrBoolean},
		{Name: "code", Kind: QueryText},
	}
	const from = "from=2024-01-31T12:00:00%2B0100&"
	cases := []struct {
		name, query string
		instance    string // "" when accepted
		message     string // part of the message
	}{
		{"all valid", from + "changeType=edit&page=2&statusId=-4&vatRate=21.00&isValid=TRUE&validFrom=2024-01-31&template=3F2504E0-4F89-41D3-9A0C-0305E82C3301&productGuids=3f2504e0-4f89-41d3-9a0c-0305e82c3301,%203f2504e0-4f89-41d3-9a0c-0305e82c3302&shippingPrice=0.00&code=anything", "", ""},
		{"unencoded plus", "from=2024-01-31T12:00:00+0100", "", ""},
		{"RFC 3339", "from=2024-01-31T12:00:00Z", "", ""},
		{"date as a date-time", from + "validFrom=2024-01-31T12:00:00%2B0100", "", ""},
		{"boolean as 0", from + "isValid=0", "", ""},
		{"shippingPrice true", from + "shippingPrice=true", "", ""},
		{"empty optional", from + "page=&template=&isValid=", "", ""},
		{"undeclared", from + "whatever=banana", "", ""},
		{"missing required", "page=1", "from", "Query parameter from is required"},
		{"empty required", "from=", "from", "is required"},
		{"bad date-time", "from=yesterday", "from", `not "yesterday"`},
		{"date for a date-time", "from=2024-01-31", "from", "date-time"},
		{"enum", from + "changeType=update", "changeType", "add, edit or delete"},
		{"page zero", from + "page=0", "page", "at least 1"},
		{"integer", from + "statusId=abc", "statusId", "whole number"},
		{"integer fraction", from + "statusId=1.5", "statusId", "whole number"},
		{"number", from + "vatRate=21%2C00", "vatRate", "number"},
		{"number exponent", from + "vatRate=1e3", "vatRate", "number"},
		{"boolean", from + "isValid=banana", "isValid", "true or false"},
		{"date", from + "validFrom=2024-02-30", "validFrom", "date like"},
		{"guid", from + "template=not-a-guid", "template", "GUID"},
		{"guid list", from + "productGuids=3f2504e0-4f89-41d3-9a0c-0305e82c3301,x", "productGuids", "GUIDs"},
		{"shippingPrice", from + "shippingPrice=banana", "shippingPrice", "number"},
		{"second value", from + "isValid=true&isValid=banana", "isValid", "true or false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			err = CheckQuery(params, q)
			if c.instance == "" {
				if err != nil {
					t.Fatalf("%s: %v", c.query, err)
				}
				return
			}
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Kind != sandbox.KindInvalid || se.Code != sandbox.CodeInvalidParameter || se.Instance != c.instance ||
				!strings.Contains(se.Message, c.instance) || !strings.Contains(se.Message, c.message) {
				t.Fatalf("%s: %#v, want invalid-parameter %s saying %q", c.query, err, c.instance, c.message)
			}
		})
	}
}

// TestQueryKindsCoverTheCatalogue: every query parameter of the reference
// catalogue has a kind (the sandbox would not start otherwise), the table
// holds no name the catalogue lacks, and the required ones come through.
func TestQueryKindsCoverTheCatalogue(t *testing.T) {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	required := 0
	for _, e := range cat.Endpoints {
		ps, err := QueryParams(e.QueryParams, e.RequiredQueryParams)
		if err != nil {
			t.Errorf("%s %s: %v", e.Method, e.Path, err)
			continue
		}
		for _, p := range ps {
			seen[p.Name] = true
			if p.Required {
				required++
			}
			if p.Kind == QueryEnum && len(p.Enum) == 0 {
				t.Errorf("%s: an enum without values", p.Name)
			}
		}
	}
	for n := range queryKinds {
		if !seen[n] {
			t.Errorf("query kinds table: %s is no query parameter of the catalogue", n)
		}
	}
	if required != 10 {
		t.Errorf("%d required query parameters, the reference has 10", required)
	}
	if _, err := QueryParams([]string{"noSuchParameter"}, nil); err == nil {
		t.Error("a parameter without a kind was accepted")
	}
	if _, err := QueryParams([]string{"from"}, []string{"to"}); err == nil {
		t.Error("a required parameter the endpoint does not list was accepted")
	}
}
