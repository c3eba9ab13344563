package conformance

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// report renders what every write endpoint was sent and what was checked.
func report(results map[string]*wresult, eps map[string]schemas.Endpoint) []byte {
	var ops []string
	for op := range eps {
		ops = append(ops, op)
	}
	sort.Slice(ops, func(i, j int) bool {
		a, b := eps[ops[i]], eps[ops[j]]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Method < b.Method
	})
	var b strings.Builder
	b.WriteString("# Write conformance\n\nEvery write endpoint of the reference: what the suite sent and what it checked (`go test ./sandbox/testing/conformance -run TestWriteConformance -writes.report=FILE`).\n")
	for _, op := range ops {
		ep := eps[op]
		fmt.Fprintf(&b, "\n## %s `%s %s`\n\n", op, ep.Method, ep.Path)
		r, ok := results[op]
		if !ok {
			b.WriteString("- not run\n")
			continue
		}
		fmt.Fprintf(&b, "- called `%s %s`\n", r.method, r.path)
		for _, s := range r.sent {
			fmt.Fprintf(&b, "- sent: %s\n", s)
		}
		for _, s := range r.checked {
			fmt.Fprintf(&b, "- checked: %s\n", s)
		}
		for _, s := range r.fail {
			fmt.Fprintf(&b, "- **does not conform**: %s\n", s)
		}
	}
	return []byte(b.String())
}
