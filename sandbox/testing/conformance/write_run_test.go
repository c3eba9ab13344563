package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// write runs one entry and returns what it sent and checked: its setup
// calls, the write itself, the answer, the job it queued, the read-back,
// the events and the change log.
func (c *client) write(en *wentry, ep schemas.Endpoint, vars groupVars, rec *recorder, rs *rawSchemas, reg *registry.Registry, shop shopValues) *wresult {
	r := &wresult{op: en.op, method: ep.Method}
	if !c.setup(en, vars, r) {
		return r
	}
	path, ok := r.target(en, ep, vars)
	if !ok {
		return r
	}
	body, why := c.body(en, ep, vars, rs, shop, r)
	if why != "" {
		r.bad("%s", why)
		return r
	}
	r.consistency(en, ep, reg)

	var before any
	if en.read != nil && !en.read.gone && en.read.path != "" && isUpdate(ep) {
		if a, err := c.do(http.MethodGet, vars.expand(en.read.path), nil); err == nil && a.status == 200 {
			before = decodeAny(a.get(vars.expand(en.read.at)).Raw)
		}
	}
	var logBefore int
	if en.log != nil {
		n, err := c.logCount(en.log, vars, nil, vars["from"])
		if err != nil {
			r.bad("change log before the write: %v", err)
			return r
		}
		logBefore = n
	}
	mark := rec.mark()

	a, err := c.do(ep.Method, path, body)
	if err != nil {
		r.bad("%v", err)
		return r
	}
	if !c.answer(en, ep, a, rs, reg, vars, r) {
		return r
	}
	if jobID := a.get("data.jobId").String(); jobID != "" {
		j, err := c.follow(jobID)
		if err != nil {
			r.bad("%v", err)
			return r
		}
		r.check("job %s completed: %s", jobID, j.Get("log").String())
		if ok, seen := rec.await(mark, "job:finished", jobID); !ok {
			r.bad("no job:finished event for job %s (%s)", jobID, seen)
		} else {
			r.check("event job:finished %s", jobID)
		}
	}
	c.readBack(en, vars, a, before, body, r)
	r.events(en, rec, mark, vars, a)
	c.changeLog(en, vars, a, logBefore, r)
	return r
}

// setup makes the entry's calls before the write, keeping what they
// save in the group's variables.
func (c *client) setup(en *wentry, vars groupVars, r *wresult) bool {
	for _, sc := range en.setup {
		a, err := c.do(sc.method, vars.expand(sc.path), expandBody(sc.body, vars))
		if err != nil || a.status >= 300 {
			r.bad("setup %s %s: %v %v", sc.method, vars.expand(sc.path), err, a)
			return false
		}
		for _, sv := range sc.save {
			name, path := cut(sv)
			v := a.get(vars.expand(path))
			if !v.Exists() || v.String() == "" {
				r.bad("setup %s %s: nothing at %s", sc.method, vars.expand(sc.path), path)
				return false
			}
			vars[name] = v.String()
		}
	}
	return true
}

// target fills the endpoint's path variables and query.
func (r *wresult) target(en *wentry, ep schemas.Endpoint, vars groupVars) (string, bool) {
	for k, v := range en.vars {
		vars[k] = vars.expand(v)
	}
	path := ep.Path
	for _, p := range ep.PathParams {
		v, ok := vars[p]
		if !ok {
			r.bad("the table gives no value for {%s}", p)
			return "", false
		}
		path = strings.Replace(path, "{"+p+"}", url.PathEscape(v), 1)
	}
	if en.query != "" {
		path += "?" + vars.expand(en.query)
	}
	r.path = path
	return path, true
}

// answer checks the write's answer: the documented status, the response
// schema, every declared property, no errors; then keeps what the entry
// saves from it.
func (c *client) answer(en *wentry, ep schemas.Endpoint, a *answer, rs *rawSchemas, reg *registry.Registry, vars groupVars, r *wresult) bool {
	want := documentedStatus(reg, ep)
	if en.op == "OrderBatchInsertion" {
		want = http.StatusAccepted // not flagged async by the reference, but a batch like the others (README, statuses)
	}
	if en.status != 0 {
		rule, ok := writeRules[en.op]
		if !ok {
			r.bad("the entry documents status %d, but writeRules gives no rule for it", en.status)
			return false
		}
		want = en.status
		r.check("status %d, the documented answer: %s", want, rule)
	}
	if a.status != want {
		r.bad("status %d, want %d: %s", a.status, want, a)
		return false
	}
	r.check("status %d", a.status)
	if ep.Response != "" && len(a.body) > 0 && a.body[0] == '{' {
		if why := c.schemaError(a); why != "" {
			r.bad("%s", why)
		} else {
			r.check("answer valid against %s", ep.Response)
		}
		if miss := rs.missingProps(rs.files[ep.Response], decodeAny(string(a.body)), "", 0); len(miss) > 0 {
			r.bad("the answer leaves out declared properties: %s", strings.Join(miss, ", "))
		} else {
			r.check("every property the response schema declares is present")
		}
		if errs := a.get("errors"); errs.IsArray() && len(errs.Array()) > 0 {
			r.bad("a valid write answered errors: %s", errs.Raw)
		}
	}
	for _, sv := range en.save {
		name, p := cut(sv)
		if strings.HasPrefix(p, "@read:") {
			continue
		}
		v := a.get(vars.expand(p))
		if !v.Exists() || v.String() == "" {
			r.bad("the answer has nothing at %s to keep as {%s}: %s", p, name, a)
			return false
		}
		vars[name] = v.String()
	}
	return true
}

// events checks that the write emitted the entry's events, or records
// why it emits none.
func (r *wresult) events(en *wentry, rec *recorder, mark int, vars groupVars, a *answer) {
	for _, ev := range en.events {
		kind, inst, _ := strings.Cut(ev, " ")
		inst = expand(inst, vars, a)
		if ok, seen := rec.await(mark, kind, inst); !ok {
			r.bad("event %s %s was not emitted (%s)", kind, inst, seen)
		} else {
			r.check("event %s %s", kind, inst)
		}
	}
	if len(en.events) == 0 {
		if en.noEvent == "" {
			r.bad("the entry names no event and does not say why none")
		} else {
			r.check("no event: %s", en.noEvent)
		}
	}
}

// changeLog checks that the entry's change log lists the write (one more
// item of its id and change type than before it), or records why none
// does.
func (c *client) changeLog(en *wentry, vars groupVars, a *answer, before int, r *wresult) {
	switch {
	case en.log != nil:
		n, err := c.logCount(en.log, vars, a, vars["from"])
		switch {
		case err != nil:
			r.bad("change log: %v", err)
		case n <= before:
			r.bad("the change log %s does not list %s %s", expand(en.log.path, vars, a), en.log.kind, expand(en.log.id, vars, a))
		default:
			r.check("change log %s lists %s %s", expand(en.log.path, vars, a), en.log.kind, expand(en.log.id, vars, a))
		}
	case en.noLog != "":
		r.check("no change log: %s", en.noLog)
	default:
		r.bad("the entry names no change log and does not say why none")
	}
}

// isUpdate says whether a write changes a record that exists before it
// (the read-back then proves the fields changed).
func isUpdate(ep schemas.Endpoint) bool {
	return ep.Method == http.MethodPatch || ep.Method == http.MethodPut
}

// body builds the request body of an entry; why is set when it cannot.
func (c *client) body(en *wentry, ep schemas.Endpoint, vars groupVars, rs *rawSchemas, shop shopValues, r *wresult) (any, string) {
	given := map[string]any{}
	for k, v := range en.given {
		if h, ok := v.(rawHint); ok {
			given[k] = decodeAny(vars.expand(string(h)))
			continue
		}
		given[k] = decodeAny(vars.expand(mustJSON(v)))
	}
	if len(en.lines) > 0 {
		var file bytes.Buffer
		for _, l := range en.lines {
			file.WriteString(vars.expand(mustJSON(l)))
			file.WriteByte('\n')
		}
		given["batchFileUrlPath"] = "data:application/x-ndjson;base64," + base64.StdEncoding.EncodeToString(file.Bytes())
		r.sent = append(r.sent, "batch file rows: "+strings.TrimSpace(strings.ReplaceAll(file.String(), "\n", " | ")))
	}
	var body any
	switch {
	case en.body != nil:
		body = decodeAny(vars.expand(mustJSON(en.body)))
		r.sent = append(r.sent, "body: "+mustJSON(body))
	case ep.Request != "":
		g := &bodyGen{rs: rs, op: en.op, given: given, omit: en.omit, shop: shop, update: isUpdate(ep)}
		body = g.build(rs.files[ep.Request])
		if u := g.unused(); len(u) > 0 {
			return nil, "the table gives values the request schema has no place for: " + strings.Join(u, ", ")
		}
		r.sent = append(r.sent, "body: "+mustJSON(body), g.describe())
	default:
		r.sent = append(r.sent, "no body (the reference declares none)")
	}
	if body == nil {
		return nil, ""
	}
	if sch := c.s.App.Schemas.Request(en.op); sch != nil {
		v, err := schemas.Decode(strings.NewReader(mustJSON(body)))
		if err != nil {
			return nil, "the body built is not JSON: " + err.Error()
		}
		if err := sch.Validate(v); err != nil {
			return nil, "the body built does not match the request schema: " + err.Error()
		}
		r.check("the body sent is valid against %s", ep.Request)
	}
	return body, ""
}

// readBack reads the change back and compares it with what was sent.
func (c *client) readBack(en *wentry, vars groupVars, a *answer, before, body any, r *wresult) {
	rb := en.read
	if rb == nil {
		r.bad("the table has no read-back for this write")
		return
	}
	path := expand(rb.path, vars, a)
	fa, err := c.do(http.MethodGet, path, nil)
	if err != nil {
		r.bad("read-back: %v", err)
		return
	}
	at := expand(rb.at, vars, a)
	if rb.gone {
		switch {
		case at == "" && fa.status == 404:
			r.check("read-back GET %s: 404, the record is gone", path)
			r.readBack = true
		case at != "" && fa.status == 200 && !fa.get(at).Exists():
			r.check("read-back GET %s: no %s, the record is gone", path, at)
			r.readBack = true
		default:
			r.bad("read-back GET %s: %d, the deleted record is still there: %s", path, fa.status, fa)
		}
		return
	}
	if fa.status != 200 {
		r.bad("read-back GET %s: %s", path, fa)
		return
	}
	if why := c.schemaError(fa); why != "" {
		r.bad("read-back: %s", why)
	}
	rec := fa.get(at)
	if !rec.Exists() {
		r.bad("read-back GET %s: nothing at %s: %s", path, at, fa)
		return
	}
	for _, sv := range en.save {
		name, p := cut(sv)
		if p, ok := strings.CutPrefix(p, "@read:"); ok {
			if v := fa.get(expand(p, vars, a)); v.Exists() && v.String() != "" {
				vars[name] = v.String()
			} else {
				r.bad("the read-back has nothing at %s to keep as {%s}", p, name)
			}
		}
	}
	for _, as := range rb.asserts {
		if why := assert(fa.body, expand(as, vars, a)); why != "" {
			r.bad("read-back GET %s: %s", path, why)
			return
		}
		r.check("read-back GET %s: %s", path, expand(as, vars, a))
	}
	sent := any(nil)
	if m, ok := body.(map[string]any); ok {
		sent = m["data"]
		if rb.from != "" {
			sent = decodeAny(gjson.Get(mustJSON(body), rb.from).Raw)
		}
	}
	if n, ok := strings.CutPrefix(rb.from, "line:"); ok {
		sent = batchRow(en.lines, n, vars)
	}
	if m, ok := sent.(map[string]any); ok && len(en.renamed) > 0 {
		c := map[string]any{}
		for k, v := range m {
			if to, ok := en.renamed[k]; ok {
				k = to
			}
			c[k] = v
		}
		sent = c
		for from, to := range en.renamed {
			r.check("read back under another name by design: %s as %s", from, to)
		}
	}
	var cmp comparison
	if sent != nil {
		compare(sent, decodeAny(rec.Raw), before, "", &cmp)
	}
	differ, accepted := filterDiffer(cmp.differ, en.differ)
	if len(differ) > 0 {
		r.bad("read-back GET %s shows other values than sent: %s", path, strings.Join(differ, "; "))
	}
	if len(cmp.equal) > 0 {
		r.check("read-back GET %s: %d fields as sent (%s)", path, len(cmp.equal), strings.Join(cmp.equal, ", "))
	}
	if len(accepted) > 0 {
		r.check("read back otherwise, for the reason given: %s", strings.Join(accepted, ", "))
	}
	if len(cmp.absent) > 0 {
		r.check("not shown by the read-back: %s", strings.Join(cmp.absent, ", "))
	}
	if en.describe != "" {
		r.check("read-back: %s", en.describe)
	}
	switch {
	case len(cmp.equal) == 0 && len(rb.asserts) == 0:
		r.bad("read-back GET %s shows nothing of the write", path)
		return
	case before != nil && len(cmp.changed) == 0 && len(rb.asserts) == 0:
		r.bad("read-back GET %s: no field the write sent differs from before it", path)
		return
	case before != nil:
		r.check("fields changed by the write: %s", strings.Join(cmp.changed, ", "))
	}
	r.readBack = true
}

// consistency checks the entry against the registry: a generic write of
// a row with events must expect them, and one of a row with a change
// log must check it.
func (r *wresult) consistency(en *wentry, ep schemas.Endpoint, reg *registry.Registry) {
	row, op, ok := reg.Op(ep.Operation)
	if !ok {
		return
	}
	var kinds []string
	ev := row.Events
	owner := row
	if row.Parent != nil && row.Parent.Events {
		if p, ok := reg.Resource(row.Parent.Resource); ok {
			ev = p.Events
			owner = p
		}
	}
	switch op.Kind {
	case registry.Create, registry.BulkCreate:
		kinds = append(kinds, ev.Create)
		if row.Parent != nil && row.Parent.Events {
			kinds = []string{ev.Update}
		}
	case registry.Update, registry.BulkUpdate, registry.Replace:
		kinds = append(kinds, ev.Update)
	case registry.Delete, registry.BulkDelete, registry.DeleteAll:
		kinds = append(kinds, ev.Delete)
		if row.Parent != nil && row.Parent.Events {
			kinds = []string{ev.Update}
		}
	}
	for _, k := range kinds {
		if k == "" {
			continue
		}
		found := false
		for _, e := range en.events {
			if strings.HasPrefix(e, k+" ") {
				found = true
			}
		}
		if !found {
			r.bad("the registry row %s emits %s on this write; the entry does not expect it", owner.Name, k)
		}
	}
	logged := row.ChangeKey != ""
	if row.Parent != nil {
		if p, ok := reg.Resource(row.Parent.Resource); ok && p.ChangeKey != "" {
			logged = true
		}
	}
	switch op.Kind {
	case registry.Create, registry.Update, registry.Delete, registry.BulkCreate, registry.BulkUpdate, registry.BulkDelete, registry.Replace, registry.DeleteAll:
		if logged && en.log == nil {
			r.bad("the registry row %s keeps a change log; the entry does not check it", row.Name)
		}
	}
}

// decodeAny parses JSON keeping numbers exact; "" gives nil.
func decodeAny(s string) any {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
}

// batchRow is the flat row of a batch file's line n (1-based): a library
// row's data (its first entry, for a list) with the fields beside it.
func batchRow(lines []any, n string, vars groupVars) any {
	i, err := strconv.Atoi(n)
	if err != nil || i < 1 || i > len(lines) {
		return nil
	}
	line, _ := decodeAny(vars.expand(mustJSON(lines[i-1]))).(map[string]any)
	data, wrapped := line["data"]
	if !wrapped {
		return line
	}
	if list, ok := data.([]any); ok && len(list) > 0 {
		data = list[0]
	}
	row, _ := data.(map[string]any)
	if row == nil {
		return nil
	}
	for k, v := range line {
		if k != "data" && k != "settings" {
			row[k] = v
		}
	}
	return row
}
