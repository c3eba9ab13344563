package gen

import (
	"fmt"
	"strconv"
)

// resolve finds a node of the reference by a JSON-pointer-ish location:
// an RFC 6901 pointer into api.json, except that the token after
// "/endpoints" is the endpoint's operation name instead of its array index
// (indexes shift whenever an endpoint is added; operation names are unique
// and stable). Example:
//
//	/endpoints/CreateOrder/requestBody/properties/data
//	/$defs/OrderCreate.Items.Item/properties/vatRate
func resolve(r *reference, loc string) (any, error) {
	tokens, err := splitPointer(loc)
	if err != nil {
		return nil, err
	}
	var cur any = r.doc
	for i, tok := range tokens {
		if i == 1 && tokens[0] == "endpoints" {
			e, ok := r.byOp[tok]
			if !ok {
				return nil, fmt.Errorf("%s: no endpoint with operation %q", loc, tok)
			}
			cur = e
			continue
		}
		switch t := cur.(type) {
		case map[string]any:
			next, ok := t[tok]
			if !ok {
				return nil, fmt.Errorf("%s: no %q", loc, tok)
			}
			cur = next
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(t) {
				return nil, fmt.Errorf("%s: bad array index %q", loc, tok)
			}
			cur = t[n]
		default:
			return nil, fmt.Errorf("%s: cannot descend into %T at %q", loc, cur, tok)
		}
	}
	return cur, nil
}

// resolveSchema is resolve for locations that must be schema objects.
func resolveSchema(r *reference, loc string) (map[string]any, error) {
	v, err := resolve(r, loc)
	if err != nil {
		return nil, err
	}
	m, ok := asObject(v)
	if !ok {
		return nil, fmt.Errorf("%s: not a schema object", loc)
	}
	return m, nil
}

// replaceAt replaces the node at loc (which must exist and be a member of an
// object) with v.
func replaceAt(r *reference, loc string, v any) error {
	tokens, err := splitPointer(loc)
	if err != nil {
		return err
	}
	if len(tokens) < 2 {
		return fmt.Errorf("%s: cannot replace a top-level node", loc)
	}
	parentLoc := ""
	for _, t := range tokens[:len(tokens)-1] {
		parentLoc += "/" + escapePointerToken(t)
	}
	parent, err := resolveSchema(r, parentLoc)
	if err != nil {
		return err
	}
	last := tokens[len(tokens)-1]
	if _, ok := parent[last]; !ok {
		return fmt.Errorf("%s: no %q", loc, last)
	}
	parent[last] = v
	return nil
}
