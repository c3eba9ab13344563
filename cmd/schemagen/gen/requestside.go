package gen

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// This file makes the REQUEST schemas accept what the service's official
// client SDK really sends. The reference documents the canonical form of
// every value object, but its README ("Encoding quirks") says the SDK
//
//   - serialises integer value objects (var/spec symbols, consumption tax
//     id; fields marked "x-sdk-request-encoding": "string") as decimal
//     strings: "varSymbol": "123" instead of 123;
//   - serialises a null held by a value object that accepts null (most
//     *Nullable) as the empty string: "dueDate": "" instead of null. The
//     SDK classes do `(string) $value`, and (string) null is "".
//
// Left strict, the sandbox would answer 422 to requests the real SDK sends.
// Unlike the constraint patches (patches.go), which only narrow and apply
// everywhere, these rules WIDEN, so they apply to request bodies only.
// Responses, snapshot lines, webhook payloads and job records keep the
// canonical form: the sandbox must always answer canonically.
//
// Request side vs response side. Endpoint request bodies are inlined per
// endpoint and are rewritten in place. A $defs entity reached from a request
// body that contains (directly or through its own refs) a field to widen is
//   - widened in place when nothing but request bodies reaches it (e.g.
//     OrderCreate), and
//   - otherwise copied to "<Def>@request" (the suffix the reference's
//     conventions reserve for request-side copies); request bodies and other
//     request-side entities then point at the copy, and the original stays
//     strict for responses and for fixture validation (schemas.Set.Def).
//
// Every rewritten field gets a "$comment"; every copy says what it copies.
// Like the patches, the rules fail generation when the reference drifts in
// a way they do not expect (unknown value object, unknown encoding, a
// pattern or numeric bound already on an integer value object, a value
// object that accepts null on a field that does not), instead of silently
// emitting something half right.

// requestSuffix marks a request-side copy of a $defs entity.
const requestSuffix = "@request"

// integerStringPattern is what an integer value object may be sent as.
const integerStringPattern = `^-?[0-9]+$`

const srcEncoding = srcReadme + ` "Encoding quirks"`

// requestEncodings is the rule table, applied in order to every value-object
// field (a schema carrying "x-value-object") of every request-side schema.
// Rule (b) runs after rule (a), so a nullable integer value object, which
// has a string pattern after (a), also accepts "".
var requestEncodings = []requestEncoding{
	{
		name: "integer value object as digit string",
		src:  srcEncoding + " (integer value objects sent as strings); conventions x-sdk-request-encoding",
		applies: func(field, _ map[string]any) bool {
			_, ok := field["x-sdk-request-encoding"]
			return ok
		},
		rewrite: integerAsString,
	},
	{
		name: `null value object as ""`,
		src:  srcEncoding + ` (a null held by a value object that accepts null sent as "")`,
		applies: func(field, vo map[string]any) bool {
			return hasType(vo, "null") && rejectsEmptyString(field)
		},
		rewrite: nullAsEmptyString,
	},
}

// requestEncoding is one row of the table.
type requestEncoding struct {
	name string
	src  string
	// applies decides from the field (as rewritten by the rules before)
	// and its entry in the reference's valueObjects table.
	applies func(field, vo map[string]any) bool
	// rewrite edits the field in place and describes the result.
	rewrite func(field map[string]any) (string, error)
}

// integerAsString turns {"type": "integer"} into {"type": ["integer",
// "string"], "pattern": "^-?[0-9]+$"}: the pattern only constrains strings,
// so integers validate exactly as before.
func integerAsString(field map[string]any) (string, error) {
	if enc, _ := asString(field["x-sdk-request-encoding"]); enc != "string" {
		return "", fmt.Errorf("unknown x-sdk-request-encoding %v", field["x-sdk-request-encoding"])
	}
	types := schemaTypes(field)
	if !hasType(field, "integer") || hasType(field, "string") {
		return "", fmt.Errorf("string-encoded value object of type %v (expected integer)", field["type"])
	}
	// Numeric bounds and value lists would not constrain the string form;
	// none exist today, so stop rather than silently weaken them.
	for _, k := range []string{"pattern", "format", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
		if _, ok := field[k]; ok {
			return "", fmt.Errorf("string-encoded integer value object already has %q; extend integerAsString", k)
		}
	}
	var out []any
	for _, t := range types {
		out = append(out, t)
		if t == "integer" {
			out = append(out, "string")
		}
	}
	field["type"] = out
	field["pattern"] = integerStringPattern
	return fmt.Sprintf("type %v, pattern %q", quoteList(out), integerStringPattern), nil
}

// rejectsEmptyString reports whether a string-accepting field carries a
// keyword that "" can fail.
func rejectsEmptyString(field map[string]any) bool {
	if !hasType(field, "string") {
		return false
	}
	for _, k := range []string{"pattern", "format", "enum", "const"} {
		if _, ok := field[k]; ok {
			return true
		}
	}
	if n, ok := field["minLength"]; ok && fmt.Sprint(n) != "0" {
		return true
	}
	return false
}

// isAnnotation reports whether a keyword stays on the outer schema when a
// field is wrapped in anyOf (it asserts nothing).
func isAnnotation(k string) bool {
	switch k {
	case "deprecated", "description", "title", "default", "examples", "$comment":
		return true
	}
	return strings.HasPrefix(k, "x-")
}

// nullAsEmptyString wraps the field into {"anyOf": [<field>, {"const":
// ""}]}. A pattern alone could be widened to admit "", but a format
// ("date", "uuid") cannot, hence anyOf. The canonical branch comes first
// so that tools following "the first non-null branch" still see it.
func nullAsEmptyString(field map[string]any) (string, error) {
	if !hasType(field, "null") {
		return "", fmt.Errorf("value object accepts null but the field has type %v", field["type"])
	}
	if _, ok := field["anyOf"]; ok {
		return "", fmt.Errorf("field already has anyOf; extend nullAsEmptyString")
	}
	branch := map[string]any{}
	for _, k := range sortedKeys(field) {
		if !isAnnotation(k) {
			branch[k] = field[k]
			delete(field, k)
		}
	}
	field["anyOf"] = []any{branch, map[string]any{"const": ""}}
	return `anyOf [canonical, ""]`, nil
}

// requestSide is the outcome of relaxRequestEncoding, for the summary and
// the tests.
type requestSide struct {
	fields   map[string][]string // rule name -> locations rewritten
	copied   []string            // $defs keys given a "@request" copy
	inPlace  []string            // request-only $defs keys widened in place
	requests int                 // request bodies that changed
}

// relaxRequestEncoding applies requestEncodings to the request side of the
// reference (see the comment at the top of this file).
func relaxRequestEncoding(r *reference, log io.Writer) (*requestSide, error) {
	vos, ok := asObject(r.doc["valueObjects"])
	if !ok {
		return nil, fmt.Errorf("reference: valueObjects is not an object")
	}
	for k := range r.defs {
		if strings.HasSuffix(k, requestSuffix) {
			return nil, fmt.Errorf("reference: $defs already has request-side copy %q; extend relaxRequestEncoding", k)
		}
	}

	// Request roots: every endpoint's request body and the OAuth code
	// exchange. Everything else outside $defs (responses, snapshot lines,
	// job record, webhook payload, ...) counts as "other use". reqLocs holds
	// the roots as plain JSON pointers into api.json (endpoint by index;
	// r.endpoints keeps the array order).
	type root struct {
		loc  string
		node map[string]any
	}
	var roots []root
	reqLocs := map[string]bool{}
	for i, e := range r.endpoints {
		if body, ok := asObject(e["requestBody"]); ok {
			op, _ := asString(e["operation"])
			roots = append(roots, root{"/endpoints/" + op + "/requestBody", body})
			reqLocs[fmt.Sprintf("/endpoints/%d/requestBody", i)] = true
		}
	}
	if body, err := resolveSchema(r, "/oauth/codeExchange/requestBody"); err == nil {
		roots = append(roots, root{"/oauth/codeExchange/requestBody", body})
		reqLocs["/oauth/codeExchange/requestBody"] = true
	}

	// Def graph and reachability.
	edges := map[string][]string{}
	for _, k := range sortedKeys(r.defs) {
		edges[k] = refKeys(r.defs[k])
	}
	reach := func(start []string) map[string]bool {
		seen := map[string]bool{}
		stack := append([]string(nil), start...)
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[k] {
				continue
			}
			seen[k] = true
			stack = append(stack, edges[k]...)
		}
		return seen
	}
	var reqStart []string
	for _, rt := range roots {
		reqStart = append(reqStart, refKeys(rt.node)...)
	}
	reqReach := reach(reqStart)
	var otherStart []string
	collectRefsOutside(r.doc, "", func(loc string) bool { return loc == "/$defs" || reqLocs[loc] }, &otherStart)
	otherReach := reach(otherStart)

	// Which request-side entities need widening: those with a value-object
	// field the rules rewrite, directly or through their refs (fixed point,
	// the graph may have cycles).
	direct := map[string]bool{}
	for k := range reqReach {
		var err error
		if direct[k], err = needsRelaxing(deepCopy(r.defs[k]), vos); err != nil {
			return nil, fmt.Errorf("/$defs/%s: %w", k, err)
		}
	}
	widen := map[string]bool{}
	for k := range direct {
		widen[k] = direct[k]
	}
	for changed := true; changed; {
		changed = false
		for k := range reqReach {
			if widen[k] {
				continue
			}
			for _, t := range edges[k] {
				if widen[t] {
					widen[k], changed = true, true
					break
				}
			}
		}
	}

	res := &requestSide{fields: map[string][]string{}}
	target := map[string]string{} // original key -> request-side key
	for _, k := range sortedKeys(r.defs) {
		if !widen[k] {
			continue
		}
		if otherReach[k] {
			target[k] = k + requestSuffix
			res.copied = append(res.copied, k)
		} else {
			target[k] = k
			res.inPlace = append(res.inPlace, k)
		}
	}

	// Rewrite: copies first (from the untouched originals), then in-place
	// entities, then the request bodies.
	var lines []string
	rewrite := func(loc string, node any) (int, error) {
		n, err := relaxTree(node, loc, vos, target, func(rule, at, what string) {
			res.fields[rule] = append(res.fields[rule], at)
			lines = append(lines, fmt.Sprintf("  %s: %s", at, what))
		})
		return n, err
	}
	for _, k := range res.copied {
		cp, _ := asObject(deepCopy(r.defs[k]))
		cp["$comment"] = fmt.Sprintf("request-side copy of %s: accepts the SDK request encoding (cmd/schemagen/gen/requestside.go); responses use %s", k, k)
		r.defs[target[k]] = cp
	}
	for _, k := range sortedKeys(target) {
		if _, err := rewrite("/$defs/"+escapePointerToken(target[k]), r.defs[target[k]]); err != nil {
			return nil, err
		}
	}
	widenedKeys := map[string]bool{}
	for _, to := range target {
		widenedKeys[to] = true
	}
	for _, rt := range roots {
		n, err := rewrite(rt.loc, rt.node)
		if err != nil {
			return nil, err
		}
		if n > 0 || refersToAny(rt.node, widenedKeys) {
			res.requests++
		}
	}

	total := 0
	for _, rule := range requestEncodings {
		total += len(res.fields[rule.name])
	}
	fmt.Fprintf(log, "request encoding (widened, request side only; %d rewrites):\n", total)
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(log, l)
	}
	for _, rule := range requestEncodings {
		fmt.Fprintf(log, "request encoding: %s: %d fields  [%s]\n", rule.name, len(res.fields[rule.name]), rule.src)
	}
	fmt.Fprintf(log, "request encoding: %d request bodies affected; %d entities copied to <Def>%s %v; %d request-only entities widened in place %v\n",
		res.requests, len(res.copied), requestSuffix, res.copied, len(res.inPlace), res.inPlace)
	return res, nil
}

// needsRelaxing reports whether any rule applies to a field of the tree
// (refs not followed). It works on a scratch copy.
func needsRelaxing(v any, vos map[string]any) (bool, error) {
	n, err := relaxTree(v, "", vos, nil, func(string, string, string) {})
	return n > 0, err
}

// relaxTree applies the rules to every value-object field below v and
// points every $ref at its request-side target. It returns the number of
// fields rewritten.
func relaxTree(v any, loc string, vos map[string]any, target map[string]string, report func(rule, loc, what string)) (int, error) {
	count := 0
	var walk func(v any, loc string) error
	walk = func(v any, loc string) error {
		switch t := v.(type) {
		case map[string]any:
			if ref, ok := asString(t["$ref"]); ok {
				key := unescapePointerToken(strings.TrimPrefix(ref, "#/$defs/"))
				if to, ok := target[key]; ok && to != key {
					t["$ref"] = "#/$defs/" + escapePointerToken(to)
				}
			}
			if name, ok := asString(t["x-value-object"]); ok {
				n, err := relaxField(t, loc, name, vos, report)
				if err != nil {
					return fmt.Errorf("%s: %w", loc, err)
				}
				count += n
				return nil // a value object is a scalar: nothing below it
			}
			for _, k := range sortedKeys(t) {
				if err := walk(t[k], loc+"/"+escapePointerToken(k)); err != nil {
					return err
				}
			}
		case []any:
			for i, x := range t {
				if err := walk(x, fmt.Sprintf("%s/%d", loc, i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk(v, loc)
	return count, err
}

// relaxField applies every matching rule to one value-object field.
func relaxField(field map[string]any, loc, name string, vos map[string]any, report func(rule, loc, what string)) (int, error) {
	vo, ok := asObject(vos[name])
	if !ok {
		return 0, fmt.Errorf("x-value-object %q is not in the reference's valueObjects", name)
	}
	_, fieldEnc := field["x-sdk-request-encoding"]
	_, voEnc := vo["x-sdk-request-encoding"]
	if fieldEnc != voEnc {
		return 0, fmt.Errorf("x-sdk-request-encoding on the field (%v) and on value object %s (%v) disagree", fieldEnc, name, voEnc)
	}
	if hasType(vo, "null") && !hasType(field, "null") {
		return 0, fmt.Errorf("value object %s accepts null but the field has type %v", name, field["type"])
	}
	var did []string
	for _, rule := range requestEncodings {
		if !rule.applies(field, vo) {
			continue
		}
		what, err := rule.rewrite(field)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", rule.name, err)
		}
		did = append(did, rule.name)
		report(rule.name, loc, name+": "+what)
	}
	if len(did) == 0 {
		return 0, nil
	}
	field["$comment"] = "request side: also accepts the SDK encoding (" + strings.Join(did, "; ") + ")"
	return 1, nil
}

// refKeys lists the $defs keys a tree refers to (refs not followed),
// sorted and without duplicates.
func refKeys(v any) []string {
	var out []string
	collectRefsOutside(v, "", func(string) bool { return false }, &out)
	return out
}

// collectRefsOutside appends the $defs keys referred to below v, skipping
// subtrees whose location matches skip; the result is sorted and unique.
func collectRefsOutside(v any, loc string, skip func(loc string) bool, out *[]string) {
	seen := map[string]bool{}
	for _, k := range *out {
		seen[k] = true
	}
	var walk func(v any, loc string)
	walk = func(v any, loc string) {
		if skip(loc) {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			if ref, ok := asString(t["$ref"]); ok && strings.HasPrefix(ref, "#/$defs/") {
				key := unescapePointerToken(strings.TrimPrefix(ref, "#/$defs/"))
				if !seen[key] {
					seen[key] = true
					*out = append(*out, key)
				}
			}
			for k, x := range t {
				walk(x, loc+"/"+escapePointerToken(k))
			}
		case []any:
			for i, x := range t {
				walk(x, fmt.Sprintf("%s/%d", loc, i))
			}
		}
	}
	walk(v, loc)
	sort.Strings(*out)
}

// refersToAny reports whether a tree has a $ref to one of keys.
func refersToAny(v any, keys map[string]bool) bool {
	for _, k := range refKeys(v) {
		if keys[k] {
			return true
		}
	}
	return false
}
