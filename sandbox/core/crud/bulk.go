package crud

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

func itoaInt(i int) string { return strconv.Itoa(i) }

// checkBulk refuses a request naming more entities than the endpoint
// allows: 413, nothing changed (spec, Limits).
func checkBulk(row *registry.Resource, n int) error {
	if n > row.BulkMax {
		return sandbox.Errorf(sandbox.KindTooLarge, sandbox.CodeTooManyEntities, "data",
			"The request names %d entities; this endpoint accepts at most %d in one request. Nothing was changed.", n, row.BulkMax)
	}
	if n == 0 {
		return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data", "The request names no entity.")
	}
	return nil
}

// skipped reports a row that a multi-record request skipped.
func skipped(err error, key string, i int) api.ErrorItem {
	e := sandbox.AsError(err)
	item := api.ErrorItemOf(err)
	field := "data"
	if key != "" {
		field += "." + key
	}
	item.Message = fmt.Sprintf("%s[%d] skipped: %s", field, i, e.Message)
	return item
}

// MassInstance is a mass event's identifier: the JSON list of the
// changed entities' identifiers (spec, Events).
func MassInstance(ids []string) string { return massInstance(ids) }

// massInstance is a mass event's identifier: the JSON list of the
// changed entities' identifiers.
func massInstance(ids []string) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// bulkCreate creates every valid entry; invalid ones are skipped and
// reported with 200/201 (spec, Errors rule 2). The mass event, if the
// resource has one, follows the single-entity events (Events rule 5).
func (e *Engine) bulkCreate(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		list, err := BodyList(r, op.Body)
		if err != nil {
			return nil, err
		}
		if err := checkBulk(row, len(list)); err != nil {
			return nil, err
		}
		res := &api.Result{Status: op.SuccessStatus()}
		err = e.Update(r, func(c *Ctx) error {
			res.Errors = nil
			k, err := c.Coll(row)
			if err != nil {
				return err
			}
			ids, shown, err := c.writeRows(res, op, list, func(i int, item any) (map[string]any, string, error) {
				data, _ := item.(map[string]any)
				if data == nil {
					return nil, "", sandbox.Invalid(strconv.Itoa(i), "not an object")
				}
				return c.writeIn(k, op, data)
			})
			if err != nil {
				return err
			}
			if err := k.Flush(); err != nil {
				return err
			}
			if len(ids) > 0 {
				c.Emit(row.Events.MassCreate, massInstance(ids))
			} else {
				res.Status = 200
			}
			res.Data, err = c.bulkAnswer(k, op, shown)
			return err
		})
		if err != nil {
			return nil, err
		}
		return res, nil
	}
}

// writeRows applies write to each entry of a bulk request. An internal
// error aborts the request; any other error skips the entry and reports it
// in res.Errors (spec, Errors rule 2). It returns the ids written and
// their renderings for the answer.
func (c *Ctx) writeRows(res *api.Result, op *registry.Op, list []any, write func(i int, item any) (map[string]any, string, error)) (ids []string, shown []any, err error) {
	for i, item := range list {
		rec, id, err := write(i, item)
		if err != nil {
			if sandbox.AsError(err).Kind == sandbox.KindInternal {
				return nil, nil, err
			}
			res.Errors = append(res.Errors, skipped(err, op.Body, i))
			continue
		}
		ids = append(ids, id)
		m, err := c.Render(rec)
		if err != nil {
			return nil, nil, err
		}
		shown = append(shown, m)
	}
	return ids, shown, nil
}

func (c *Ctx) bulkAnswer(k *Coll, op *registry.Op, shown []any) (any, error) {
	switch op.Answer {
	case registry.AnswerNone:
		return nil, nil
	case registry.AnswerAll, registry.AnswerParent:
		return c.answerWrite(k, op, nil)
	}
	if shown == nil {
		shown = []any{}
	}
	return c.wrap(op, shown), nil
}

// bulkUpdate merges each entry into the record its id names; unknown ids
// are skipped and reported.
func (e *Engine) bulkUpdate(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		list, err := BodyList(r, op.Body)
		if err != nil {
			return nil, err
		}
		if err := checkBulk(row, len(list)); err != nil {
			return nil, err
		}
		res := &api.Result{}
		err = e.Update(r, func(c *Ctx) error {
			res.Errors = nil
			k, err := c.Coll(row)
			if err != nil {
				return err
			}
			ids, shown, err := c.writeRows(res, op, list, func(i int, item any) (map[string]any, string, error) {
				data, _ := item.(map[string]any)
				if idString(data[row.IDField]) == "" {
					return nil, "", sandbox.Invalid(strconv.Itoa(i), "the entry has no %s", row.IDField)
				}
				return c.writeIn(k, op, data)
			})
			if err != nil {
				return err
			}
			if err := k.Flush(); err != nil {
				return err
			}
			if len(ids) > 0 {
				c.Emit(row.Events.MassUpdate, massInstance(ids))
			}
			res.Data, err = c.bulkAnswer(k, op, shown)
			return err
		})
		if err != nil {
			return nil, err
		}
		return res, nil
	}
}

// bulkDelete deletes each record an entry names (an id, or an object
// holding the id); unknown ids are skipped and reported.
func (e *Engine) bulkDelete(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		list, err := BodyList(r, op.Body)
		if err != nil {
			return nil, err
		}
		if err := checkBulk(row, len(list)); err != nil {
			return nil, err
		}
		res := &api.Result{}
		err = e.Update(r, func(c *Ctx) error {
			res.Errors = nil
			k, err := c.Coll(row)
			if err != nil {
				return err
			}
			var ids []string
			for i, item := range list {
				data, ok := item.(map[string]any)
				if !ok {
					data = map[string]any{row.IDField: item}
				}
				_, id, err := c.writeIn(k, op, data)
				if err != nil {
					if sandbox.AsError(err).Kind == sandbox.KindInternal {
						return err
					}
					res.Errors = append(res.Errors, skipped(err, op.Body, i))
					continue
				}
				ids = append(ids, id)
			}
			if err := k.Flush(); err != nil {
				return err
			}
			if len(ids) > 0 {
				c.Emit(row.Events.MassDelete, massInstance(ids))
			}
			res.Data, err = c.bulkAnswer(k, op, nil)
			if op.Answer == registry.AnswerRecord {
				res.Data = nil
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		return res, nil
	}
}
