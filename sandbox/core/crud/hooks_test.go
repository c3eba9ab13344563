package crud

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

func noop(*Ctx, *Coll, map[string]any, map[string]any, bool) error { return nil }

func noDefaults(*Ctx, []map[string]any) (map[string]any, error) { return nil, nil }

func noDownload(*Ctx, map[string]any, string) (*api.Raw, error) { return nil, nil }

func noNumber(*Ctx, *Coll) (string, error) { return "", nil }

// stubHooks stand in for the shop areas' hooks (surface.Hooks, which
// crud's own tests cannot import): a download and a number hook for
// every row that needs one. sandbox/app/surface checks the real ones.
func stubHooks(reg *registry.Registry) []Hook {
	var out []Hook
	for _, row := range reg.Resources() {
		h := Hook{Resource: row.Name}
		if row.Op(registry.Download) != nil {
			h.Download = noDownload
		}
		if row.Numbered {
			h.Number = noNumber
		}
		if h.Download != nil || h.Number != nil {
			out = append(out, h)
		}
	}
	return out
}

// TestHookTableChecked: the hooks are checked against the registry when
// the engine is built; each bad line fails naming what is wrong.
func TestHookTableChecked(t *testing.T) {
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	full := append(append([]Hook{}, builtinHooks...), stubHooks(reg)...)
	if _, err := indexHooks(reg, full); err != nil {
		t.Fatalf("the built-in hooks: %v", err)
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
		{"prepare twice", Hook{Resource: "brands", Prepare: noop}, "prepare is set twice"},
		{"operation twice", Hook{Resource: "stocks", Operation: "GetListOfStocks", ListDefaults: noDefaults}, "hooked twice"},
		{"by-parent without By", Hook{Resource: "brands", Operation: "GetDetailOfBrand", ByParent: "orders"}, "needs a Detail op with By"},
		{"by-parent to no row", Hook{Resource: "proof-payments", Operation: "GetProofPaymentDetailByOrderCode", ByParent: "gadgets"}, `no registry row "gadgets"`},
		{"download without downloads", Hook{Resource: "brands", Download: noDownload}, "without downloads"},
		{"download twice", Hook{Resource: "invoices", Download: noDownload}, "download is set twice"},
		{"number on a row not numbered", Hook{Resource: "brands", Number: noNumber}, "not numbered"},
		{"number twice", Hook{Resource: "invoices", Number: noNumber}, "number is set twice"},
		{"parent hook on a leaf", Hook{Resource: "brands", Parent: func(*Ctx, map[string]any) {}}, "no other row embeds"},
		{"empty", Hook{Resource: "brands"}, "sets nothing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			table := append(append([]Hook{}, full...), c.hook)
			_, err := indexHooks(reg, table)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	without := func(drop func(*Hook)) []Hook {
		var table []Hook
		for _, h := range full {
			if h.Resource == "invoices" {
				drop(&h)
			}
			table = append(table, h)
		}
		return table
	}
	t.Run("download without its hook", func(t *testing.T) {
		table := without(func(h *Hook) { h.Download = nil })
		if _, err := indexHooks(reg, table); err == nil || !strings.Contains(err.Error(), "invoices has downloads but no download hook") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("numbered without its hook", func(t *testing.T) {
		table := without(func(h *Hook) { h.Number = nil })
		if _, err := indexHooks(reg, table); err == nil || !strings.Contains(err.Error(), "invoices is numbered but has no number hook") {
			t.Fatalf("got %v", err)
		}
	})
}

// TestNewRefusesHookForMissingRow: crud.New fails when the registry
// lacks a row a hook completes.
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
	if _, err := New(reg, Deps{Hooks: stubHooks(reg)}); err == nil || !strings.Contains(err.Error(), `"discussion-posts"`) {
		t.Fatalf("New: %v", err)
	}
}
