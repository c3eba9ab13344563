package schemas

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// BaseURL is the $id prefix of every embedded schema file: the file
// "endpoints/CreateOrder.request.json" has $id BaseURL+that path. The host is
// fictitious; the compiler resolves it from FS and never touches the network.
// It must equal gen.BaseURL in cmd/schemagen (checked by the tests).
const BaseURL = "https://sandbox.local/schemas/"

const (
	indexPath = "index.json"
	defsPath  = "defs.json"
)

// Endpoint is one entry of the endpoint catalogue (index.json). It exists so
// that the router, the fixtures and the tests share a single, generated list
// of the 328 operations with their parameters and schema files.
type Endpoint struct {
	Method       string   `json:"method"`       // HTTP method as the reference lists it (PUT endpoints arrive as POST, see the reference README)
	Path         string   `json:"path"`         // route template, e.g. "/api/orders/{code}"
	Operation    string   `json:"operation"`    // unique operation name; the key of Set.Request/Response/SnapshotItem
	Group        string   `json:"group"`        // endpoint group (SDK folder)
	Pageable     bool     `json:"pageable"`     // accepts page/itemsPerPage and returns a paginator
	Async        bool     `json:"async"`        // answers data.jobId and runs as a job
	Snapshot     bool     `json:"snapshot"`     // async job whose result is a gzip JSON Lines file
	ResponseKind string   `json:"responseKind"` // "json", or "raw" for PDF/ISDOC downloads and empty bodies
	PathParams   []string `json:"pathParams"`   // placeholder names in path order
	QueryParams  []string `json:"queryParams"`  // accepted query parameter names
	// RequiredQueryParams are the query parameters the reference marks
	// required (from on the "last changes" endpoints, template and
	// shippingPrice on the coupons' snapshot); the API refuses a call
	// without them.
	RequiredQueryParams []string `json:"requiredQueryParams,omitempty"`
	Request             string   `json:"request"`      // schema file of the request body, "" if the endpoint takes none
	Response            string   `json:"response"`     // schema file of the response body, "" if none (raw responses)
	SnapshotItem        string   `json:"snapshotItem"` // schema file of one result line, "" unless Snapshot
}

// Catalogue is the parsed index.json. It exists so that callers get the
// endpoint list and the closed value lists (webhook events, job statuses)
// from the same generated source as the schemas.
type Catalogue struct {
	Endpoints   []Endpoint `json:"endpoints"`   // in reference order
	Events      []string   `json:"events"`      // every webhook event name
	JobStatuses []string   `json:"jobStatuses"` // pending, running, completed, failed, killed
}

// LoadCatalogue parses the embedded index.json. It exists so that packages
// which only need the endpoint list do not pay for compiling the schemas.
// The embedded index is parsed once per process; every caller gets its own
// copy of the lists, so no caller can change another's.
func LoadCatalogue() (*Catalogue, error) {
	c, err := catalogue()
	if err != nil {
		return nil, err
	}
	out := &Catalogue{Endpoints: slices.Clone(c.Endpoints), Events: slices.Clone(c.Events), JobStatuses: slices.Clone(c.JobStatuses)}
	for i := range out.Endpoints {
		e := &out.Endpoints[i]
		e.PathParams, e.QueryParams = slices.Clone(e.PathParams), slices.Clone(e.QueryParams)
		e.RequiredQueryParams = slices.Clone(e.RequiredQueryParams)
	}
	return out, nil
}

var catalogue = sync.OnceValues(func() (*Catalogue, error) {
	raw, err := FS.ReadFile(indexPath)
	if err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}
	var c Catalogue
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("schemas: parse %s: %w", indexPath, err)
	}
	return &c, nil
})

// Decode reads one JSON value the way the validators expect it: objects as
// map[string]any, arrays as []any and numbers as json.Number (so integers
// beyond 2^53 stay exact and "integer" checks are precise). It exists because
// jsonschema.Schema.Validate only understands these generic values, not
// typed Go structs. Values produced by plain json.Unmarshal into an any
// (numbers as float64) are accepted by Validate as well.
func Decode(r io.Reader) (any, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("schemas: trailing data after the JSON value")
	}
	return v, nil
}

// Set gives access to the compiled schemas. It exists so that the sandbox
// sets validation up once at start-up and then validates requests,
// responses, snapshot lines and fixtures concurrently. All methods are safe
// for concurrent use; the *jsonschema.Schema values they return are
// immutable and may be used from many goroutines.
//
// Compilation is lazy: compiling all 467 files eagerly takes about 300 ms
// (about 55 ms of it for defs.json alone), too slow for sandbox start-up, so
// each file or entity is compiled on first use and cached (sync.Once per
// entry). Call CompileAll to pay the whole cost up front, e.g. in tests or
// in a background goroutine after start-up.
type Set struct {
	// All maps are built by Compile and never modified afterwards, so
	// lookups need no lock; each entry compiles itself at most once.
	files     map[string]*entry // by path in FS
	requests  map[string]*entry // by operation
	responses map[string]*entry
	snapshots map[string]*entry
	defs      func() map[string]*entry // by $defs key, indexed on first use

	mu       sync.Mutex           // serialises use of compiler (not safe for concurrent use)
	compiler *jsonschema.Compiler // shared, so defs.json is compiled only once
}

// entry is one lazily compiled schema.
type entry struct {
	url  string // absolute schema URL, with fragment for $defs entries
	name string // path or entity name, for error messages
	once sync.Once
	sch  *jsonschema.Schema
	err  error
}

func (s *Set) get(e *entry) (*jsonschema.Schema, error) {
	e.once.Do(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		e.sch, e.err = s.compiler.Compile(e.url)
		if e.err != nil {
			e.err = fmt.Errorf("schemas: compile %s: %w", e.name, e.err)
		}
	})
	return e.sch, e.err
}

// mustGet is get for the catalogue accessors, whose signatures have no
// error: a failure means a committed schema file is broken, which the
// package tests (CompileAll over every file) rule out before it can ship.
func (s *Set) mustGet(e *entry) *jsonschema.Schema {
	if e == nil {
		return nil
	}
	sch, err := s.get(e)
	if err != nil {
		panic(err)
	}
	return sch
}

// Compile prepares the schema set: it indexes every embedded schema file
// (all *.json except index.json) and every shared entity of defs.json, and
// maps each catalogue endpoint to its request, response and snapshot-item
// file. It exists so that inconsistencies between the catalogue and the
// embedded files stop the sandbox at start-up; the error names the file.
// The schemas themselves are compiled lazily (see Set), as draft 2020-12
// with format assertions enabled.
//
// Format assertions are on because they cause no false failures: the
// reference uses only "uuid" and "date", each alongside an equivalent
// pattern, plus the generator's "email" on the order creation request;
// beyond the patterns, "date" only rejects impossible dates such as
// 2024-02-30.
func Compile() (*Set, error) {
	cat, err := LoadCatalogue()
	if err != nil {
		return nil, err
	}
	s := &Set{
		files:     map[string]*entry{},
		requests:  map[string]*entry{},
		responses: map[string]*entry{},
		snapshots: map[string]*entry{},
		compiler:  newCompiler(),
	}

	err = fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") && p != indexPath {
			s.files[p] = &entry{url: BaseURL + p, name: p}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}

	for _, e := range cat.Endpoints {
		for _, m := range []struct {
			file string
			dst  map[string]*entry
		}{{e.Request, s.requests}, {e.Response, s.responses}, {e.SnapshotItem, s.snapshots}} {
			if m.file == "" {
				continue
			}
			ent, ok := s.files[m.file]
			if !ok {
				return nil, fmt.Errorf("schemas: %s: %s lists %s, which is not embedded", e.Operation, indexPath, m.file)
			}
			m.dst[e.Operation] = ent
		}
	}

	// defs.json is large and its entities are only needed to check
	// fixture folders: index them on first use, not at every start.
	s.defs = sync.OnceValue(func() map[string]*entry {
		out := map[string]*entry{}
		raw, err := FS.ReadFile(defsPath)
		if err != nil {
			return out
		}
		var defs struct {
			Defs map[string]json.RawMessage `json:"$defs"`
		}
		if json.Unmarshal(raw, &defs) != nil {
			return out // the package tests (CompileAll) rule a broken file out
		}
		for name := range defs.Defs {
			out[name] = &entry{
				url:  BaseURL + defsPath + "#/$defs/" + pointerToken(name),
				name: defsPath + " entity " + name,
			}
		}
		return out
	})
	return s, nil
}

// CompileAll compiles every schema file and every shared entity now instead
// of on first use, returning the first failure (which names the file). It
// exists for the tests, which must prove that every embedded schema
// compiles, and for callers that prefer to pay the compilation cost (about
// 300 ms) up front.
func (s *Set) CompileAll() error {
	for _, m := range []map[string]*entry{s.files, s.defs()} {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if _, err := s.get(m[n]); err != nil {
				return err
			}
		}
	}
	return nil
}

// newCompiler returns a compiler configured for the embedded files: draft
// 2020-12, format assertions on, and URLs under BaseURL loaded from FS.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = loadURL
	return c
}

// loadURL serves BaseURL/<path> from FS and refuses everything else, so a
// stray $ref can never trigger a network fetch.
func loadURL(u string) (io.ReadCloser, error) {
	p, ok := strings.CutPrefix(u, BaseURL)
	if !ok {
		return nil, fmt.Errorf("schemas: refusing to load %s (only %s* is embedded)", u, BaseURL)
	}
	raw, err := FS.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(withBounds(raw))), nil
}

// Request returns the schema of the operation's request body. It exists for
// the request-validation middleware; nil means the endpoint takes no body
// (or the operation is unknown). The first call for an operation compiles
// the schema; it panics only if an embedded file is broken, which the
// package tests rule out.
func (s *Set) Request(operation string) *jsonschema.Schema {
	return s.mustGet(s.requests[operation])
}

// Response returns the schema of the operation's JSON response body. It
// exists so that tests can check every response the sandbox produces; nil
// means the endpoint has no JSON body (raw downloads, empty answers) or the
// operation is unknown. Compiled on first use like Request.
func (s *Set) Response(operation string) *jsonschema.Schema {
	return s.mustGet(s.responses[operation])
}

// SnapshotItem returns the schema of one line of a snapshot endpoint's
// result file. It exists so that generated snapshot files can be checked
// line by line; nil when the operation is not a snapshot endpoint. Compiled
// on first use like Request.
func (s *Set) SnapshotItem(operation string) *jsonschema.Schema {
	return s.mustGet(s.snapshots[operation])
}

// Def returns the schema of one shared entity, "#/$defs/<name>" of
// defs.json, for example Def("Product") or Def("Errors.Item"). It exists to
// validate fixture records before they are served. Each entity is compiled
// on first use and cached.
func (s *Set) Def(name string) (*jsonschema.Schema, error) {
	e, ok := s.defs()[name]
	if !ok {
		return nil, fmt.Errorf("schemas: no entity %q in %s", name, defsPath)
	}
	return s.get(e)
}

// File returns any schema by its path in FS, e.g.
// "oauth/token.request.json", "oauth/token.response.json",
// "oauth/access-token.response.json", "jobs/job.json" or
// "webhooks/payload.json". It exists for the schemas that belong to no
// catalogue endpoint (OAuth handshake, job record, webhook payload).
// Compiled on first use and cached.
func (s *Set) File(path string) (*jsonschema.Schema, error) {
	e, ok := s.files[path]
	if !ok {
		return nil, fmt.Errorf("schemas: no schema file %q", path)
	}
	return s.get(e)
}

// pointerToken escapes a $defs key for use in a URL fragment holding a JSON
// pointer: "~" and "/" per RFC 6901, then URL escaping. Current keys only
// contain letters, digits and ".", which pass through unchanged.
func pointerToken(name string) string {
	name = strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
	return url.PathEscape(name)
}

// DefsDigest identifies the embedded schemas: the SHA-256 of every
// embedded file, in path order. A fixture folder checked against one
// digest is checked again when the schemas change (see seed.StampFile).
var DefsDigest = sync.OnceValue(func() string {
	h := sha256.New()
	_ = fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(FS, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", p, len(raw))
		h.Write(raw)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
})
