package scenario

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/testing/hostile"
	"github.com/eshop-sandbox/sandbox/scenarios"
)

// FuzzParse feeds scenario parsing arbitrary bytes, seeded with every
// shipped scenario and the hostile inputs (alias bomb, deep nesting,
// invalid UTF-8, a very long line): it never panics, and a refusal is always Problems
// that name a line (the message a user sees).
func FuzzParse(f *testing.F) {
	entries, _ := fs.ReadDir(scenarios.FS, ".")
	for _, e := range entries {
		if raw, err := fs.ReadFile(scenarios.FS, e.Name()); err == nil && !e.IsDir() {
			f.Add(raw)
		}
	}
	f.Add([]byte("name: x\nsteps: [\n"))
	f.Add([]byte("---\n---\n"))
	for _, in := range hostile.Inputs() {
		f.Add(in.Data)
	}
	f.Add(append([]byte("name: laughs\nvariables:\n"), indent(hostile.AliasBomb(9, "lol"))...))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse("fuzz.yaml", data)
		if err == nil {
			if sc == nil {
				t.Fatal("no scenario and no error")
			}
			return
		}
		var ps Problems
		if !errors.As(err, &ps) || len(ps) == 0 {
			t.Fatalf("refusal %v (%T) is not Problems", err, err)
		}
		for _, p := range ps {
			if p.Line < 1 || p.Message == "" {
				t.Fatalf("problem without a line or message: %+v", p)
			}
		}
	})
}

// indent puts two spaces before every line, to nest a YAML document.
func indent(b []byte) []byte {
	out := []byte("  ")
	for i, c := range b {
		out = append(out, c)
		if c == '\n' && i+1 < len(b) {
			out = append(out, ' ', ' ')
		}
	}
	return out
}
