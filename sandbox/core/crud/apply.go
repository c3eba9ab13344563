package crud

import (
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
)

// BodyObject reads the body of a write, validated against the endpoint's
// request schema (422 naming the field), and returns its data object
// with the SDK's encodings undone.
func BodyObject(r *api.Request) (map[string]any, error) {
	b, err := r.Body()
	if err != nil {
		return nil, err
	}
	data, ok := b["data"].(map[string]any)
	if !ok {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data",
			"Field data: an object with the fields to write is required.")
	}
	shape.Normalize(data, shape.Request(r.Route.Operation))
	api.StripMeta(data)
	return data, nil
}

// BodyList reads a body whose data is a list (key "" ) or holds one
// under key, with the SDK's encodings undone.
func BodyList(r *api.Request, key string) ([]any, error) {
	b, err := r.Body()
	if err != nil {
		return nil, err
	}
	req := shape.Request(r.Route.Operation)
	if key == "" {
		list, ok := b["data"].([]any)
		if !ok {
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data", "Field data: a list of entries is required.")
		}
		list = shape.Normalize(list, req).([]any)
		api.StripMeta(list)
		return list, nil
	}
	data, _ := b["data"].(map[string]any)
	list, ok := data[key].([]any)
	if !ok {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data."+key, "Field data.%s: a list of entries is required.", key)
	}
	list = shape.Normalize(list, req.Resolve().Prop(key)).([]any)
	api.StripMeta(list)
	return list, nil
}

var (
	createdFields = []string{"creationTime", "created", "creationDate", "createdAt"}
	changedFields = []string{"changeTime", "updated", "changeDate", "lastChangeTime"}
)

// Prepare adjusts a record after the generic mapping of request data
// (orig is the request's data as sent), for the fields whose mapping the
// table cannot state. Keyed by row name.
type Prepare func(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error

// Apply writes request data into a record: with a language (PATCH only),
// the translatable texts go into the record's translation; references
// become the embedded objects; renamed fields move; every other field
// the record's schema declares is merged (objects deeply); then the
// row's Prepare hook runs, the timestamps move on and the record is
// completed to its schema.
func (c *Ctx) Apply(k *Coll, rec, data map[string]any, create bool) (map[string]any, error) {
	row := k.Row
	node := c.E.recordNode(row)
	if c.node.Valid() {
		node = c.node
	}
	orig := clone(data).(map[string]any)
	data = clone(data).(map[string]any)
	c.prev = nil
	if !create {
		c.prev = clone(rec).(map[string]any)
	}
	if !create && c.Esh.Language != "" {
		// The texts (a renamed request field under the record's name)
		// go into the translation, and so does the identifier where it
		// is given per language; a null identifier keeps the one there.
		tr := k.translationOf(rec, c.Esh.Language)
		for f, v := range data {
			to := f
			if r, ok := row.Rename[f]; ok {
				to = r
			}
			switch {
			case row.LangID && f == row.IDField:
				if v != nil {
					tr[f] = v
				}
			case row.LangField(to):
				tr[to] = v
			default:
				continue
			}
			delete(data, f)
		}
	}
	for _, ref := range row.Refs {
		v, ok := data[ref.Field]
		if !ok {
			continue
		}
		delete(data, ref.Field)
		val, err := c.resolveRef(ref, v)
		if err != nil {
			return nil, err
		}
		rec[ref.Into] = val
	}
	for from, to := range row.Rename {
		if v, ok := data[from]; ok {
			rec[to] = v
			delete(data, from)
		}
	}
	for f, v := range data {
		if f == row.IDField && !create {
			continue
		}
		// Keys starting with "_" come only from behaviour packages (bodies
		// are stripped of them): sandbox metadata kept with the record.
		if node.HasProp(f) {
			// A text the record cannot hold would be answered as null:
			// refuse it rather than lose it.
			if at, expect, bad := shape.Unfit(v, node.Prop(f)); bad {
				return nil, sandbox.Invalid("data."+f+at, "Field data.%s%s must be %s.", f, at, expect)
			}
		}
		if node.HasProp(f) || !node.Declares() || f == row.IDField || strings.HasPrefix(f, "_") {
			rec[f] = merge(rec[f], v)
		}
	}
	if p := c.E.hooks.resource(row.Name).Prepare; p != nil {
		if err := p(c, k, rec, orig, create); err != nil {
			return nil, err
		}
	}
	now := c.Now()
	if create {
		for _, f := range createdFields {
			if node.HasProp(f) && rec[f] == nil && node.Prop(f).ValueObject() != "TypeDate" {
				rec[f] = now
			}
		}
	}
	for _, f := range changedFields {
		if node.HasProp(f) && (create && rec[f] == nil || !create) {
			rec[f] = now
		}
	}
	return c.Gen.Complete(rec, node).(map[string]any), nil
}

func translation(rec map[string]any, lang string) map[string]any {
	trs, _ := rec["_translations"].(map[string]any)
	if trs == nil {
		trs = map[string]any{}
		rec["_translations"] = trs
	}
	tr, _ := trs[lang].(map[string]any)
	if tr == nil {
		tr = map[string]any{}
		trs[lang] = tr
	}
	return tr
}

// merge is PATCH's merge: objects merge key by key, anything else
// replaces.
func merge(old, v any) any {
	om, ok1 := old.(map[string]any)
	vm, ok2 := v.(map[string]any)
	if !ok1 || !ok2 {
		return v
	}
	for k, x := range vm {
		om[k] = merge(om[k], x)
	}
	return om
}

// Clone deep-copies decoded JSON.
func Clone(v any) any { return clone(v) }

// clone deep-copies decoded JSON.
func clone(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = clone(x)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = clone(x)
		}
		return s
	}
	return v
}

// resolveRef turns referenced ids into the embedded objects the record
// holds. An unknown id answers 404 naming the request field.
func (c *Ctx) resolveRef(ref registry.Ref, v any) (any, error) {
	if v == nil {
		if ref.Many {
			return []any{}, nil
		}
		return nil, nil
	}
	one := func(id any, field string) (any, error) {
		row := c.Row(ref.Resource)
		k, err := c.Coll(row)
		if err != nil {
			return nil, err
		}
		_, target, err := k.Find(idString(id))
		if sandbox.AsError(err).Kind == sandbox.KindNotFound {
			return nil, sandbox.NotFound(field, "Field %s: %s %q does not exist in this e-shop.", field, lowerFirst(singular(row.Name)), idString(id))
		}
		if err != nil {
			return nil, err
		}
		shown, err := c.Render(target)
		if err != nil {
			return nil, err
		}
		if len(ref.Pick) == 0 {
			return shown, nil
		}
		out := make(map[string]any, len(ref.Pick))
		for _, p := range ref.Pick {
			out[p] = shown[p]
		}
		return out, nil
	}
	if !ref.Many {
		return one(v, "data."+ref.Field)
	}
	list, _ := v.([]any)
	out := make([]any, 0, len(list))
	for i, id := range list {
		if m, ok := id.(map[string]any); ok {
			id = m["guid"]
		}
		x, err := one(id, "data."+ref.Field+"["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
