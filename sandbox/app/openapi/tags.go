package openapi

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// license is the documents' license entry. The project has chosen no
// licence yet, so the documents say what that means (all rights
// reserved); change it here when one is chosen.
func license() map[string]any {
	return map[string]any{"name": "Proprietary: no licence granted yet", "identifier": "LicenseRef-Proprietary"}
}

// groupTags describes each endpoint group (the reference's rights
// groups) as a tag: how many endpoints, where they live, which right they
// need.
func groupTags(groups map[string][]schemas.Endpoint) []any {
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	tags := make([]any, 0, len(names))
	for _, g := range names {
		eps := groups[g]
		paths := make([]string, len(eps))
		for i, e := range eps {
			paths[i] = e.Path
		}
		n := "1 endpoint"
		if len(eps) != 1 {
			n = fmt.Sprintf("%d endpoints", len(eps))
		}
		desc := fmt.Sprintf("%s of the %s group, under %s. A private token needs the group's read right for GET "+
			"and its write right for the other methods; an add-on token needs the e-shop's approval of each endpoint.",
			n, g, commonPrefix(paths))
		tags = append(tags, map[string]any{"name": g, "description": desc})
	}
	return tags
}

// commonPrefix is the longest run of whole path segments that every path
// starts with ("/api/orders" for the order endpoints).
func commonPrefix(paths []string) string {
	if len(paths) == 0 {
		return "/"
	}
	prefix := strings.Split(paths[0], "/")
	for _, p := range paths[1:] {
		segs := strings.Split(p, "/")
		n := 0
		for n < len(prefix) && n < len(segs) && prefix[n] == segs[n] {
			n++
		}
		prefix = prefix[:n]
	}
	// A trailing variable ({code}) is no place to live under.
	for len(prefix) > 0 && strings.HasPrefix(prefix[len(prefix)-1], "{") {
		prefix = prefix[:len(prefix)-1]
	}
	out := strings.Join(prefix, "/")
	if out == "" {
		return "/"
	}
	return out
}

// pruneSchemas drops the schema components that nothing in paths or
// responses reaches (the reference's snapshot-line schemas, which describe
// job result files rather than answers).
func pruneSchemas(components map[string]any, roots ...any) {
	used := map[string]bool{}
	var queue []string
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				if s, ok := x.(string); ok && k == "$ref" {
					if name, ok := strings.CutPrefix(s, "#/components/schemas/"); ok && !used[name] {
						used[name] = true
						queue = append(queue, name)
					}
					continue
				}
				walk(x)
			}
		case []any:
			for _, x := range t {
				walk(x)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		walk(components[name])
	}
	for name := range components {
		if !used[name] {
			delete(components, name)
		}
	}
}
