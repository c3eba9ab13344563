package seed_test

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/system"
	"github.com/eshop-sandbox/sandbox/schemas"
)

func loader(t testing.TB, fsys fstest.MapFS) *seed.Loader {
	t.Helper()
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	set, err := schemas.Compile()
	if err != nil {
		t.Fatal(err)
	}
	c, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	cat := system.NewCatalogue(c)
	l := &seed.Loader{Registry: reg, Schemas: set, Groups: cat.HasGroup, Operation: cat.Resolve, Validate: true, Name: "fx"}
	if fsys != nil {
		l.FS = fsys
	}
	return l
}

// TestEmbeddedFixturesAreValid validates every embedded fixture record
// against its reference schema; the sandbox skips this at start for speed.
func TestEmbeddedFixturesAreValid(t *testing.T) {
	l := loader(t, nil)
	l.FS = fixtures.FS
	st, sum := loadInto(t, l, store.Options{})
	if len(sum.Eshops) < 2 || sum.Records < 100 {
		t.Fatalf("loaded %+v", sum)
	}
	if !seed.Seeded(st) {
		t.Fatal("not marked seeded")
	}
}

const eshop = `{"contactInformation": {"eshopId": 5, "eshopName": "T"}, "languages": [{"code": "en", "isDefault": true}], "currencies": [{"code": "EUR"}]}`

// withLook is eshop with a storefront look on its second line.
func withLook(look string) string {
	return strings.TrimSuffix(eshop, "}") + ",\n\"_storefront\": " + look + "}"
}

// TestBrokenFixtures checks that each kind of broken file is reported with
// its file, line and reason, and that nothing is half-seeded.
func TestBrokenFixtures(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no eshops folder", map[string]string{"x.json": "{}"}, "fx/eshops: no eshops/ folder"},
		{"folder not numeric", map[string]string{"eshops/shop/eshop.json": eshop}, "fx/eshops/shop: e-shop folders are named"},
		{"missing eshop.json", map[string]string{"eshops/5/brands.json": "[]"}, "fx/eshops/5/eshop.json: missing"},
		{"syntax error line", map[string]string{"eshops/5/eshop.json": "{\n\"a\": 1,\n\"b\": }"}, "fx/eshops/5/eshop.json:3: invalid JSON"},
		{"trailing data", map[string]string{"eshops/5/eshop.json": eshop + "\n{}"}, "fx/eshops/5/eshop.json:2: unexpected data"},
		{"id mismatch", map[string]string{"eshops/6/eshop.json": eshop}, "contactInformation.eshopId is 5 but the folder says 6"},
		{"no language", map[string]string{"eshops/5/eshop.json": `{"currencies":[{"code":"EUR"}]}`}, "no language"},
		{"misspelt module", map[string]string{"eshops/5/eshop.json": "{\n\"activeModules\": [\n{\"name\": \"pricelists\"},\n{\"name\": \"multiplestocks\"}\n],\n" + eshop[1:]},
			`fx/eshops/5/eshop.json:4: activeModules[1]: module name "multiplestocks" is spelled "multipleStocks"`},
		{"module twice", map[string]string{"eshops/5/eshop.json": "{\n\"activeModules\": [\n{\"name\": \"bazaar\"},\n{\"name\": \"bazaar\"}\n],\n" + eshop[1:]},
			"fx/eshops/5/eshop.json:4: activeModules[1]: module bazaar is listed twice"},
		{"module without a name", map[string]string{"eshops/5/eshop.json": `{"activeModules": [{"title": "Bazar"}],` + eshop[1:]}, "activeModules[0]: module name \"\" must be"},
		{"unknown file", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/gadgets.json": "[]"}, "fx/eshops/5/gadgets.json: unknown fixture file"},
		{"not an array", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/brands.json": "{}"}, "fx/eshops/5/brands.json:1: must be a JSON array"},
		{"record without id", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/flags.json": "[\n{\"code\":\"a\"},\n{\"name\":\"b\"}\n]"}, "fx/eshops/5/flags.json:3: record 2 has no \"code\""},
		{"duplicate id", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/flags.json": "[\n{\"code\":\"a\"},\n{\"code\":\"a\"}\n]"}, "fx/eshops/5/flags.json:3: duplicate code \"a\" (first at line 2)"},
		{"bad id characters", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/flags.json": `[{"code":"a:b"}]`}, "must not contain"},
		{"schema mismatch at field line", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/brands.json": "[\n{\n\"code\": \"b\",\n\"name\": 7\n}\n]"}, "fx/eshops/5/brands.json:4: code \"b\" does not match the reference's Brand: field name"},
		{"unknown credentials field", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/credentials.json": "{\n\"tokens\": []\n}"}, "fx/eshops/5/credentials.json"},
		{"short token", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/credentials.json": `{"privateTokens":[{"name":"x","token":"short","rights":"all"}]}`}, "at least 16 characters"},
		{"unknown rights group", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/credentials.json": `{"privateTokens":[{"name":"x","token":"sbx_prv_0123456789abcdef","rights":{"Nope":"read"}}]}`}, "unknown endpoint group \"Nope\""},
		{"unknown add-on endpoint", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/credentials.json": `{"addons":[{"name":"a","clientId":"c","clientSecret":"s","endpoints":[{"endpoint":"GetEverything","approved":true}]}]}`}, "unknown endpoint \"GetEverything\""},
		{"storefront colour", map[string]string{"eshops/5/eshop.json": withLook(`{"colors": {"primary": "green"}}`)}, `fx/eshops/5/eshop.json:2: _storefront.colors.primary is "green": give a colour as #rrggbb`},
		{"storefront unknown key", map[string]string{"eshops/5/eshop.json": withLook(`{"colours": {}}`)}, `fx/eshops/5/eshop.json:2: _storefront: unknown field "colours"`},
		{"storefront logo not svg", map[string]string{"eshops/5/eshop.json": withLook(`{"logoSvg": "<html></html>"}`)}, `fx/eshops/5/eshop.json:2: _storefront.logoSvg: the root element is "html"`},
		{"storefront logo address", map[string]string{"eshops/5/eshop.json": withLook(`{"logoUrl": "javascript:alert(1)"}`)}, `fx/eshops/5/eshop.json:2: _storefront.logoUrl is "javascript:alert(1)"`},
		{"bad expiry", map[string]string{"eshops/5/eshop.json": eshop, "eshops/5/credentials.json": `{"addons":[{"name":"a","clientId":"c","clientSecret":"s","endpoints":[],"apiTokens":[{"token":"sbx_api_0123456789abcdef","expiresAt":"soon"}]}]}`}, "expiresAt \"soon\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for p, c := range tc.files {
				fsys[p] = &fstest.MapFile{Data: []byte(c)}
			}
			st, err := store.Open(store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			_, err = loader(t, fsys).Load(st)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if seed.Seeded(st) {
				t.Fatal("a broken fixture left the store seeded")
			}
		})
	}
}

// TestAddonEndpointsAcceptMethodAndPath checks that fixtures may name an
// add-on endpoint as "METHOD /path" as well as by operation.
func TestAddonEndpointsAcceptMethodAndPath(t *testing.T) {
	fsys := fstest.MapFS{
		"eshops/5/eshop.json":       {Data: []byte(eshop)},
		"eshops/5/credentials.json": {Data: []byte(`{"addons":[{"name":"a","clientId":"c","clientSecret":"s","endpoints":[{"endpoint":"GET /api/orders","approved":true},{"endpoint":"GetOrderDetail","approved":false}]}]}`)},
	}
	st, _ := store.Open(store.Options{})
	defer st.Close()
	if _, err := loader(t, fsys).Load(st); err != nil {
		t.Fatal(err)
	}
	_ = st.View(func(tx *store.Tx) error {
		ad, err := auth.GetAddon(tx, 5, "a")
		if err != nil {
			t.Fatal(err)
		}
		want := []auth.EndpointGrant{{Endpoint: "GetListOfOrders", Approved: true}, {Endpoint: "GetOrderDetail", Approved: false, Action: "add"}}
		if !reflect.DeepEqual(ad.Endpoints, want) {
			t.Fatalf("stored add-on endpoints: %+v, want %+v", ad.Endpoints, want)
		}
		return nil
	})
}
