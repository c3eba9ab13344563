package seed_test

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/hostile"
)

// FuzzFixtureFiles: whatever eshop.json, a resource file and
// credentials.json hold (the seeds include the hostile inputs: alias
// bomb, deep nesting, invalid UTF-8, a very long line), loading either succeeds or fails with a
// file:line error, never a panic or a half-seeded store.
func FuzzFixtureFiles(f *testing.F) {
	f.Add([]byte(eshop), []byte(`[{"code":"a","title":"A"}]`), []byte(`{"privateTokens":[{"name":"x","token":"sbx_prv_0123456789abcdef","rights":"all"}]}`))
	f.Add([]byte(`{`), []byte(`[`), []byte(`{"addons":[{}]}`))
	f.Add([]byte(`{"languages":[{"code":""}],"currencies":[]}`), []byte(`[{"code":"a:b"}]`), []byte(`{"privateTokens":[{"rights":{"Orders":"x"}}]}`))
	creds := []byte(`{"privateTokens":[{"name":"x","token":"sbx_prv_0123456789abcdef","rights":"all"}]}`)
	for _, in := range hostile.Inputs() {
		f.Add([]byte(eshop), in.Data, creds)
		f.Add(in.Data, []byte(`[]`), in.Data)
	}
	l := loader(f, nil)
	f.Fuzz(func(t *testing.T, eshopJSON, flagsJSON, credsJSON []byte) {
		l.FS = fstest.MapFS{
			"eshops/5/eshop.json":       {Data: eshopJSON},
			"eshops/5/flags.json":       {Data: flagsJSON},
			"eshops/5/credentials.json": {Data: credsJSON},
		}
		st, err := store.Open(store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, err = l.Load(st)
		if err == nil {
			return
		}
		var fe *seed.Error
		if !errors.As(err, &fe) && err.Error() == "" {
			t.Fatalf("unhelpful error %#v", err)
		}
		if seed.Seeded(st) {
			t.Fatal("failed load left the store seeded")
		}
	})
}
