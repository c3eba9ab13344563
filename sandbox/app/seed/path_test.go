package seed

import (
	"path/filepath"
	"testing"
)

// TestFixturePathNamesTheFile: a fixture file is named in messages under
// the set's folder with the system's separator (backslashes on Windows,
// where a folder given as C:\data must not become C:\data/eshops/...).
// On Linux the separator is the slash either way: this holds the form,
// and discriminates where the separator differs.
func TestFixturePathNamesTheFile(t *testing.T) {
	sep := string(filepath.Separator)
	cases := []struct{ name, p, want string }{
		{"", "eshops/1001/eshop.json", filepath.Join("eshops", "1001", "eshop.json")},
		{"fixtures", "eshops/1001/eshop.json", filepath.Join("fixtures", "eshops", "1001", "eshop.json")},
		{"data" + sep, "eshops", filepath.Join("data", "eshops")},
		{filepath.Join("a", "b"), "eshops/1002/orders.json", filepath.Join("a", "b", "eshops", "1002", "orders.json")},
	}
	for _, c := range cases {
		if got := (&Loader{Name: c.name}).path(c.p); got != c.want {
			t.Errorf("Loader{Name: %q}.path(%q) = %q, want %q", c.name, c.p, got, c.want)
		}
	}
}
