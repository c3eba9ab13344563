package crud

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/documents"
)

func noop(*Ctx, *Coll, map[string]any, map[string]any, bool) error { return nil }

func noDefaults(*Ctx, []map[string]any) (map[string]any, error) { return nil, nil }

// TestHookTableChecked: the hook table is checked against the registry
// when the engine is built; each bad line fails naming what is wrong.
func TestHookTableChecked(t *testing.T) {
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := indexHooks(reg, hookTable); err != nil {
		t.Fatalf("the built-in table: %v", err)
	}
	cases := []struct {
		name string
		hook Hook
		want string
	}{
		{"unknown resource", Hook{Resource: "gadgets", Prepare: noop}, `no registry row "gadgets"`},
		{"operation of another row", Hook{Resource: "brands", Operation: "GetListOfStocks", ListDefaults: noDefaults}, "GetListOfStocks is not an operation of the row"},
		{"unknown operation", Hook{Resource: "stocks", Operation: "GetListOfGadgets", ListDefaults: noDefaults}, "GetListOfGadgets is not an operation"},
		{"list defaults on a detail", Hook{Resource: "brands", Operation: "GetDetailOfBrand", ListDefaults: noDefaults}, "list defaults on a detail operation"},
		{"operation field without operation", Hook{Resource: "stocks", ListDefaults: noDefaults}, "belong to an operation"},
		{"resource field on an operation", Hook{Resource: "brands", Operation: "GetListofBrands", Prepare: noop}, "belong to the resource"},
		{"prepare twice", Hook{Resource: "products", Prepare: noop}, "prepare is set twice"},
		{"operation twice", Hook{Resource: "stocks", Operation: "GetListOfStocks", ListDefaults: noDefaults}, "hooked twice"},
		{"by-parent without By", Hook{Resource: "brands", Operation: "GetDetailOfBrand", ByParent: "orders"}, "needs a Detail op with By"},
		{"by-parent to no row", Hook{Resource: "proof-payments", Operation: "GetProofPaymentDetailByOrderCode", ByParent: "gadgets"}, `no registry row "gadgets"`},
		{"document without downloads", Hook{Resource: "brands", Document: documents.Invoice}, "without downloads"},
		{"parent hook on a leaf", Hook{Resource: "brands", Parent: func(*Ctx, map[string]any) {}}, "no other row embeds"},
		{"empty", Hook{Resource: "brands"}, "sets nothing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			table := append(append([]Hook{}, hookTable...), c.hook)
			_, err := indexHooks(reg, table)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	t.Run("download without document", func(t *testing.T) {
		var table []Hook
		for _, h := range hookTable {
			if h.Resource != "invoices" {
				table = append(table, h)
			}
		}
		if _, err := indexHooks(reg, table); err == nil || !strings.Contains(err.Error(), "invoices has downloads but no document kind") {
			t.Fatalf("got %v", err)
		}
	})
}

// TestNewRefusesHookForMissingRow: crud.New fails when the registry
// lacks a row the hook table completes.
func TestNewRefusesHookForMissingRow(t *testing.T) {
	var rows []*registry.Resource
	for _, r := range registry.Rows() {
		if r.Name != "discussion-posts" {
			rows = append(rows, r)
		}
	}
	reg, err := registry.New(rows)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(reg, Deps{}); err == nil || !strings.Contains(err.Error(), `"discussion-posts"`) {
		t.Fatalf("New: %v", err)
	}
}
