package sandboxtest_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestREADMEGoTestIsTestWholeAddon: the README's "In Go tests" block is
// shown, not run; TestWholeAddon runs the same steps. Both call the same
// kit helpers, in the same order, so neither drifts from the other.
func TestREADMEGoTestIsTestWholeAddon(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### In Go tests\n")
	if !ok {
		t.Fatal(`README.md has no "### In Go tests" section`)
	}
	_, block, ok := strings.Cut(section, "```go\n")
	if !ok {
		t.Fatal(`the "In Go tests" section has no Go block`)
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
		t.Errorf("the README's Go test calls %v; TestWholeAddon calls %v", r, w)
	}
}
