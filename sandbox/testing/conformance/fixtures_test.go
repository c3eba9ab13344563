package conformance

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/fixtures"
)

// fx reads identifiers out of the default fixtures of e-shop 1001, so the
// table names real records without hard-coding them.
type fx struct {
	t     *testing.T
	files map[string][]byte
}

func loadFixtures(t *testing.T) *fx {
	t.Helper()
	f := &fx{t: t, files: map[string][]byte{}}
	entries, err := fs.ReadDir(fixtures.FS, "eshops/1001")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		raw, err := fs.ReadFile(fixtures.FS, "eshops/1001/"+e.Name())
		if err != nil {
			t.Fatal(err)
		}
		f.files[strings.TrimSuffix(e.Name(), ".json")] = raw
	}
	return f
}

// v returns a gjson path of a fixture file ("products", "0.guid",
// "#(type==\"product-set\").guid"); a missing value fails the test, as
// the table would then call nonsense.
func (f *fx) v(file, path string) string {
	f.t.Helper()
	raw, ok := f.files[file]
	if !ok {
		f.t.Fatalf("fixtures: no %s.json", file)
	}
	r := gjson.GetBytes(raw, path)
	if !r.Exists() || r.String() == "" {
		f.t.Fatalf("fixtures: %s.json has nothing at %s", file, path)
	}
	return r.String()
}

// token is e-shop 1001's private token with every right.
func (f *fx) token() string { return f.v("credentials", `privateTokens.#(rights=="all").token`) }

// decode parses a JSON literal for bodies.
func decode(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	return v
}

func mustJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(raw)
}
