package orders

import (
	"testing"

	"github.com/tidwall/gjson"
)

// sameIndex fails unless got indexes doc exactly as a fresh parse does.
func sameIndex(t *testing.T, got *supplyIndex, doc []byte) {
	t.Helper()
	want := indexSupplies(doc)
	if got.stored.Raw != want.stored.Raw || got.stored.Index != want.stored.Index {
		t.Fatalf("_supplies at %d %q, want at %d %q", got.stored.Index, got.stored.Raw, want.stored.Index, want.stored.Raw)
	}
	if len(got.all) != len(want.all) {
		t.Fatalf("%d supplies, want %d", len(got.all), len(want.all))
	}
	for i := range want.all {
		if got.all[i].Raw != want.all[i].Raw || got.all[i].Index != want.all[i].Index || got.all[i].Type != want.all[i].Type {
			t.Fatalf("supply %d at %d %q, want at %d %q", i, got.all[i].Index, got.all[i].Raw, want.all[i].Index, want.all[i].Raw)
		}
		if !located(doc, got.all[i]) {
			t.Fatalf("supply %d does not lie where it says in the new record", i)
		}
	}
	for c, i := range want.first {
		if got.first[c] != i {
			t.Fatalf("first %q at %d, want %d", c, got.first[c], i)
		}
	}
	for c, is := range want.byCode {
		if len(got.byCode[c]) != len(is) {
			t.Fatalf("code %q: %v, want %v", c, got.byCode[c], is)
		}
	}
}

// TestRebasedIndexEqualsAParse edits a stock record as an order does
// (whole supplies replaced, longer or shorter) and checks that the index
// moved by the edits is the index a parse of the new record gives; edits
// of another kind are refused, so the record is parsed instead.
func TestRebasedIndexEqualsAParse(t *testing.T) {
	const stock = `{"_seq":4,"id":1,"title":"Main","_supplies":[{"code":"A","amount":"5.000","location":"R1"},{"code":"B","amount":"1.000","location":null},{"code":"A","amount":"2.000"},{"code":"C","amount":"0.000"}],"tail":[1,2]}`
	replace := func(codes ...string) func(ss *supplies) error {
		return func(ss *supplies) error {
			for i, c := range codes {
				m, err := ss.of(c, "")
				if err != nil {
					return err
				}
				m["amount"] = []string{"4.000", "-12345.500", "0"}[i%3]
				m["changeTime"] = "2026-12-06T10:00:00+0100"
			}
			return nil
		}
	}
	tests := []struct {
		name   string
		change func(ss *supplies) error
		ok     bool
	}{
		{"first supply, longer", replace("A"), true},
		{"middle supply", replace("B"), true},
		{"last supply", replace("C"), true},
		{"three supplies", replace("C", "A", "B"), true},
		{"nothing changed", func(*supplies) error { return nil }, true},
		{"a supply added", replace("A", "NEW"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := indexSupplies([]byte(stock))
			ss := newSupplies(old)
			if err := tt.change(ss); err != nil {
				t.Fatal(err)
			}
			rec, list, err := ss.record()
			if err != nil {
				t.Fatal(err)
			}
			if !gjson.ValidBytes(rec) {
				t.Fatalf("invalid record %s", rec)
			}
			got, ok := old.rebased(append([]byte(nil), rec...), list)
			if ok != tt.ok {
				t.Fatalf("rebased ok = %v, want %v", ok, tt.ok)
			}
			if ok {
				sameIndex(t, got, got.doc)
			}
		})
	}
}

// TestRebasedRefusesForeignEdits: an edit outside the supplies, inside a
// supply, or a document of another length is no rebase.
func TestRebasedRefusesForeignEdits(t *testing.T) {
	const stock = `{"_seq":4,"title":"Main","_supplies":[{"code":"A","amount":"5.000"},{"code":"B","amount":"1.000"}]}`
	old := indexSupplies([]byte(stock))
	a := old.all[0]
	amount := a.Get("amount")
	if !located([]byte(stock), amount) {
		t.Fatal("the amount does not know its place")
	}
	tests := []struct {
		name string
		list []splice
	}{
		{"outside the supplies", []splice{{at: 10, n: 6, with: []byte(`"Other"`)}}},
		{"inside a supply", []splice{{at: amount.Index, n: len(amount.Raw), with: []byte(`"6.000"`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := spliced([]byte(stock), tt.list)
			if _, ok := old.rebased(doc, tt.list); ok {
				t.Fatal("rebased an edit it cannot follow")
			}
		})
	}
	if _, ok := old.rebased([]byte(stock+" "), nil); ok {
		t.Fatal("rebased onto a document of another length")
	}
}

// productFields is a document's top-level fields as Product.fields finds them.
func productFields(doc []byte) map[string]gjson.Result {
	p := &Product{Doc: gjson.Parse(string(doc)), raw: doc}
	return p.fields()
}

// TestRebasedFieldsEqualAParse edits one field of a product as the stock
// sync does and checks the moved top-level index against a parse of the
// new record: fields before, the ones edited and fields after; a key added
// at the top, or a string changed, is refused.
func TestRebasedFieldsEqualAParse(t *testing.T) {
	const product = `{"_seq":7,"brand":{"name":"A"},"name":"Tent","variants":[{"code":"V1","stock":"5.000","perStockAmounts":[{"stockId":1,"amount":"5.000"}]},{"code":"V2"}],"visibility":"visible","warranty":{"description":"2 years"},"weight":1.5,"z":true}`
	doc := []byte(product)
	top := productFields(doc)
	v1 := top["variants"].Get("0")
	per := v1.Get("perStockAmounts.0")
	tests := []struct {
		name string
		edit func(e *edits) error
		ok   bool
	}{
		{"one value, longer", func(e *edits) error { return e.set(v1, "stock", "-1234.000") }, true},
		{"one value, shorter", func(e *edits) error { return e.set(v1, "stock", "1") }, true},
		{"a key added", func(e *edits) error { return e.set(per, "lastAmountUpdate", "2026-12-06T10:00:00+0100") }, true},
		{"an entry appended", func(e *edits) error {
			return e.append(v1.Get("perStockAmounts"), []any{map[string]any{"stockId": 2, "amount": "1.000"}})
		}, true},
		{"two fields", func(e *edits) error {
			if err := e.set(v1, "stock", "1"); err != nil {
				return err
			}
			return e.set(e.root(), "weight", 2)
		}, true},
		{"a key added at the top", func(e *edits) error { return e.set(e.root(), "added", 1) }, false},
		{"a string changed", func(e *edits) error { return e.set(e.root(), "name", "Tents") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ed := &edits{doc: doc}
			if err := tt.edit(ed); err != nil {
				t.Fatal(err)
			}
			out := ed.result()
			got, ok := rebasedFields(doc, out, top, ed.list)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			want := productFields(out)
			if len(got) != len(want) {
				t.Fatalf("%d fields, want %d", len(got), len(want))
			}
			for k, w := range want {
				g := got[k]
				if g.Raw != w.Raw || g.Index != w.Index || g.Type != w.Type || g.Str != w.Str || g.String() != w.String() {
					t.Errorf("field %s: at %d %q, want at %d %q", k, g.Index, g.Raw, w.Index, w.Raw)
				}
			}
		})
	}
	if _, ok := rebasedFields(doc, append(doc, ' '), top, []splice{{at: 3, n: 0, with: []byte("xx")}}); ok {
		t.Fatal("rebased onto a document of another length")
	}
}

// TestRewrittenProductKeepsItsVariants: the variants of a product kept
// parsed after a stock sync's edits are the variants a parse of the new
// record finds, each where it lies.
func TestRewrittenProductKeepsItsVariants(t *testing.T) {
	doc := []byte(`{"_seq":7,"name":"Tent","variants":[{"code":"V1","stock":"5.000","perStockAmounts":[{"stockId":1,"amount":"5.000"}]},{"code":"V2","stock":"1.000"},{"code":"V3"}],"z":true}`)
	p := &Product{Doc: gjson.Parse(string(doc)), raw: doc}
	v2 := p.variant(1)
	ed := &edits{doc: doc}
	if err := ed.set(v2, "stock", "-10.500"); err != nil {
		t.Fatal(err)
	}
	if err := ed.set(p.variant(0).Get("perStockAmounts.0"), "amount", "4.000"); err != nil {
		t.Fatal(err)
	}
	out := ed.result()
	vars, ok := rebasedResults(doc, out, p.vars, ed.list)
	if !ok {
		t.Fatal("not rebased")
	}
	fresh := (&Product{Doc: gjson.Parse(string(out)), raw: out})
	fresh.fields()
	if len(vars) != len(fresh.vars) {
		t.Fatalf("%d variants, want %d", len(vars), len(fresh.vars))
	}
	for i := range vars {
		if vars[i].Raw != fresh.vars[i].Raw || vars[i].Index != fresh.vars[i].Index || !located(out, vars[i]) {
			t.Errorf("variant %d at %d %s, want at %d %s", i, vars[i].Index, vars[i].Raw, fresh.vars[i].Index, fresh.vars[i].Raw)
		}
	}
}

// TestFieldsOfAsGet: the one-pass lookup finds what Get finds for each
// key: present, null, absent, the first of duplicates, in an object or
// in something else.
func TestFieldsOfAsGet(t *testing.T) {
	keys := []string{"weight", "unit", "ean", "name"}
	for _, doc := range []string{
		`{"name":"V","weight":"1.5","unit":null,"x":{"ean":"inner"}}`,
		`{"ean":"1","ean":"2","name":"a","name":"b","weight":0}`,
		`{}`,
		`[1,2]`,
		``,
	} {
		r := gjson.Parse(doc)
		got := fieldsOf(r, keys...)
		for i, k := range keys {
			want := r.Get(k)
			if got[i].Raw != want.Raw || got[i].Exists() != want.Exists() {
				t.Errorf("%s: %s = %q, Get finds %q", doc, k, got[i].Raw, want.Raw)
			}
		}
	}
}
