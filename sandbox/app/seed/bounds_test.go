package seed_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/hostile"
)

// TestFixtureBounds: a fixture file holding a hostile input (an alias
// bomb, nesting past the JSON parser's limit, invalid UTF-8, a line of a
// megabyte) stops the load within a second with the file, a line and
// the reason, and leaves the store unseeded; a long line that is a valid
// record loads.
func TestFixtureBounds(t *testing.T) {
	creds := `{"privateTokens":[{"name":"x","token":"sbx_prv_0123456789abcdef","rights":"all"}]}`
	cases := []struct {
		name string
		data []byte
		want string // in the error; "" when the file loads
	}{
		{"alias bomb", hostile.AliasBomb(9, "steps"), "invalid JSON"},
		{"deep nesting", hostile.Nested(20000), "exceeded max depth"},
		{"deep object nesting", hostile.NestedObject(20000), "exceeded max depth"},
		{"invalid UTF-8", []byte("[{\"code\":\"a\",\"title\":\"\xff\xfe\"}]"), "invalid UTF-8"},
		{"a line of a megabyte", []byte(`[{"code":"a","title":"` + strings.Repeat("x", 1<<20) + `"}]`), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := loader(t, fstest.MapFS{
				"eshops/5/eshop.json":       {Data: []byte(eshop)},
				"eshops/5/flags.json":       {Data: c.data},
				"eshops/5/credentials.json": {Data: []byte(creds)},
			})
			st, err := store.Open(store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			// Bounded work is checked by what the load allocates, not by a
			// time, which a loaded machine would break.
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err = l.Load(st)
			runtime.ReadMemStats(&after)
			if mb, limit := (after.TotalAlloc-before.TotalAlloc)>>20, uint64(len(c.data)>>20)*16+64; mb > limit {
				t.Errorf("allocated %d MB loading %d bytes, want at most %d", mb, len(c.data), limit)
			}
			if c.want == "" {
				if err != nil {
					t.Fatalf("a valid file was refused: %v", err)
				}
				return
			}
			var fe *seed.Error
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.want) || fe.Line < 1 || !strings.Contains(fe.File, "flags.json") {
				t.Fatalf("error %v (%#v), want flags.json, a line and %q", err, fe, c.want)
			}
			if seed.Seeded(st) {
				t.Fatal("a refused load left the store seeded")
			}
		})
	}
}

// TestFixtureFileSizeBound: a fixture file larger than the loader's bound
// is refused before it is read, naming the file.
func TestFixtureFileSizeBound(t *testing.T) {
	l := loader(t, fstest.MapFS{
		"eshops/5/eshop.json": {Data: []byte(eshop)},
		"eshops/5/flags.json": {Data: []byte(`[{"code":"a","title":"` + strings.Repeat("x", 2000) + `"}]`)},
	})
	l.MaxFileBytes = 1000
	st, err := store.Open(store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = l.Load(st)
	var fe *seed.Error
	if !errors.As(err, &fe) || !strings.Contains(fe.File, "flags.json") || !strings.Contains(err.Error(), "at most 1000") {
		t.Fatalf("%v", err)
	}
}
