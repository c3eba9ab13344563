package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"go.yaml.in/yaml/v3"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// SchemaFile is the scenario format's JSON Schema inside schemas.FS.
const SchemaFile = "scenario.schema.json"

// Bounds of a scenario file, so a hostile file gets a clear error at
// once instead of a hang: its size, the values it stands for once its
// YAML aliases are expanded (a "billion laughs" file is a few hundred
// bytes that expand into billions of values), and their nesting (the
// YAML parser stops at 10,000 levels, which still costs a location per
// level per value).
const (
	MaxFileBytes = 1 << 20 // a scenario file of more than 1 MiB is refused
	MaxValues    = 100_000 // nor one that expands into more values than this
	MaxDepth     = 64      // nor one nesting values deeper than this
)

// Load reads and checks a scenario file.
func Load(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Problems{{File: path, Message: err.Error()}}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, Problems{{File: path, Message: err.Error()}}
	}
	return Parse(path, data)
}

// Parse checks a scenario in four passes, each only when the previous one
// found nothing: YAML syntax, the JSON Schema (types, names, required
// fields), the Go model with unknown fields refused, and the rules the
// schema cannot say (one action per fault, unique names, ...). Every
// problem carries the file, line and column; the error is a Problems.
func Parse(file string, data []byte) (*Scenario, error) {
	if len(data) > MaxFileBytes {
		return nil, Problems{{File: file, Line: 1, Column: 1, Message: fmt.Sprintf("the file is larger than %d bytes, the most a scenario file may hold", MaxFileBytes)}}
	}
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, Problems{{File: file, Line: 1, Column: 1, Message: "the file is empty; a scenario needs at least a name and steps"}}
		}
		return nil, Problems{syntaxProblem(file, data, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, Problems{{File: file, Line: extra.Line, Column: extra.Column, Message: "a scenario file holds one YAML document; split the others into their own files"}}
	}

	if p, bombed := aliasBomb(file, data, &root); bombed {
		return nil, Problems{p}
	}
	loc := &locator{budget: MaxValues}
	value := loc.toValue(&root, "")
	if loc.budget < 0 {
		return nil, Problems{expansionProblem(file, &root)}
	}
	if loc.deep != nil {
		return nil, Problems{{File: file, Line: loc.deep.Line, Column: loc.deep.Column,
			Message: fmt.Sprintf("values nest deeper than %d levels here; a scenario needs far fewer", MaxDepth)}}
	}
	if ps := validateSchema(file, value, loc); len(ps) > 0 {
		return nil, ps.sorted()
	}

	var sc Scenario
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(&sc); err != nil {
		return nil, decodeProblems(file, err, loc).sorted()
	}
	sc.File, sc.Source = file, data
	sc.vars = collectVars(loc)
	if m, ok := value.(map[string]any); ok {
		if fs, ok := m["faults"].([]any); ok && len(fs) == len(sc.Faults) {
			for i := range sc.Faults {
				sc.Faults[i].def = fs[i]
			}
		}
	}
	if ps := sc.check(loc); len(ps) > 0 {
		for i := range ps {
			ps[i].File = file
		}
		return nil, ps.sorted()
	}
	return &sc, nil
}

var lineRE = regexp.MustCompile(`line (\d+)(?:, column (\d+))?: (.*)$`)

// syntaxProblem positions a YAML syntax error; the parser names only the
// line, so the column is that of the line's first character.
func syntaxProblem(file string, data []byte, err error) Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	m := lineRE.FindStringSubmatch(msg)
	if m == nil {
		return Problem{File: file, Line: 1, Column: 1, Message: "not valid YAML: " + msg}
	}
	line, _ := strconv.Atoi(m[1])
	if parserError(m[3]) {
		// The parser names the line before the block it was reading (a
		// zero-based line number); point at that block instead.
		line++
		return Problem{File: file, Line: line, Column: firstColumn(data, line), Message: "not valid YAML in the block that starts here: " + m[3]}
	}
	return Problem{File: file, Line: line, Column: firstColumn(data, line), Message: "not valid YAML: " + m[3]}
}

// parserError tells the YAML parser's errors (positioned at the start of
// the enclosing block, zero-based) from the scanner's (at the problem).
func parserError(msg string) bool {
	return strings.HasPrefix(msg, "did not find expected") || strings.HasPrefix(msg, "found duplicate %") ||
		msg == "found incompatible YAML document" || msg == "found undefined tag handle"
}

func firstColumn(data []byte, line int) int {
	lines := bytes.Split(data, []byte("\n"))
	if line < 1 || line > len(lines) {
		return 1
	}
	l := lines[line-1]
	return len(l) - len(bytes.TrimLeft(l, " \t")) + 1
}

var (
	schemaOnce sync.Once
	schemaSch  *jsonschema.Schema
	schemaErr  error
)

// Schema returns the compiled scenario schema.
func Schema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		set, err := schemas.Compile()
		if err != nil {
			schemaErr = err
			return
		}
		schemaSch, schemaErr = set.File(SchemaFile)
	})
	return schemaSch, schemaErr
}

var additionalRE = regexp.MustCompile(`additionalProperties '([^']*)' not allowed`)

// validateSchema checks the generic value against the scenario schema and
// turns every failing leaf into a positioned problem.
func validateSchema(file string, value any, loc *locator) Problems {
	sch, err := Schema()
	if err != nil {
		return Problems{{File: file, Message: "the scenario schema does not compile: " + err.Error()}}
	}
	err = sch.Validate(value)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		if err != nil {
			return Problems{{File: file, Message: err.Error()}}
		}
		return nil
	}
	var ps Problems
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		n := loc.node(e.InstanceLocation)
		msg := e.Message
		if m := additionalRE.FindStringSubmatch(msg); m != nil {
			if k := loc.key(e.InstanceLocation, m[1]); k != nil {
				n = k
			}
			msg = fmt.Sprintf("unknown field %q", m[1])
			if known := schemaProperties(e.InstanceLocation, value); len(known) > 0 {
				msg += "; known fields here: " + strings.Join(known, ", ")
			}
		}
		msg = friendlier(e, msg)
		p := Problem{File: file, Message: pathLabel(e.InstanceLocation) + msg}
		if n != nil {
			p.Line, p.Column = n.Line, n.Column
		}
		ps = append(ps, p)
	}
	walk(ve)
	return ps
}

// friendlier rewrites the schema's pattern messages for durations and
// times, which would otherwise show a regular expression.
func friendlier(e *jsonschema.ValidationError, msg string) string {
	switch {
	case strings.HasSuffix(e.AbsoluteKeywordLocation, "/$defs/duration/pattern"):
		return "not a duration; write it like 250ms, 30s, 5m or 3h"
	case strings.HasSuffix(e.AbsoluteKeywordLocation, "/$defs/time/pattern"):
		return "not a date-time; write it like 2025-06-01T09:00:00Z"
	}
	return msg
}

// schemaProperties lists the properties the schema allows for the object
// at a location, found by the Go type the location decodes into.
func schemaProperties(at string, _ any) []string {
	t := typeAt(at)
	if t == nil {
		return nil
	}
	return yamlFields(t)
}

// typeAt finds the Go type that the value at a JSON-pointer location
// decodes into, walking the model by yaml tags.
func typeAt(at string) reflect.Type {
	t := reflect.TypeOf(Scenario{})
	if at == "" {
		return t
	}
	for _, tok := range strings.Split(strings.TrimPrefix(at, "/"), "/") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice:
			if _, err := strconv.Atoi(tok); err != nil {
				return nil
			}
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByTag(t, tok)
			if !ok {
				return nil
			}
			t = f.Type
		default:
			return nil
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	return t
}

func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if strings.Split(f.Tag.Get("yaml"), ",")[0] == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// yamlFields lists the yaml field names of a struct type, sorted.
func yamlFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		name := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// pathLabel renders a JSON-pointer location as faults[0].respond.status
// followed by ": ", or "" for the root.
func pathLabel(at string) string {
	if at == "" {
		return ""
	}
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(at, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteString(".")
		}
		b.WriteString(tok)
	}
	return b.String() + ": "
}

var (
	notFoundRE  = regexp.MustCompile(`^field (\S+) not found in type scenario\.(\w+)$`)
	unmarshalRE = regexp.MustCompile("^cannot unmarshal !!(\\w+) `(.*)` into (.+)$")
)

// decodeProblems turns the strict decoder's errors into positioned,
// readable problems.
func decodeProblems(file string, err error, loc *locator) Problems {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return Problems{{File: file, Line: 1, Column: 1, Message: err.Error()}}
	}
	var ps Problems
	for _, e := range te.Errors {
		m := lineRE.FindStringSubmatch(e)
		if m == nil {
			ps = append(ps, Problem{File: file, Line: 1, Column: 1, Message: e})
			continue
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		msg := m[3]
		key := ""
		if f := notFoundRE.FindStringSubmatch(msg); f != nil {
			key = f[1]
			msg = fmt.Sprintf("unknown field %q", f[1])
			if t, ok := modelTypes[f[2]]; ok {
				msg += "; known fields here: " + strings.Join(yamlFields(t), ", ")
			}
		} else if u := unmarshalRE.FindStringSubmatch(msg); u != nil {
			msg = fmt.Sprintf("expected %s, not %q", goTypeWords(u[3]), u[2])
		}
		if col == 0 {
			col = loc.columnAt(line, key)
		}
		ps = append(ps, Problem{File: file, Line: line, Column: col, Message: msg})
	}
	return ps
}

// modelTypes maps the model's type names (as the YAML decoder prints them)
// to the types, for listing known fields.
var modelTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for _, v := range []any{Scenario{}, ClockSpec{}, LimitsSpec{}, Addon{}, Fault{}, Match{}, Respond{}, ExpireToken{},
		HoldLock{}, JobFault{}, Maintenance{}, WebhookSpec{}, Step{}, InstallStep{}, EmitStep{}, CallStep{}, CallExpect{},
		ExpectRequest{}, ExpectWebhook{}, ExpectBackoff{}, ExpectReport{}} {
		t := reflect.TypeOf(v)
		m[t.Name()] = t
	}
	return m
}()

func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	}
	return "a mapping"
}

// columnAt finds the column of a key on a line (or of the first node that
// starts on it).
func (l *locator) columnAt(line int, key string) int {
	best := 0
	for _, n := range l.keys {
		if n.Line == line && (key == "" || n.Value == key) {
			if best == 0 || n.Column < best {
				best = n.Column
			}
		}
	}
	if best == 0 {
		for _, n := range l.values {
			if n.Line == line && (best == 0 || n.Column < best) {
				best = n.Column
			}
		}
	}
	if best == 0 {
		best = 1
	}
	return best
}
