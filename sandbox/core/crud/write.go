package crud

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/changelog"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

func (e *Engine) create(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		data, err := BodyObject(r)
		if err != nil {
			return nil, err
		}
		if op.Body != "" {
			inner, ok := data[op.Body].(map[string]any)
			if !ok {
				return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data."+op.Body,
					"Field data.%s: an object with the fields to write is required.", op.Body)
			}
			data = inner
		}
		var out any
		err = e.Update(r, func(c *Ctx) error {
			k, rec, _, err := c.writeOne(row, op, data)
			if err != nil {
				return err
			}
			out, err = c.answerWrite(k, op, rec)
			return err
		})
		if err != nil {
			return nil, err
		}
		return result(op, out), nil
	}
}

// writeOne is one request's write of one record through a create,
// update or delete op: the record's collection opened, the record
// written (writeIn) and the collection flushed. A single request and
// each line of a batch file (LineWriter) go through it. It returns the
// collection, the written record (nil after a delete) and the id the
// write's events name.
func (c *Ctx) writeOne(row *registry.Resource, op *registry.Op, data map[string]any) (*Coll, map[string]any, string, error) {
	k, err := c.Coll(row)
	if err != nil {
		return nil, nil, "", err
	}
	rec, id, err := c.writeIn(k, op, data)
	if err != nil {
		return nil, nil, "", err
	}
	if err := k.Flush(); err != nil {
		return nil, nil, "", err
	}
	return k, rec, c.instance(k, id), nil
}

// writeIn writes one record into an open collection as the op says:
// create it from data; update the record the op's path variable (or
// fixed id, or By field) names, or for an entry of a bulk update the one
// data's id field names; delete it (guards first). It does not flush:
// a bulk request flushes once after all its entries. It returns the
// written record and its id.
func (c *Ctx) writeIn(k *Coll, op *registry.Op, data map[string]any) (map[string]any, string, error) {
	row := k.Row
	switch op.Kind {
	case registry.Create, registry.BulkCreate:
		return c.CreateOne(k, data)
	case registry.Update:
		id := op.Fixed
		if id == "" {
			id = c.R.Var(op.Var)
		}
		if op.By != "" {
			var err error
			if id, err = c.idBy(k, op.By, id); err != nil {
				return nil, "", err
			}
		}
		if op.Fixed != "" {
			c.node = opNode(op)
		}
		return c.updateOne(k, id, data, op.Fixed != "")
	case registry.BulkUpdate:
		id := idString(data[row.IDField])
		if id == "" {
			return nil, "", sandbox.Invalid(row.IDField, "the entry has no %s", row.IDField)
		}
		delete(data, row.IDField)
		return c.updateOne(k, id, data, false)
	case registry.Delete, registry.BulkDelete:
		id := idString(data[row.IDField])
		if op.Kind == registry.Delete {
			id = c.R.Var(op.Var)
			if err := c.guard(k, op, id); err != nil {
				return nil, "", err
			}
		}
		id, err := c.DeleteOne(k, id)
		return nil, id, err
	}
	return nil, "", fmt.Errorf("crud: %s %s writes no single record", row.Name, op.Operation)
}

// CreateOne makes a record from request data, stores it, logs the change
// and emits the create event. A taken id answers 409.
func (c *Ctx) CreateOne(k *Coll, data map[string]any) (map[string]any, string, error) {
	row := k.Row
	idv, err := k.NewID(data)
	if err != nil {
		return nil, "", err
	}
	id := idString(idv)
	if k.Exists(id) {
		return nil, "", sandbox.Conflict(row.IDField, "%s %s %q is already used in this e-shop.", singular(row.Name), row.IDField, id)
	}
	rec, err := c.Apply(k, map[string]any{row.IDField: idv}, data, true)
	if err != nil {
		return nil, "", err
	}
	rec[row.IDField] = idv
	if err := c.secondaryIDs(k, rec); err != nil {
		return nil, "", err
	}
	if err := k.put(id, rec); err != nil {
		return nil, "", err
	}
	if err := c.Changed(k, id, changelog.Add); err != nil {
		return nil, "", err
	}
	c.Emit(row.Events.Create, c.instance(k, id))
	return rec, id, nil
}

// instance is what an event names: the record's id, or for an embedded
// resource whose events are the parent's, the parent's id.
func (c *Ctx) instance(k *Coll, id string) string {
	if k.Row.Parent != nil && k.Row.Parent.Events {
		return k.ParentID
	}
	return id
}

func (e *Engine) update(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		data, err := BodyObject(r)
		if err != nil {
			return nil, err
		}
		var out any
		err = e.Update(r, func(c *Ctx) error {
			k, rec, _, err := c.writeOne(row, op, data)
			if err != nil {
				return err
			}
			out, err = c.answerWrite(k, op, rec)
			return err
		})
		return out, err
	}
}

// UpdateOne merges request data into a stored record (or its translation
// when the request names a language), moves it to a new id when the data
// or the row's Prepare hook changes the id (409 when taken), logs the
// change and emits the update event. With orCreate a missing record (a
// singleton) starts empty.
func (c *Ctx) UpdateOne(k *Coll, id string, data map[string]any, orCreate bool) (map[string]any, error) {
	rec, _, err := c.updateOne(k, id, data, orCreate)
	return rec, err
}

// updateOne is UpdateOne returning the record's id after the write.
func (c *Ctx) updateOne(k *Coll, id string, data map[string]any, orCreate bool) (map[string]any, string, error) {
	row := k.Row
	fid, rec, err := k.Find(id)
	switch {
	case err == nil:
		id = fid
	case orCreate && sandbox.AsError(err).Kind == sandbox.KindNotFound:
		rec = map[string]any{}
	default:
		return nil, "", err
	}
	// An embedded record is an element of its parent's list, changed in
	// place below: its position, taken now, is where a renamed record
	// goes (by then it no longer carries the old id).
	pos := k.position(id)
	newID := id
	var newIDv any
	if v, ok := data[row.IDField]; ok && v != nil && c.Esh.Language == "" && idString(v) != id {
		newID, newIDv = idString(v), v
		if k.Exists(newID) {
			return nil, "", sandbox.Conflict(row.IDField, "%s %s %q is already used in this e-shop.", singular(row.Name), row.IDField, newID)
		}
	}
	if v, ok := data[row.IDField]; ok && v != nil && k.langScoped() {
		// A translated identifier is unique within its language.
		owner, taken, err := k.ownerInLanguage(idString(v))
		if err != nil {
			return nil, "", err
		}
		if taken && owner != id {
			return nil, "", sandbox.Conflict(row.IDField, "%s %s %q is already used in language %q in this e-shop.",
				singular(row.Name), row.IDField, idString(v), c.Esh.Language)
		}
	}
	stored := idString(rec[row.IDField])
	rec, err = c.Apply(k, rec, data, false)
	if err != nil {
		return nil, "", err
	}
	if newIDv != nil {
		rec[row.IDField] = newIDv
	} else if v := idString(rec[row.IDField]); stored == id && v != "" && v != id && c.Esh.Language == "" {
		// The Prepare hook derived a new id (a surcharge parameter's code
		// from its new name).
		newID, newIDv = v, rec[row.IDField]
		if k.Exists(newID) {
			return nil, "", sandbox.Conflict(row.IDField, "%s %s %q is already used in this e-shop.", singular(row.Name), row.IDField, newID)
		}
	}
	switch {
	case newIDv != nil && pos >= 0:
		k.replaceAt(pos, rec)
	case newIDv != nil:
		if err := k.Remove(id); err != nil {
			return nil, "", err
		}
	}
	if newIDv != nil {
		if err := c.Changed(k, id, changelog.Delete); err != nil {
			return nil, "", err
		}
	}
	if newIDv == nil || pos < 0 {
		if err := k.put(newID, rec); err != nil {
			return nil, "", err
		}
	}
	kind := changelog.Edit
	if newIDv != nil {
		kind = changelog.Add
	}
	if err := c.Changed(k, newID, kind); err != nil {
		return nil, "", err
	}
	c.Emit(row.Events.Update, c.instance(k, newID))
	return rec, newID, nil
}

func (e *Engine) delete(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		var out any
		err := e.Update(r, func(c *Ctx) error {
			k, _, _, err := c.writeOne(row, op, nil)
			if err != nil {
				return err
			}
			if op.Answer != registry.AnswerRecord {
				out, err = c.answerWrite(k, op, nil)
			}
			return err
		})
		return out, err
	}
}

// DeleteOne removes a record (404 when unknown), logs the change, runs
// the row's Deleted hook and emits the delete event; it returns the
// canonical id.
func (c *Ctx) DeleteOne(k *Coll, id string) (string, error) {
	id, _, err := k.Find(id)
	if err != nil {
		return "", err
	}
	if err := k.Remove(id); err != nil {
		return "", err
	}
	if err := c.Changed(k, id, changelog.Delete); err != nil {
		return "", err
	}
	if h := c.E.hooks.resource(k.Row.Name).Deleted; h != nil {
		if err := h(c, k, id); err != nil {
			return "", err
		}
	}
	c.Emit(k.Row.Events.Delete, c.instance(k, id))
	return id, nil
}

// deleteAll removes every embedded record of the parent (those the op's
// filters keep, e.g. one image gallery).
func (e *Engine) deleteAll(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		match, err := registry.Compile(op.Filters, varOrQuery(r))
		if err != nil {
			return nil, err
		}
		err = e.Update(r, func(c *Ctx) error {
			k, err := c.Coll(row)
			if err != nil {
				return err
			}
			recs, err := k.All(match)
			if err != nil {
				return err
			}
			for _, rec := range recs {
				if _, err := c.DeleteOne(k, idString(rec[row.IDField])); err != nil {
					return err
				}
			}
			return k.Flush()
		})
		return nil, err
	}
}

// replace answers PUT: the parent's whole set of embedded records becomes
// the list in the body (each entry mapped like a create).
func (e *Engine) replace(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		list, err := BodyList(r, op.Body)
		if err != nil {
			return nil, err
		}
		var out any
		err = e.Update(r, func(c *Ctx) error {
			k, err := c.Coll(row)
			if err != nil {
				return err
			}
			k.SetAll([]any{})
			for i, item := range list {
				data, ok := item.(map[string]any)
				if !ok {
					data = map[string]any{row.IDField: item}
				}
				if _, _, err := c.CreateOne(k, data); err != nil {
					return prefixRow(err, op.Body, i)
				}
			}
			if err := k.Flush(); err != nil {
				return err
			}
			out, err = c.answerWrite(k, op, nil)
			return err
		})
		return out, err
	}
}

// prefixRow names the list entry an error belongs to.
func prefixRow(err error, key string, i int) error {
	e := sandbox.AsError(err)
	if e.Kind == sandbox.KindInternal {
		return err
	}
	field := "data"
	if key != "" {
		field += "." + key
	}
	field += "[" + itoaInt(i) + "]"
	return &sandbox.Error{Kind: e.Kind, Code: e.Code, Instance: e.Instance, Message: field + ": " + e.Message, Err: e.Err}
}

// secondaryIDs gives a new record the identifiers its schema requires
// besides its id: a fresh GUID in an empty guid, the next number in an
// integer id left at zero.
func (c *Ctx) secondaryIDs(k *Coll, rec map[string]any) error {
	node := c.E.recordNode(k.Row)
	if k.Row.IDField != "guid" && node.HasProp("guid") && node.Prop("guid").Is("string") && idString(rec["guid"]) == "" {
		rec["guid"] = c.Gen.UUID()
	}
	if k.Row.IDField != "id" && node.HasProp("id") && node.Prop("id").Is("integer") {
		if v := idString(rec["id"]); v == "" || v == "0" {
			n, err := k.NextNumber("id")
			if err != nil {
				return err
			}
			rec["id"] = json.Number(strconv.FormatInt(n, 10))
		}
	}
	return nil
}

// idBy finds the id of the record whose field (a gjson path, e.g. a
// variant code) holds value; 404 when none does.
func (c *Ctx) idBy(k *Coll, path, value string) (string, error) {
	recs, err := k.All(func(doc []byte) bool { return fieldEquals(doc, path, value) })
	if err != nil {
		return "", err
	}
	if len(recs) == 0 {
		return "", sandbox.NotFound(value, "%s with %s %q does not exist in this e-shop.", singular(k.Row.Name), path, value)
	}
	return idString(recs[0][k.Row.IDField]), nil
}

// guard refuses a delete that would leave other records pointing at the
// record (409), unless the request's query flag allows it.
func (c *Ctx) guard(k *Coll, op *registry.Op, id string) error {
	if len(op.Guards) == 0 {
		return nil
	}
	id, _, err := k.Find(id)
	if err != nil {
		return err
	}
	for _, g := range op.Guards {
		if force, err := c.R.BoolQuery(g.Param); err != nil {
			return err
		} else if force {
			continue
		}
		uk, err := c.CollOf(g.Resource)
		if err != nil {
			return err
		}
		users, err := uk.All(func(doc []byte) bool { return fieldEquals(doc, g.Path, id) })
		if err != nil {
			return err
		}
		if len(users) > 0 {
			return sandbox.Conflict(id, "%s %q is used by %d %s; send %s=true to delete it anyway.",
				singular(k.Row.Name), id, len(users), strings.ReplaceAll(g.Resource, "-", " "), g.Param)
		}
	}
	return nil
}
