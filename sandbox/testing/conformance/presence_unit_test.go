package conformance

import (
	"reflect"
	"strings"
	"testing"
)

// full builds a value holding every property a schema declares: objects
// with all their keys, arrays with one full item, scalars as null.
func (rs *rawSchemas) full(n snode, depth int) any {
	n = rs.resolve(n)
	if n == nil || depth > 12 {
		return nil
	}
	if bs := n.branches(); len(bs) > 0 {
		for _, b := range bs {
			if b = rs.resolve(b); !b.nullOnly() {
				return rs.full(b, depth)
			}
		}
		return nil
	}
	if props := n.props(); len(props) > 0 {
		out := map[string]any{}
		for k, p := range props {
			out[k] = rs.full(p, depth+1)
		}
		return out
	}
	if n.is("array") {
		return []any{rs.full(n.items(), depth+1)}
	}
	return nil
}

// drop removes the key at a dotted path ("data.invoices.0.billFullName").
func drop(v any, path string) {
	steps := strings.Split(path, ".")
	for i, s := range steps {
		last := i == len(steps)-1
		switch x := v.(type) {
		case map[string]any:
			if last {
				delete(x, s)
				return
			}
			v = x[s]
		case []any:
			v = x[0]
		}
	}
}

// TestPresenceFindsEveryMissingProperty: the presence check names a
// property left out at any depth (an entity, a list item, an object
// inside a list item), accepts null, and passes a complete answer.
func TestPresenceFindsEveryMissingProperty(t *testing.T) {
	rs, err := loadRaw()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		op, drop string
		want     []string
	}{
		{"GetListOfInvoices", "", nil},
		{"GetListOfInvoices", "data.invoices.0.billFullName", []string{"data.invoices[0].billFullName"}},
		{"GetListOfCreditNotes", "data.creditNotes.0.billCompany", []string{"data.creditNotes[0].billCompany"}},
		{"GetDetailOfDeliveryNote", "data.deliveryNote.items.0.brand", []string{"data.deliveryNote.items[0].brand"}},
		{"GetEshopInfo", "data.contactInformation.skypeAccount", []string{"data.contactInformation.skypeAccount"}},
		{"GetProductDetail", "data.variants.0.zboziCZ", []string{"data.variants[0].zboziCZ"}},
		{"GetProductDetail", "metadata", []string{"metadata"}},
	}
	for _, c := range cases {
		t.Run(c.op+"/"+c.drop, func(t *testing.T) {
			sch := rs.files["endpoints/"+c.op+".response.json"]
			if sch == nil {
				t.Fatalf("no response schema for %s", c.op)
			}
			v := rs.full(sch, 0)
			if c.drop != "" {
				drop(v, c.drop)
			}
			got := rs.missingProps(sch, v, "", 0)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("missing %v, want %v", got, c.want)
			}
		})
	}
}
