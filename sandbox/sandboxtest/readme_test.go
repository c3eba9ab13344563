package sandboxtest_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestREADMEGoTestIsTestWholeAddon: the Go block of "In Go tests"
// (docs/go-tests.md, linked from the README) is shown, not run; TestWholeAddon runs the same steps. Both call the same
// kit helpers, in the same order, so neither drifts from the other.
func TestREADMEGoTestIsTestWholeAddon(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "go-tests.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "# In Go tests\n")
	if !ok {
		t.Fatal(`docs/go-tests.md is not headed "# In Go tests"`)
	}
	_, block, ok := strings.Cut(section, "```go\n")
	if !ok {
		t.Fatal(`docs/go-tests.md has no Go block`)
	}
	block, _, _ = strings.Cut(block, "```")
	src, err := os.ReadFile("addon_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, test, _ := strings.Cut(string(src), "func TestWholeAddon(")
	test, _, _ = strings.Cut(test, "\n}\n")
	calls := regexp.MustCompile(`\bs\.([A-Z]\w*)\(`)
	names := func(code string) []string {
		var out []string
		for _, m := range calls.FindAllStringSubmatch(code, -1) {
			out = append(out, m[1])
		}
		return out
	}
	if r, w := names(block), names(test); !slices.Equal(r, w) || len(r) < 5 {
		t.Errorf("the Go test of docs/go-tests.md calls %v; TestWholeAddon calls %v", r, w)
	}
}
