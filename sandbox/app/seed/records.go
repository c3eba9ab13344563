package seed

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// span is one top-level element of a JSON array: raw[start:end].
type span struct{ start, end int }

// splitArray finds the elements of a top-level JSON array in raw, which
// must already be known to be valid JSON. ok is false when raw is not an
// array.
func splitArray(raw []byte) (spans []span, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) {
			return spans, false
		}
		switch raw[i] {
		case ']':
			return spans, true
		case ',':
			i++
			continue
		}
		start := i
		i = skipValue(raw, i)
		spans = append(spans, span{start, i})
	}
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\n' || raw[i] == '\r' || raw[i] == '\t') {
		i++
	}
	return i
}

// skipValue returns the offset just past the valid JSON value at i.
func skipValue(raw []byte, i int) int {
	switch raw[i] {
	case '{', '[':
		depth := 0
		for i < len(raw) {
			switch raw[i] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			case '"':
				i = skipString(raw, i) - 1
			}
			i++
		}
		return i
	case '"':
		return skipString(raw, i)
	}
	for i < len(raw) && !strings.ContainsRune(",]} \n\r\t", rune(raw[i])) {
		i++
	}
	return i
}

// skipString returns the offset just past the string starting at i.
func skipString(raw []byte, i int) int {
	i++
	for {
		j := bytes.IndexAny(raw[i:], `"\`)
		if j < 0 {
			return len(raw)
		}
		i += j
		if raw[i] == '\\' {
			i += 2
			continue
		}
		return i + 1
	}
}

// splitLines splits a file in the line layout (the generator's: "[", then
// one record per line, each but the last followed by a comma, then "]"),
// which a stamp vouches for. ok is false when the file is not in it.
func splitLines(raw []byte) (spans []span, ok bool) {
	if !bytes.HasPrefix(raw, []byte("[\n")) {
		return nil, false
	}
	i := 2
	comma := true // the previous record line ended with a comma (or there is none)
	for i < len(raw) {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			return nil, false
		}
		line := raw[i : i+j]
		if len(line) == 1 && line[0] == ']' {
			if (comma && len(spans) > 0) || len(bytes.TrimSpace(raw[i+j:])) != 0 {
				return nil, false
			}
			return spans, true
		}
		if !comma || len(line) == 0 {
			return nil, false
		}
		end := i + len(line)
		comma = line[len(line)-1] == ','
		if comma {
			end--
		}
		if end <= i || raw[i] != '{' || raw[end-1] != '}' {
			return nil, false
		}
		spans = append(spans, span{i, end})
		i += j + 1
	}
	return nil, false
}

// parallel runs fn over [0, n) in contiguous chunks on every CPU.
func parallel(n int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < 256 || workers == 1 {
		fn(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, min(n, lo+chunk))
	}
	wg.Wait()
}

// readRecords splits a collection file into its records and checks each:
// an object, with a usable identifier, unique, and (when validating) in
// the reference's shape. A trusted file (one a stamp vouches for) skips
// the checks that the stamp's validation already made.
func (l *Loader) readRecords(file string, raw []byte, row *registry.Resource, trusted *stampFile) ([]record, error) {
	var spans []span
	ok := false
	if trusted != nil && trusted.Layout == layoutLines {
		spans, ok = splitLines(raw)
	}
	byLine := ok
	if !ok {
		if spans, ok = splitArray(raw); !ok {
			return nil, &Error{File: l.path(file), Line: 1, Reason: "must be a JSON array of " + row.Name + " records"}
		}
	}
	var sch *jsonschema.Schema
	if row.Def != "" && l.Schemas != nil && l.Validate && trusted == nil {
		var err error
		if sch, err = l.Schemas.Def(row.Def); err != nil {
			return nil, &Error{File: l.path(file), Reason: fmt.Sprintf("schema %s: %v", row.Def, err)}
		}
	}
	out := make([]record, len(spans))
	problems := make([]*Error, len(spans)) // by record; the first one is reported
	parallel(len(spans), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sp := spans[i]
			rm := raw[sp.start:sp.end]
			if rm[0] != '{' {
				problems[i] = &Error{Reason: fmt.Sprintf("record %d is not a JSON object", i+1)}
				continue
			}
			idv := gjson.GetBytes(rm, row.IDField)
			id := idv.String()
			if !idv.Exists() || id == "" || (idv.Type != gjson.String && idv.Type != gjson.Number) {
				problems[i] = &Error{Reason: fmt.Sprintf("record %d has no %q (the identifier of %s)", i+1, row.IDField, row.Name)}
				continue
			}
			if strings.ContainsAny(id, ":*?") {
				problems[i] = &Error{Reason: fmt.Sprintf("record %d: identifier %q must not contain ':', '*' or '?'", i+1, id)}
				continue
			}
			if sch != nil {
				v, _ := api.DecodeObject(rm)
				api.StripMeta(v)
				if err := sch.Validate(v); err != nil {
					msg, ptr := describe(err)
					p := &Error{Line: -1, Reason: fmt.Sprintf("%s %q does not match the reference's %s: %s", row.IDField, id, row.Def, msg)}
					if off := offsetOf(rm, ptr); off >= 0 {
						p.Line = lineAt(raw, sp.start+off)
					}
					problems[i] = p
					continue
				}
			}
			meta := (trusted == nil || trusted.Meta) && hasMeta(rm)
			if meta {
				rm = store.StripMeta(rm)
			}
			out[i] = record{id: id, raw: rm, meta: meta}
		}
	})
	seen := make(map[string]int, len(spans))
	lines := lineCounter{raw: raw, line: 1}
	for i, sp := range spans {
		var line int
		if byLine {
			line = i + 2 // "[" is line 1
		} else {
			line = lines.at(sp.start)
		}
		if p := problems[i]; p != nil {
			p.File = l.path(file)
			if p.Line <= 0 {
				p.Line = line
			}
			return nil, p
		}
		if prev, dup := seen[out[i].id]; dup {
			return nil, &Error{File: l.path(file), Line: line, Reason: fmt.Sprintf("duplicate %s %q (first at line %d)", row.IDField, out[i].id, prev)}
		}
		seen[out[i].id] = line
		out[i].line = line
	}
	return out, nil
}

// hasMeta tells whether a record carries one of the store's own fields,
// which the store sets itself.
func hasMeta(rec []byte) bool {
	return bytes.Contains(rec, []byte(`"_seq"`)) || bytes.Contains(rec, []byte(`"_expiresAt"`))
}
