// Package gen turns the wire-format reference (api.json) into the JSON Schema
// files embedded by package schemas. It lives in its own package so that the
// schemas tests can re-run the generation and prove the committed files are
// up to date; cmd/schemagen is only a thin command-line wrapper around Run.
package gen

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

const (
	// BaseURL is the $id prefix of every generated schema file. The host is
	// fictitious: schemas are always served from the embedded FS, never
	// fetched over the network.
	BaseURL = "https://sandbox.local/schemas/"
	// DraftURL is the dialect of every generated schema.
	DraftURL = "https://json-schema.org/draft/2020-12/schema"

	defsFile  = "defs.json"
	indexFile = "index.json"
)

// generatedDirs are the sub-folders of the output directory that the
// generator owns completely: stale *.json files in them are deleted.
var generatedDirs = []string{"endpoints", "oauth", "jobs", "webhooks"}

// IsGenerated reports whether a slash-separated path relative to the output
// directory is a file the generator owns. Other files in the directory (Go
// sources, hand-written schemas such as scenario.schema.json) are left alone.
func IsGenerated(rel string) bool {
	if rel == defsFile || rel == indexFile {
		return true
	}
	for _, d := range generatedDirs {
		if strings.HasPrefix(rel, d+"/") && strings.HasSuffix(rel, ".json") && !strings.Contains(rel[len(d)+1:], "/") {
			return true
		}
	}
	return false
}

// Options configures Run.
type Options struct {
	Reference string    // path of api.json
	Out       string    // output directory (the schemas package folder)
	Log       io.Writer // corrections, patch summary and review notes; nil discards
}

// Output is the complete, in-memory result of one generation.
type Output struct {
	// Files maps slash-separated paths relative to the output directory to
	// their exact bytes.
	Files map[string][]byte
}

// Run generates the schemas from opts.Reference and writes them to opts.Out.
func Run(opts Options) error {
	out, err := Generate(opts.Reference, opts.Log)
	if err != nil {
		return err
	}
	return out.Write(opts.Out, opts.Log)
}

// Generate reads the reference, applies the path/body corrections and the
// constraint patches, widens the request side to the SDK's request encoding
// (requestside.go), and renders every output file. It never touches disk
// apart from reading the reference.
func Generate(reference string, log io.Writer) (*Output, error) {
	if log == nil {
		log = io.Discard
	}
	raw, err := readJSON(reference)
	if err != nil {
		return nil, fmt.Errorf("read reference: %w", err)
	}
	doc, ok := asObject(raw)
	if !ok {
		return nil, errors.New("reference: top level is not an object")
	}
	ref, err := newReference(doc)
	if err != nil {
		return nil, err
	}
	if err := applyCorrections(ref, log); err != nil {
		return nil, err
	}
	if err := checkEndpoints(ref); err != nil {
		return nil, err
	}
	if err := applyPatches(ref, log); err != nil {
		return nil, err
	}
	if err := checkRefs(ref); err != nil {
		return nil, err
	}
	if _, err := relaxRequestEncoding(ref, log); err != nil {
		return nil, err
	}
	if err := checkRefs(ref); err != nil {
		return nil, err
	}
	return render(ref)
}

// reference is the decoded api.json with endpoints indexed by operation.
type reference struct {
	doc       map[string]any
	endpoints []map[string]any
	byOp      map[string]map[string]any
	defs      map[string]any
}

func newReference(doc map[string]any) (*reference, error) {
	r := &reference{doc: doc, byOp: map[string]map[string]any{}}
	eps, ok := asArray(doc["endpoints"])
	if !ok {
		return nil, errors.New("reference: endpoints is not an array")
	}
	for i, e := range eps {
		m, ok := asObject(e)
		if !ok {
			return nil, fmt.Errorf("reference: endpoints[%d] is not an object", i)
		}
		op, _ := asString(m["operation"])
		if !operationRE.MatchString(op) {
			return nil, fmt.Errorf("reference: endpoints[%d]: operation %q is not a plain identifier (it names files)", i, op)
		}
		if _, dup := r.byOp[op]; dup {
			return nil, fmt.Errorf("reference: duplicate operation %q", op)
		}
		r.byOp[op] = m
		r.endpoints = append(r.endpoints, m)
	}
	if r.defs, ok = asObject(doc["$defs"]); !ok {
		return nil, errors.New("reference: $defs is not an object")
	}
	for k := range r.defs {
		// Keys are used verbatim as JSON-pointer tokens and URL fragments.
		// A "." is fine in both; "/" and "~" would need pointer escaping and
		// anything outside this set would need URL escaping. None exist
		// today; fail rather than emit refs that might not resolve.
		if !defKeyRE.MatchString(k) {
			return nil, fmt.Errorf("reference: $defs key %q needs pointer/URL escaping; extend the generator", k)
		}
	}
	return r, nil
}

var (
	operationRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)
	defKeyRE    = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	// pathRE accepts "/api" followed by literal segments (kebab or camel
	// case, both occur in the real API) and {placeholder} segments.
	pathRE        = regexp.MustCompile(`^/api(/([A-Za-z0-9]+(-[A-Za-z0-9]+)*|\{[A-Za-z][A-Za-z0-9]*\}))+$`)
	placeholderRE = regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9]*)\}`)
)

// checkEndpoints fails on any path that still looks broken after the
// corrections, so a new defect in the reference is noticed instead of being
// served as a route.
func checkEndpoints(r *reference) error {
	seen := map[string]string{}
	var problems []string
	for _, e := range r.endpoints {
		op, _ := asString(e["operation"])
		method, _ := asString(e["method"])
		path, _ := asString(e["path"])
		if !pathRE.MatchString(path) {
			problems = append(problems, fmt.Sprintf("%s %s (%s): malformed path; add an entry to pathCorrections", method, path, op))
			continue
		}
		var want []string
		for _, m := range placeholderRE.FindAllStringSubmatch(path, -1) {
			want = append(want, m[1])
		}
		var got []string
		params, _ := asArray(e["pathParams"])
		for _, p := range params {
			pm, _ := asObject(p)
			name, _ := asString(pm["name"])
			got = append(got, name)
		}
		if strings.Join(want, ",") != strings.Join(got, ",") {
			problems = append(problems, fmt.Sprintf("%s %s (%s): placeholders %v but pathParams %v", method, path, op, want, got))
		}
		key := method + " " + path
		if other, dup := seen[key]; dup {
			problems = append(problems, fmt.Sprintf("%s: used by both %s and %s", key, other, op))
		}
		seen[key] = op
	}
	if len(problems) > 0 {
		return fmt.Errorf("reference endpoints:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// checkRefs verifies that every $ref in the reference names an existing
// $defs entry, before any file is rendered.
func checkRefs(r *reference) error {
	var problems []string
	var walk func(v any, where string)
	walk = func(v any, where string) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				if k == "$ref" {
					if _, err := defRefKey(r, x); err != nil {
						problems = append(problems, where+": "+err.Error())
					}
					continue
				}
				walk(x, where+"/"+escapePointerToken(k))
			}
		case []any:
			for i, x := range t {
				walk(x, fmt.Sprintf("%s/%d", where, i))
			}
		}
	}
	walk(r.doc, "")
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("unresolvable $ref:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// defRefKey checks that a $ref value has the form "#/$defs/<key>" with an
// existing key and returns the (still pointer-escaped) token.
func defRefKey(r *reference, v any) (string, error) {
	s, ok := asString(v)
	if !ok {
		return "", errors.New("$ref is not a string")
	}
	const prefix = "#/$defs/"
	if !strings.HasPrefix(s, prefix) {
		return "", fmt.Errorf("$ref %q is not of the form %s<key>", s, prefix)
	}
	token := s[len(prefix):]
	if _, ok := r.defs[unescapePointerToken(token)]; !ok {
		return "", fmt.Errorf("$ref %q names no $defs entry", s)
	}
	return token, nil
}

// rewriteRefs returns a copy of v in which every "#/$defs/X" becomes
// "../defs.json#/$defs/X": files under endpoints/, oauth/, jobs/ and
// webhooks/ have $id .../schemas/<dir>/<file>, so the relative reference
// resolves to https://sandbox.local/schemas/defs.json#/$defs/X.
func rewriteRefs(r *reference, v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			if k == "$ref" {
				token, err := defRefKey(r, x)
				if err != nil {
					return nil, err
				}
				m[k] = "../" + defsFile + "#/$defs/" + token
				continue
			}
			y, err := rewriteRefs(r, x)
			if err != nil {
				return nil, err
			}
			m[k] = y
		}
		return m, nil
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			y, err := rewriteRefs(r, x)
			if err != nil {
				return nil, err
			}
			s[i] = y
		}
		return s, nil
	default:
		return v, nil
	}
}

// schemaFile wraps a body schema into a stand-alone document with $schema
// and $id.
func schemaFile(r *reference, rel string, body any) ([]byte, error) {
	m, ok := asObject(body)
	if !ok {
		return nil, fmt.Errorf("%s: schema is not an object", rel)
	}
	for _, k := range []string{"$schema", "$id"} {
		if _, clash := m[k]; clash {
			return nil, fmt.Errorf("%s: body schema already has %s", rel, k)
		}
	}
	rewritten, err := rewriteRefs(r, m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	out := rewritten.(map[string]any)
	out["$schema"] = DraftURL
	out["$id"] = BaseURL + rel
	return encodeJSON(out)
}

// indexEndpoint is one catalogue entry of index.json; the field order is the
// order of the keys in the file.
type indexEndpoint struct {
	Method       string   `json:"method"`
	Path         string   `json:"path"`
	Operation    string   `json:"operation"`
	Group        string   `json:"group"`
	Pageable     bool     `json:"pageable"`
	Async        bool     `json:"async"`
	Snapshot     bool     `json:"snapshot"`
	ResponseKind string   `json:"responseKind"`
	PathParams   []string `json:"pathParams"`
	QueryParams  []string `json:"queryParams"`
	// RequiredQuery lists the query parameters the reference marks
	// required (omitted when none: 9 endpoints of 328 have any).
	RequiredQuery []string `json:"requiredQueryParams,omitempty"`
	Request       *string  `json:"request"`
	Response      *string  `json:"response"`
	SnapshotItem  *string  `json:"snapshotItem"`
}

type index struct {
	Endpoints    []indexEndpoint `json:"endpoints"`
	Events       []any           `json:"events"`
	JobStatuses  []any           `json:"jobStatuses"`
	ValueObjects any             `json:"valueObjects"`
}

func render(r *reference) (*Output, error) {
	files := map[string][]byte{}
	add := func(rel string, body any) (*string, error) {
		if body == nil {
			return nil, nil
		}
		b, err := schemaFile(r, rel, body)
		if err != nil {
			return nil, err
		}
		if _, dup := files[rel]; dup {
			return nil, fmt.Errorf("%s generated twice", rel)
		}
		files[rel] = b
		return &rel, nil
	}

	// defs.json: the shared entities, refs left as "#/$defs/X".
	defs, err := encodeJSON(map[string]any{
		"$schema": DraftURL,
		"$id":     BaseURL + defsFile,
		"$defs":   r.defs,
	})
	if err != nil {
		return nil, err
	}
	files[defsFile] = defs

	var idx index
	for _, e := range r.endpoints {
		op, _ := asString(e["operation"])
		ie := indexEndpoint{Operation: op, PathParams: []string{}, QueryParams: []string{}}
		var ok bool
		if ie.Method, ok = asString(e["method"]); !ok {
			return nil, fmt.Errorf("%s: method missing", op)
		}
		if ie.Path, ok = asString(e["path"]); !ok {
			return nil, fmt.Errorf("%s: path missing", op)
		}
		if ie.Group, ok = asString(e["group"]); !ok {
			return nil, fmt.Errorf("%s: group missing", op)
		}
		if ie.ResponseKind, ok = asString(e["responseKind"]); !ok {
			return nil, fmt.Errorf("%s: responseKind missing", op)
		}
		if ie.Pageable, ok = asBool(e["pageable"]); !ok {
			return nil, fmt.Errorf("%s: pageable missing", op)
		}
		if ie.Async, ok = asBool(e["async"]); !ok {
			return nil, fmt.Errorf("%s: async missing", op)
		}
		if ie.Snapshot, ok = asBool(e["snapshot"]); !ok {
			return nil, fmt.Errorf("%s: snapshot missing", op)
		}
		for _, list := range []struct {
			key string
			dst *[]string
		}{{"pathParams", &ie.PathParams}, {"queryParams", &ie.QueryParams}} {
			params, _ := asArray(e[list.key])
			for _, p := range params {
				pm, _ := asObject(p)
				name, ok := asString(pm["name"])
				if !ok {
					return nil, fmt.Errorf("%s: %s entry without name", op, list.key)
				}
				*list.dst = append(*list.dst, name)
				if req, _ := asBool(pm["required"]); req && list.key == "queryParams" {
					ie.RequiredQuery = append(ie.RequiredQuery, name)
				}
			}
		}
		if ie.Request, err = add("endpoints/"+op+".request.json", e["requestBody"]); err != nil {
			return nil, err
		}
		if ie.Response, err = add("endpoints/"+op+".response.json", e["responseBody"]); err != nil {
			return nil, err
		}
		if ie.Snapshot != (e["snapshotResultItem"] != nil) {
			return nil, fmt.Errorf("%s: snapshot=%v but snapshotResultItem present=%v", op, ie.Snapshot, e["snapshotResultItem"] != nil)
		}
		if ie.SnapshotItem, err = add("endpoints/"+op+".snapshot-item.json", e["snapshotResultItem"]); err != nil {
			return nil, err
		}
		idx.Endpoints = append(idx.Endpoints, ie)
	}

	for _, f := range []struct{ rel, at string }{
		{"oauth/token.request.json", "/oauth/codeExchange/requestBody"},
		{"oauth/token.response.json", "/oauth/codeExchange/responseBody"},
		{"oauth/access-token.response.json", "/oauth/apiAccessToken/responseBody"},
		{"jobs/job.json", "/jobs/record"},
		{"webhooks/payload.json", "/webhooks/payload"},
	} {
		node, err := resolve(r, f.at)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.rel, err)
		}
		if _, err := add(f.rel, node); err != nil {
			return nil, err
		}
	}

	var ok bool
	if idx.Events, err = lookupArray(r, "/webhooks/events"); err != nil {
		return nil, err
	}
	if idx.JobStatuses, err = lookupArray(r, "/jobs/statuses"); err != nil {
		return nil, err
	}
	if idx.ValueObjects, ok = asObject(r.doc["valueObjects"]); !ok {
		return nil, errors.New("reference: valueObjects is not an object")
	}
	if files[indexFile], err = encodeJSON(idx); err != nil {
		return nil, err
	}
	return &Output{Files: files}, nil
}

func lookupArray(r *reference, at string) ([]any, error) {
	v, err := resolve(r, at)
	if err != nil {
		return nil, err
	}
	a, ok := asArray(v)
	if !ok {
		return nil, fmt.Errorf("reference %s is not an array", at)
	}
	return a, nil
}

// Write stores the files under dir and deletes stale generated files (for
// example the schemas of an endpoint that left the reference). Files the
// generator does not own are never touched.
func (o *Output) Write(dir string, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	names := make([]string, 0, len(o.Files))
	for rel := range o.Files {
		names = append(names, rel)
	}
	sort.Strings(names)
	for _, rel := range names {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, o.Files[rel], 0o644); err != nil {
			return err
		}
	}
	for _, d := range generatedDirs {
		entries, err := os.ReadDir(filepath.Join(dir, d))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, ent := range entries {
			rel := d + "/" + ent.Name()
			if ent.IsDir() || !IsGenerated(rel) {
				continue
			}
			if _, keep := o.Files[rel]; !keep {
				fmt.Fprintf(log, "removed stale %s\n", rel)
				if err := os.Remove(filepath.Join(dir, d, ent.Name())); err != nil {
					return err
				}
			}
		}
	}
	fmt.Fprintf(log, "wrote %d files to %s\n", len(names), dir)
	return nil
}
