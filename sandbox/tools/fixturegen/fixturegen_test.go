package fixturegen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/fixturegen"
)

func generate(t *testing.T, opt fixturegen.Options) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := fixturegen.Generate(fixtures.FS, dir, opt); err != nil {
		t.Fatal(err)
	}
	return dir
}

func read(t *testing.T, dir, file string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "eshops", fixturegen.Eshop, file+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestGeneratedSetServes: the set loads with full schema validation (a
// --fixtures folder always validates), has the asked-for sizes, and its
// records answer in the reference's shape through the API.
func TestGeneratedSetServes(t *testing.T) {
	opt := fixturegen.Options{Products: 90, Orders: 70, Customers: 40}
	dir := generate(t, opt)
	s := sandboxtest.New(t, sandbox.Config{Fixtures: os.DirFS(dir), FixturesName: dir, Limits: &sandbox.Limits{Off: true}})
	token := gjson.GetBytes(read(t, dir, "credentials"), `privateTokens.#(rights=="all").token`).String()
	for path, want := range map[string]int{
		"/api/products?itemsPerPage=1":  opt.Products,
		"/api/orders?itemsPerPage=1":    opt.Orders,
		"/api/customers?itemsPerPage=1": opt.Customers,
	} {
		r := s.Do(sandboxtest.Call{Path: path, PrivateToken: token})
		if got := gjson.GetBytes(r.Body, "data.paginator.totalCount").Int(); r.Status != 200 || got != int64(want) {
			t.Fatalf("%s: %d, total %d, want %d", path, r.Status, got, want)
		}
	}
	orders := read(t, dir, "orders")
	last := gjson.GetBytes(orders, "@reverse.0")
	for _, path := range []string{
		"/api/orders/" + last.Get("code").String(),
		"/api/products/" + gjson.GetBytes(read(t, dir, "products"), "@reverse.0.guid").String() + "?include=images,setItems",
		"/api/customers/" + gjson.GetBytes(read(t, dir, "customers"), "@reverse.0.guid").String(),
		"/api/invoices/" + gjson.GetBytes(read(t, dir, "invoices"), "@reverse.0.code").String(),
		"/api/invoices/" + gjson.GetBytes(read(t, dir, "invoices"), "@reverse.0.code").String() + "/pdf",
	} {
		if r := s.Do(sandboxtest.Call{Path: path, PrivateToken: token}); r.Status != 200 {
			t.Fatalf("%s: %d %s", path, r.Status, r.Body)
		}
	}
	// Every product an order names exists, under the GUID the order gives.
	products := read(t, dir, "products")
	codes := map[string]string{}
	gjson.GetBytes(products, "@this").ForEach(func(_, p gjson.Result) bool {
		p.Get("variants").ForEach(func(_, v gjson.Result) bool { codes[v.Get("code").String()] = p.Get("guid").String(); return true })
		return true
	})
	gjson.GetBytes(orders, "#.items|@flatten").ForEach(func(_, it gjson.Result) bool {
		c := it.Get("code").String()
		if c == "" || (it.Get("itemType").String() != "product" && it.Get("itemType").String() != "gift") {
			return true
		}
		if codes[c] != it.Get("productGuid").String() {
			t.Errorf("order item %s names product %s, which holds no such variant", c, it.Get("productGuid"))
		}
		return true
	})
}

// TestDeterministic: the same options write the same bytes; another seed
// other names.
func TestDeterministic(t *testing.T) {
	opt := fixturegen.Options{Products: 40, Orders: 10, Customers: 10}
	a, b := generate(t, opt), generate(t, opt)
	for _, f := range []string{"products", "customers", "orders", "invoices", "pricelists"} {
		if !bytes.Equal(read(t, a, f), read(t, b, f)) {
			t.Fatalf("%s differs between two runs", f)
		}
	}
	opt.Seed = 2
	c := generate(t, opt)
	if bytes.Equal(read(t, a, "customers"), read(t, c, "customers")) {
		t.Fatal("another seed wrote the same customers")
	}
}

// TestWorkersWriteTheSameFiles: products and orders are made by parallel
// workers in chunks; one worker and many write byte-identical files.
func TestWorkersWriteTheSameFiles(t *testing.T) {
	opt := fixturegen.Options{Products: 700, Orders: 650, Customers: 30, Workers: 1}
	one := generate(t, opt)
	opt.Workers = 5
	many := generate(t, opt)
	entries, err := os.ReadDir(filepath.Join(one, "eshops", fixturegen.Eshop))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		f := strings.TrimSuffix(e.Name(), ".json")
		if !bytes.Equal(read(t, one, f), read(t, many, f)) {
			t.Errorf("%s differs between 1 and 5 workers", e.Name())
		}
	}
	if len(entries) < 40 {
		t.Fatalf("only %d files", len(entries))
	}
	// Documents and movements are numbered in order across the chunks.
	for file, path := range map[string]string{"invoices": "#.code", "delivery-notes": "#.code", "proof-payments": "#.code",
		"stock-movements": "#.id", "order-history": "#.id"} {
		ids := gjson.GetBytes(read(t, many, file), path).Array()
		if len(ids) < 100 {
			t.Fatalf("%s: only %d records", file, len(ids))
		}
		for i, id := range ids {
			n := id.Int()
			if file != "stock-movements" && file != "order-history" {
				n = id.Int() % 100000
			}
			if n != int64(i+1) {
				t.Fatalf("%s: record %d numbered %s", file, i+1, id.Raw)
			}
		}
	}
}

func TestTooFewProducts(t *testing.T) {
	n := int(gjson.GetBytes(mustRead(t), "#").Int())
	_, err := fixturegen.Generate(fixtures.FS, t.TempDir(), fixturegen.Options{Products: n - 1, Orders: 1, Customers: 1})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(strconv.Itoa(n))) {
		t.Fatalf("err = %v, want one naming the minimum %d", err, n)
	}
}

func mustRead(t *testing.T) []byte {
	raw, err := fixtures.FS.ReadFile("eshops/1001/products.json")
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
