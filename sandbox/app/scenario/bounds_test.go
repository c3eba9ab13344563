package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/eshop-sandbox/sandbox/sandbox/testing/hostile"
)

// deepYAML nests flow sequences depth levels deep under steps.
func deepYAML(depth int) []byte {
	return append([]byte("name: deep\nsteps: "), append(hostile.Nested(depth), '\n')...)
}

// TestParseBounds: hostile scenario files get a clear, positioned
// problem within a second and a few MB, whatever they hold: an alias
// bomb, nesting past the parser's limit, invalid UTF-8, a line of almost
// a megabyte, a file over the size limit. Each must fail today's
// unbounded parse by running past the second or the memory.
func TestParseBounds(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string // in the first problem's message
		line int
	}{
		{"billion laughs", append([]byte("name: laughs\n"), hostile.AliasBomb(9, "steps")...), "aliases (*name) expand the file", 3},
		{"nesting past the parser's limit", deepYAML(20000), "exceeded max depth", 0},
		{"nesting within the parser's limit", deepYAML(9000), "nest deeper than", 2},
		{"invalid UTF-8", []byte("name: \xff\xfe\nsteps: []\n"), "invalid", 0},
		{"a line of almost a megabyte", []byte("name: " + strings.Repeat("x", MaxFileBytes-64) + "\nsteps: []\n"), "", 0},
		{"more than the size limit", []byte("name: x\nsteps: []\n# " + strings.Repeat("x", MaxFileBytes) + "\n"), "larger than", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			done := make(chan error, 1)
			go func() { _, err := Parse("hostile.yaml", c.data); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute): // a hang, not a speed target (those live in benchmarks)
				t.Fatalf("still parsing after %s", time.Since(start))
			}
			runtime.ReadMemStats(&after)
			allocated := (after.TotalAlloc - before.TotalAlloc) >> 20
			if limit := uint64(len(c.data)>>20)*8 + 32; allocated > limit {
				t.Errorf("allocated %d MB, want at most %d", allocated, limit)
			}
			var ps Problems
			if c.want == "" && err == nil {
				return // a hostile-looking file that is a scenario
			}
			if !errors.As(err, &ps) || len(ps) == 0 {
				t.Fatalf("no problems: %v", err)
			}
			if c.want != "" && !strings.Contains(ps[0].Message, c.want) {
				t.Errorf("problem %q lacks %q", ps[0].Message, c.want)
			}
			if c.line != 0 && ps[0].Line != c.line {
				t.Errorf("problem at line %d, want %d: %v", ps[0].Line, c.line, ps[0])
			}
			if ps[0].Line < 1 {
				t.Errorf("problem without a line: %v", ps[0])
			}
			t.Logf("%d MB: %s", allocated, ps[0])
		})
	}
}

// TestLoadReadsOnlyTheLimit: Load reads no more of a file than the size
// limit allows before refusing it.
func TestLoadReadsOnlyTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, []byte("name: x\n# "+strings.Repeat("x", 3*MaxFileBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	var ps Problems
	if !errors.As(err, &ps) || !strings.Contains(ps[0].Message, "larger than") {
		t.Fatalf("%v", err)
	}
}

// TestValueBudget: the conversion of the YAML tree stops once the file
// stands for more values than its budget, even where the library's own
// alias guard lets the file through.
func TestValueBudget(t *testing.T) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte("a: &x [1, 2, 3, 4]\nb: [*x, *x, *x]\n"), &root); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		budget int
		over   bool
	}{{100, false}, {10, true}}
	for _, c := range cases {
		l := &locator{budget: c.budget}
		l.toValue(&root, "")
		if over := l.budget < 0; over != c.over {
			t.Errorf("budget %d: over %v, want %v", c.budget, over, c.over)
		}
	}
}
