package crud

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// Coll is a resource's records as one request sees them: a store
// collection, or, for an embedded resource, the elements of an array in
// the parent record named by the path.
type Coll struct {
	c   *Ctx
	Row *registry.Resource

	// Embedded resources only.
	ParentRow *registry.Resource
	ParentID  string
	Parent    map[string]any
	parent    *Coll
	dirty     bool
	// parentAsked is the parent's id as the request gave it (in the
	// selected language where identifiers are), for messages.
	parentAsked string
}

// Coll opens a row's records; an embedded row's parent must exist (404).
func (c *Ctx) Coll(row *registry.Resource) (*Coll, error) {
	k := &Coll{c: c, Row: row}
	if row.Parent == nil {
		return k, nil
	}
	k.ParentRow = c.Row(row.Parent.Resource)
	pc, err := c.Coll(k.ParentRow)
	if err != nil {
		return nil, err
	}
	k.parent = pc
	k.parentAsked = parentVar(c, row.Parent.Var)
	k.ParentID, k.Parent, err = pc.Find(k.parentAsked)
	return k, err
}

// CollIn opens an embedded row's records inside the parent record with
// the given id (404 when there is none), for writes whose parent is not
// named by the request's path: a batch file's line, or the price rows of
// a deleted product.
func (c *Ctx) CollIn(row *registry.Resource, parentID string) (*Coll, error) {
	if row.Parent == nil {
		return nil, fmt.Errorf("crud: %s is not an embedded resource", row.Name)
	}
	k := &Coll{c: c, Row: row, ParentRow: c.Row(row.Parent.Resource)}
	pc, err := c.Coll(k.ParentRow)
	if err != nil {
		return nil, err
	}
	k.parent = pc
	k.parentAsked = parentID
	k.ParentID, k.Parent, err = pc.Find(parentID)
	return k, err
}

// parentVar reads the parent's id from the first of the path variables
// named ("code|paramIndex": the paths of one resource name it
// differently).
func parentVar(c *Ctx, names string) string {
	for _, n := range strings.Split(names, "|") {
		if v := c.R.Var(n); v != "" {
			return v
		}
	}
	return ""
}

// Elements are an embedded resource's records, in their parent's order.
func (k *Coll) Elements() []any { return k.elements() }

func (k *Coll) elements() []any {
	arr, _ := k.Parent[k.Row.Parent.Field].([]any)
	return arr
}

// Find returns a record by its id (or an Alt field) with its canonical
// id; 404 when there is none. Where identifiers are given in the
// selected language (langid.go), the id is read in that language: a
// translated identifier finds the record and its default one does not.
func (k *Coll) Find(id string) (string, map[string]any, error) {
	if k.Row.Parent != nil {
		for i, el := range k.elements() {
			m, ok := el.(map[string]any)
			if !ok {
				continue
			}
			if k.elemID(i, m) == id || k.altMatch(m, id) {
				return idString(m[k.Row.IDField]), m, nil
			}
		}
		return "", nil, k.notFound(id)
	}
	doc, err := k.c.Tx.Get(k.c.R.Eshop, k.Row.Name, id)
	switch {
	case err == nil && (!k.langScoped() || k.docID(doc) == id):
		m, err := api.DecodeObject(doc)
		return id, m, err
	case err != nil && !errors.Is(err, sandbox.ErrNotFound):
		return "", nil, err
	}
	if len(k.Row.Alt) > 0 || k.langScoped() {
		var found []byte
		var key string
		err := k.c.Tx.Scan(k.c.R.Eshop, k.Row.Name, func(rid string, doc []byte) bool {
			if k.altMatchBytes(doc, id) || (k.langScoped() && k.docID(doc) == id) {
				found, key = doc, rid
				return false
			}
			return true
		})
		if err != nil {
			return "", nil, err
		}
		if found != nil {
			m, err := api.DecodeObject(found)
			return key, m, err
		}
	}
	return "", nil, k.notFound(id)
}

func (k *Coll) notFound(id string) error {
	hint := ""
	if k.langScoped() {
		hint = " in language " + strconv.Quote(k.c.Esh.Language) + " (identifiers are given in the selected language)"
	}
	if k.Row.Parent != nil {
		return sandbox.NotFound(id, "%s %s %q does not exist in %s %q%s.", singular(k.Row.Name), k.Row.IDField, id,
			lowerFirst(singular(k.ParentRow.Name)), k.parentAsked, hint)
	}
	return sandbox.NotFound(id, "%s %s %q does not exist in this e-shop%s.", singular(k.Row.Name), k.Row.IDField, id, hint)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}

func (k *Coll) altMatch(m map[string]any, id string) bool {
	if len(k.Row.Alt) == 0 {
		return false
	}
	raw, _ := json.Marshal(m)
	return k.altMatchBytes(raw, id)
}

func (k *Coll) altMatchBytes(doc []byte, id string) bool {
	for _, path := range k.Row.Alt {
		v := gjson.GetBytes(doc, path)
		if v.IsArray() {
			hit := false
			v.ForEach(func(_, x gjson.Result) bool {
				hit = x.String() == id
				return !hit
			})
			if hit {
				return true
			}
		} else if v.Exists() && v.String() == id {
			return true
		}
	}
	return false
}

// Page returns records passing match (nil keeps all), offset and limit
// applied, with the total that passed.
func (k *Coll) Page(offset, limit int, match registry.Matcher) ([]map[string]any, int, error) {
	if k.Row.Parent == nil {
		docs, total, err := k.c.Tx.Page(k.c.R.Eshop, k.Row.Name, offset, limit, match)
		if err != nil {
			return nil, 0, err
		}
		out := make([]map[string]any, 0, len(docs))
		for _, d := range docs {
			m, err := api.DecodeObject(d)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, m)
		}
		return out, total, nil
	}
	var out []map[string]any
	total := 0
	for _, el := range k.elements() {
		m, ok := el.(map[string]any)
		if !ok {
			continue
		}
		if match != nil {
			raw, _ := json.Marshal(m)
			if !match(raw) {
				continue
			}
		}
		if total >= offset && len(out) < limit {
			out = append(out, m)
		}
		total++
	}
	if out == nil {
		out = []map[string]any{}
	}
	return out, total, nil
}

// All returns every record passing match.
func (k *Coll) All(match registry.Matcher) ([]map[string]any, error) {
	out, _, err := k.Page(0, int(^uint(0)>>1), match)
	return out, err
}

// Exists reports whether a record with the id is stored.
func (k *Coll) Exists(id string) bool {
	if k.Row.Parent == nil {
		return k.c.Tx.Exists(k.c.R.Eshop, k.Row.Name, id)
	}
	for _, el := range k.elements() {
		if m, ok := el.(map[string]any); ok && idString(m[k.Row.IDField]) == id {
			return true
		}
	}
	return false
}

// Save writes a record under its id, replacing one with the same id,
// with its change: a top-level record through the Writer (store write,
// change entry, the row's event); an embedded record into its parent,
// whose Flush logs and announces the parent's change.
func (k *Coll) Save(id string, rec map[string]any, ch Change) error {
	if k.Row.Parent == nil {
		return k.c.W.Save(k.Row.Name, id, rec, ch)
	}
	return k.put(id, rec)
}

// Annotate writes a top-level record whose only change is sandbox
// metadata (see Writer.Annotate).
func (k *Coll) Annotate(id string, rec map[string]any) error {
	if k.Row.Parent != nil {
		return fmt.Errorf("crud: %s is embedded; its parent's flush writes it", k.Row.Name)
	}
	return k.c.W.Annotate(k.Row.Name, id, rec)
}

// put stores a record under its id, replacing one with the same id; the
// caller logs the change and emits the events.
func (k *Coll) put(id string, rec map[string]any) error {
	if k.Row.Parent == nil {
		return k.c.W.put(k.Row.Name, id, rec)
	}
	arr := k.elements()
	for i, el := range arr {
		if m, ok := el.(map[string]any); ok && idString(m[k.Row.IDField]) == id {
			arr[i] = rec
			k.Parent[k.Row.Parent.Field] = arr
			k.dirty = true
			return nil
		}
	}
	k.Parent[k.Row.Parent.Field] = append(arr, rec)
	k.eachTranslation(func(tr []any) []any { return append(tr, nil) })
	k.dirty = true
	return nil
}

// position is the index of an embedded record in its parent's list, -1
// for a top-level resource or an id not there.
func (k *Coll) position(id string) int {
	if k.Row.Parent == nil {
		return -1
	}
	for i, el := range k.elements() {
		if m, ok := el.(map[string]any); ok && idString(m[k.Row.IDField]) == id {
			return i
		}
	}
	return -1
}

// replaceAt puts rec at index i of an embedded resource's list: a record
// renamed by its update keeps its place (and its translations).
func (k *Coll) replaceAt(i int, rec map[string]any) {
	arr := k.elements()
	arr[i] = rec
	k.Parent[k.Row.Parent.Field] = arr
	k.dirty = true
}

// SetAll replaces every element of an embedded resource.
func (k *Coll) SetAll(recs []any) {
	k.Parent[k.Row.Parent.Field] = recs
	k.eachTranslation(func([]any) []any { return nil })
	k.dirty = true
}

// eachTranslation keeps the parent's translations of the elements in
// step with the elements (an overlay applies element by element): fn
// gets each language's list and returns the new one (nil drops it).
func (k *Coll) eachTranslation(fn func([]any) []any) {
	trs, _ := k.Parent["_translations"].(map[string]any)
	for _, t := range trs {
		tr, _ := t.(map[string]any)
		list, ok := tr[k.Row.Parent.Field].([]any)
		if !ok {
			continue
		}
		if out := fn(list); out != nil {
			tr[k.Row.Parent.Field] = out
		} else {
			delete(tr, k.Row.Parent.Field)
		}
	}
}

// Remove deletes a record; 404 when there is none.
func (k *Coll) Remove(id string) error {
	if k.Row.Parent == nil {
		err := k.c.W.remove(k.Row.Name, id)
		if errors.Is(err, sandbox.ErrNotFound) {
			return k.notFound(id)
		}
		return err
	}
	arr := k.elements()
	for i, el := range arr {
		if m, ok := el.(map[string]any); ok && idString(m[k.Row.IDField]) == id {
			k.Parent[k.Row.Parent.Field] = append(append([]any{}, arr[:i]...), arr[i+1:]...)
			k.eachTranslation(func(tr []any) []any {
				if i < len(tr) {
					return append(append([]any{}, tr[:i]...), tr[i+1:]...)
				}
				return tr
			})
			k.dirty = true
			return nil
		}
	}
	return k.notFound(id)
}

// Flush writes an embedded resource's parent back (its change time moved
// on, its change logged and its update event emitted when the row says
// so). Top-level collections write through and need no flush.
func (k *Coll) Flush() error {
	if k.Row.Parent == nil || !k.dirty {
		return nil
	}
	k.dirty = false
	if h := k.c.E.hooks.resource(k.ParentRow.Name).Parent; h != nil {
		h(k.c, k.Parent)
	}
	if k.c.E.recordNode(k.ParentRow).HasProp("changeTime") {
		k.Parent["changeTime"] = k.c.Now()
	}
	if err := k.parent.put(k.ParentID, k.Parent); err != nil {
		return err
	}
	if err := k.parent.Flush(); err != nil {
		return err
	}
	if err := k.c.Changed(k.parent, k.ParentID, "edit"); err != nil {
		return err
	}
	if k.Row.Parent.Events {
		k.c.Emit(k.ParentRow.Events.Update, k.ParentID)
	}
	return nil
}

// NewID gives a new record its identifier: a request field named in
// IDFrom (or the id field itself), the next code of a numbered
// collection's one sequence (its Number hook), the next integer for integer ids, a GUID
// for GUID ids, a slug of SlugFrom, else the next number as a string.
func (k *Coll) NewID(data map[string]any) (any, error) {
	for _, f := range append(append([]string{}, k.Row.IDFrom...), k.Row.IDField) {
		if v, ok := data[f]; ok && v != nil && idString(v) != "" {
			return v, nil
		}
	}
	if k.Row.Numbered {
		return k.c.E.hooks.resource(k.Row.Name).Number(k.c, k) // New checked that every numbered row has one
	}
	idNode := k.c.E.recordNode(k.Row).Prop(k.Row.IDField)
	switch {
	case idNode.Is("integer"):
		n, err := k.nextNumber()
		return json.Number(strconv.FormatInt(n, 10)), err
	case idNode.ValueObject() == "TypeGuid" || idNode.Raw()["format"] == "uuid" || k.Row.IDField == "guid":
		return k.c.Gen.UUID(), nil
	}
	if k.Row.SlugFrom != "" {
		if s, _ := data[k.Row.SlugFrom].(string); sandbox.Slug(s) != "" {
			return sandbox.Slug(s), nil
		}
	}
	n, err := k.nextNumber()
	return strconv.FormatInt(n, 10), err
}

// nextNumber continues the resource's numbering after the largest
// numeric id stored (seeded records included).
func (k *Coll) nextNumber() (int64, error) { return k.NextNumber(k.Row.IDField) }

// NextNumber continues the numbering of an integer field of the
// resource's records (the id, or a secondary id such as a value's id)
// after the largest value stored.
func (k *Coll) NextNumber(field string) (int64, error) {
	tx, eshop := k.c.Tx, k.c.R.Eshop
	return tx.NextAfter(eshop, "id/"+k.Row.Name+"/"+field, func() (int64, error) {
		var max int64
		see := func(v any) {
			if n, err := strconv.ParseInt(idString(v), 10, 64); err == nil && n > max {
				max = n
			}
		}
		if k.Row.Parent == nil {
			err := tx.Scan(eshop, k.Row.Name, func(id string, doc []byte) bool {
				v := gjson.GetBytes(doc, field)
				if v.IsArray() {
					v.ForEach(func(_, x gjson.Result) bool { see(x.String()); return true })
				} else {
					see(v.String())
				}
				return true
			})
			return max, err
		}
		err := tx.Scan(eshop, k.ParentRow.Name, func(_ string, doc []byte) bool {
			gjson.GetBytes(doc, k.Row.Parent.Field+".#."+field).ForEach(func(_, x gjson.Result) bool {
				see(x.String())
				return true
			})
			return true
		})
		return max, err
	})
}

// logName is the change log of the records: the resource's, or for an
// embedded resource the one of its parent record ("mailing-lists/emails/news").
func (k *Coll) logName() string {
	if k.Row.Parent == nil {
		return k.Row.Name
	}
	return k.Row.Name + "/" + k.ParentID
}
