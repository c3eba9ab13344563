package conformance

import "strings"

// wentry is one write endpoint's row of the write-conformance table: how
// to call it (path variables, query, the calls it needs first, the values
// its generated body must take), what it must change (the read-back),
// which events it emits and which change log lists it. Variables are
// shared by the entries of a group, in table order, so a record one
// entry creates is the one the next updates and deletes ({name} in any
// text; {@path} reads the write's answer).
type wentry struct {
	op    string
	vars  map[string]string
	query string
	setup []call
	given map[string]any    // body values by path relative to data
	omit  map[string]string // body paths left out, and why
	body  any               // a whole body given as is (still checked against the request schema)
	lines []any             // a batch file's rows (flat or library shape): sent as a data: URL in batchFileUrlPath
	save  []string          // "name=gjson path" of the answer (or "name=@read:path" of the read-back) kept for later entries

	read     *readBack
	events   []string // "kind instance" the write must emit
	noEvent  string   // why the write emits no event
	log      *logCheck
	noLog    string            // why no change log lists the write
	differ   map[string]string // body paths whose read-back value differs by design, and why
	renamed  map[string]string // sent fields the read-back shows under another name
	status   int               // documented answer other than the success status (see writeRules)
	describe string            // what the read-back shows, when the comparison of fields does not say it
}

// readBack is the GET that must show the write: the record at a gjson
// path of its answer, compared field by field with the body sent (from
// the body path "from", default data); gone says the record must be
// absent (404, or missing from the list).
type readBack struct {
	path    string
	at      string
	from    string
	gone    bool
	asserts []string
}

// logCheck is the change log that must list the write: the "last
// changes" endpoint, the key its items carry, the id and the change type.
type logCheck struct {
	path, key, id, kind string
}

// w starts an entry with path variables as name, value pairs.
func w(op string, kv ...string) *wentry {
	en := &wentry{op: op, vars: map[string]string{}, given: map[string]any{}, omit: map[string]string{}, differ: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		en.vars[kv[i]] = kv[i+1]
	}
	return en
}

// q sets the query string.
func (en *wentry) q(query string) *wentry { en.query = query; return en }

// pre adds a call made before the write (saving answer paths).
func (en *wentry) pre(method, path string, body any, save ...string) *wentry {
	en.setup = append(en.setup, call{method: method, path: path, body: body, save: save})
	return en
}

// list reads ids from a list answer: GET path, saving name=gjson path.
func (en *wentry) list(path string, save ...string) *wentry { return en.pre("GET", path, nil, save...) }

// set gives body values: path (relative to data), JSON value pairs.
func (en *wentry) set(kv ...string) *wentry {
	for i := 0; i+1 < len(kv); i += 2 {
		en.given[kv[i]] = decode(kv[i+1])
	}
	return en
}

// str gives string body values: path, text pairs.
func (en *wentry) str(kv ...string) *wentry {
	for i := 0; i+1 < len(kv); i += 2 {
		en.given[kv[i]] = kv[i+1]
	}
	return en
}

// rawHint is a body value given as JSON text with {var} placeholders,
// decoded after they are filled (a number from a list answer).
type rawHint string

// raw gives body values as JSON text filled from variables: path, text
// pairs ("variants.0.availabilityId", "{avail}").
func (en *wentry) raw(kv ...string) *wentry {
	for i := 0; i+1 < len(kv); i += 2 {
		en.given[kv[i]] = rawHint(kv[i+1])
	}
	return en
}

// unset drops values given earlier (by a shared helper) for paths.
func (en *wentry) unset(paths ...string) *wentry {
	for _, p := range paths {
		delete(en.given, p)
	}
	return en
}

// without leaves body paths out: path, reason pairs.
func (en *wentry) without(kv ...string) *wentry {
	for i := 0; i+1 < len(kv); i += 2 {
		en.omit[kv[i]] = kv[i+1]
	}
	return en
}

// keep saves answer values for later entries of the group.
func (en *wentry) keep(save ...string) *wentry { en.save = append(en.save, save...); return en }

// shows sets the read-back: GET path, the record at gjson path at.
func (en *wentry) shows(path, at string, asserts ...string) *wentry {
	en.read = &readBack{path: path, at: at, asserts: asserts}
	return en
}

// showsFrom compares the record with the body part at from.
func (en *wentry) showsFrom(from, path, at string, asserts ...string) *wentry {
	en.read = &readBack{path: path, at: at, from: from, asserts: asserts}
	return en
}

// gone sets a read-back that must not find the record: 404 for a
// detail, or no record at gjson path at of a list ("" for a detail).
func (en *wentry) gone(path, at string) *wentry {
	en.read = &readBack{path: path, at: at, gone: true}
	return en
}

// emits names the events the write must emit: "kind instance" texts.
func (en *wentry) emits(events ...string) *wentry {
	en.events = append(en.events, events...)
	return en
}

// quiet says why the write emits no event.
func (en *wentry) quiet(why string) *wentry { en.noEvent = why; return en }

// logs names the change log that must list the write.
func (en *wentry) logs(path, key, id, kind string) *wentry {
	en.log = &logCheck{path: path, key: key, id: id, kind: kind}
	return en
}

// unlogged says why no change log lists the write.
func (en *wentry) unlogged(why string) *wentry { en.noLog = why; return en }

// differs accepts a read-back value that differs from the one sent by
// design: path (relative to data), reason pairs.
func (en *wentry) differs(kv ...string) *wentry {
	for i := 0; i+1 < len(kv); i += 2 {
		en.differ[kv[i]] = kv[i+1]
	}
	return en
}

// as says the read-back shows sent fields under other names (the
// reference's request and response name them differently): sent, read
// pairs.
func (en *wentry) as(kv ...string) *wentry {
	if en.renamed == nil {
		en.renamed = map[string]string{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		en.renamed[kv[i]] = kv[i+1]
	}
	return en
}

// whole sends a body given as is (a JSON text).
func (en *wentry) whole(json string) *wentry { en.body = decode(json); return en }

// file sends a batch file with the given rows (JSON texts).
func (en *wentry) file(rows ...string) *wentry {
	for _, r := range rows {
		en.lines = append(en.lines, decode(r))
	}
	return en
}

// answers documents a non-2xx answer the spec requires for the entry's
// precondition (writeRules lists the rule).
func (en *wentry) answers(status int) *wentry { en.status = status; return en }

// says adds a description of what the read-back shows.
func (en *wentry) says(text string) *wentry { en.describe = text; return en }

// groupVars holds a group's variables as its entries run.
type groupVars map[string]string

func (g groupVars) expand(s string) string { return expand(s, g, nil) }

// cut splits "name=path".
func cut(s string) (string, string) {
	name, path, _ := strings.Cut(s, "=")
	return name, path
}
