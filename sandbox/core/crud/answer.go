package crud

import (
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
)

var recordNodes sync.Map // *registry.Resource -> shape.Node

// recordNode is the schema a resource's stored records follow: its
// reference entity, else the record in its detail, update or create
// answer, else its list item.
func (e *Engine) recordNode(row *registry.Resource) shape.Node {
	if n, ok := recordNodes.Load(row); ok {
		return n.(shape.Node)
	}
	n := findRecordNode(row)
	recordNodes.Store(row, n)
	return n
}

// RecordNode exposes a row's record schema to behaviour packages.
func (e *Engine) RecordNode(row *registry.Resource) shape.Node { return e.recordNode(row) }

func findRecordNode(row *registry.Resource) shape.Node {
	if row.Def != "" {
		return shape.Def(row.Def)
	}
	for _, k := range []registry.Kind{registry.Detail, registry.Update, registry.Create} {
		for _, op := range row.Ops {
			if op.Kind != k || op.By != "" || op.Answer != registry.AnswerRecord {
				continue
			}
			n := opNode(op)
			if n.Is("object") {
				return n
			}
		}
	}
	for _, op := range row.Ops {
		if op.Kind == registry.List || op.Answer == registry.AnswerAll {
			if n := opNode(op); n.Is("array") {
				return n.Items()
			}
		}
	}
	return shape.Node{}
}

// opNode is the node of what an op answers under data (data.<Key>).
func opNode(op *registry.Op) shape.Node {
	n := shape.Response(op.Operation)
	if op.Key != "" {
		n = n.Prop(op.Key)
	}
	return n
}

// answerRecord shapes one record as an op's answer, the given field
// paths (include sections not asked for) set to null.
func (c *Ctx) answerRecord(row *registry.Resource, op *registry.Op, rec map[string]any, hide []string) (any, error) {
	shown, err := c.Render(rec)
	if err != nil {
		return nil, err
	}
	HidePaths(shown, hide)
	return c.wrap(op, shown), nil
}

// wrap puts a shown value under the op's key and conforms the whole data
// object to the response schema.
func (c *Ctx) wrap(op *registry.Op, v any) any {
	var data any = v
	if op.Key != "" {
		data = map[string]any{op.Key: v}
	}
	return c.Gen.Conform(data, shape.Response(op.Operation))
}

// answerAll answers a write with the whole list: the collection, or the
// parent's elements (those the op's filters keep, e.g. one gallery).
func (c *Ctx) answerAll(k *Coll, op *registry.Op) (any, error) {
	match, err := registry.Compile(op.Filters, varOrQuery(c.R))
	if err != nil {
		return nil, err
	}
	recs, err := k.All(match)
	if err != nil {
		return nil, err
	}
	items := make([]any, 0, len(recs))
	for _, rec := range recs {
		shown, err := c.Render(rec)
		if err != nil {
			return nil, err
		}
		if k.Row.Item != nil {
			shown = k.Row.Item(shown)
		}
		items = append(items, shown)
	}
	return c.wrap(op, items), nil
}

// answerWrite answers a write per the op's Answer.
func (c *Ctx) answerWrite(k *Coll, op *registry.Op, rec map[string]any) (any, error) {
	switch op.Answer {
	case registry.AnswerNone:
		return nil, nil
	case registry.AnswerAll:
		return c.answerAll(k, op)
	case registry.AnswerParent:
		return c.answerRecord(k.ParentRow, op, k.Parent, nil)
	}
	if rec == nil {
		return nil, nil
	}
	return c.answerRecord(k.Row, op, rec, nil)
}

// result wraps data with the op's success status.
func result(op *registry.Op, data any) any {
	if st := op.SuccessStatus(); st != 200 {
		return &api.Result{Status: st, Data: data}
	}
	return data
}
