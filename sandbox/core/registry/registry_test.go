package registry

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// TestRowsMatchTheCatalogue checks every op of the table against the
// reference catalogue: the operation exists, a path variable the op
// reads is in the path, and no endpoint is bound twice.
func TestRowsMatchTheCatalogue(t *testing.T) {
	reg, err := New(Rows())
	if err != nil {
		t.Fatalf("default rows: %v", err)
	}
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	byOp := map[string]schemas.Endpoint{}
	for _, e := range cat.Endpoints {
		byOp[e.Operation] = e
	}
	for _, row := range reg.Resources() {
		for _, op := range row.Ops {
			e, ok := byOp[op.Operation]
			if !ok {
				t.Errorf("%s: operation %s is not in the reference", row.Name, op.Operation)
				continue
			}
			if e.Async != (op.Kind == Batch) && op.Operation != "OrderBatchInsertion" {
				t.Errorf("%s: %s: asynchronous %v, kind %s (only batches are asynchronous)", row.Name, op.Operation, e.Async, op.Kind)
			}
			vars := []string{op.Var}
			if row.Parent != nil && op.Kind != Action && op.Kind != Batch {
				vars = append(vars, strings.Split(row.Parent.Var, "|")...)
			}
			for _, v := range vars {
				if v != "" && !strings.Contains(e.Path, "{"+v+"}") && !(row.Parent != nil && strings.Contains(row.Parent.Var, v)) {
					t.Errorf("%s %s: path %s has no {%s}", row.Name, op.Operation, e.Path, v)
				}
			}
			if op.Kind == List && op.Paged() != e.Pageable {
				t.Errorf("%s %s: paged=%v but the reference says pageable=%v", row.Name, op.Operation, op.Paged(), e.Pageable)
			}
		}
	}
}

func TestRegistryRejectsBadRows(t *testing.T) {
	tests := []struct {
		name string
		rows []*Resource
		want string
	}{
		{"duplicate name", []*Resource{{Name: "a", IDField: "id"}, {Name: "a", IDField: "id"}}, "defined twice"},
		{"duplicate op", []*Resource{
			{Name: "a", IDField: "id", Ops: []*Op{list("X", "a")}},
			{Name: "b", IDField: "id", Ops: []*Op{detail("X", "id", "")}},
		}, "bound to both"},
		{"no id", []*Resource{{Name: "a"}}, "id field"},
		{"unknown parent", []*Resource{{Name: "a", IDField: "id", Parent: &Parent{Resource: "b"}}}, "parent"},
		{"unknown ref", []*Resource{{Name: "a", IDField: "id", Refs: []Ref{{Field: "x", Resource: "b"}}}}, "reference"},
		{"bulk without max", []*Resource{{Name: "a", IDField: "id", Ops: []*Op{{Operation: "X", Kind: BulkCreate}}}}, "BulkMax"},
		{"bad format", []*Resource{{Name: "a", IDField: "id", Ops: []*Op{download("X", "id", "doc")}}}, "format"},
		{"paging", []*Resource{{Name: "a", IDField: "id", Ops: []*Op{{Operation: "X", Kind: List, PerPage: 50, MaxPerPage: 10}}}}, "PerPage"},
		{"batch of an unknown op", []*Resource{{Name: "a", IDField: "id", Ops: []*Op{batch("B", "X", Update)}}}, `single operation "X" is not an op of the row`},
		{"batch of another row's op", []*Resource{
			{Name: "a", IDField: "id", Ops: []*Op{update("X", "id", "")}},
			{Name: "b", IDField: "id", Ops: []*Op{batch("B", "X", Update)}},
		}, "not an op of the row"},
		{"batch through a list", []*Resource{{Name: "a", IDField: "id", Ops: []*Op{list("X", "a"), batch("B", "X", Update)}}}, "cannot go through a list op"},
		{"batch writing what its single does not", []*Resource{{Name: "a", IDField: "id", Ops: []*Op{del("X", "id"), batch("B", "X", Update)}}}, "the batch says they update"},
		{"batch writing nothing", []*Resource{{Name: "a", IDField: "id", Ops: []*Op{action("X"), batch("B", "X", List)}}}, "create, update or delete"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.rows)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSuccessStatus(t *testing.T) {
	for _, tc := range []struct {
		op   *Op
		want int
	}{
		{create("X", ""), 201},
		{&Op{Kind: BulkCreate}, 201},
		{update("X", "id", ""), 200},
		{del("X", "id"), 200},
		{&Op{Kind: Create, Status: 200}, 200},
		{batch("X", "Y", Update), 202},
	} {
		if got := tc.op.SuccessStatus(); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.op.Kind, got, tc.want)
		}
	}
}

// TestBatchMassEvents: a batch's mass event comes from the row its lines
// are written to (the parent's for a product's images), never from a
// table of its own.
func TestBatchMassEvents(t *testing.T) {
	reg, err := New(Rows())
	if err != nil {
		t.Fatal(err)
	}
	for op, want := range map[string]string{
		"ProductBatchUpdate":                  "product:massUpdate",
		"ProductBatchDelete":                  "product:massDelete",
		"ProductImageBatchDelete":             "product:massUpdate",
		"UpdateProductCategoryBatch":          "category:massUpdate",
		"UpdateCategoryProductsPriorityBatch": "category:massUpdate",
		"CreateBrandBatch":                    "",
		"UpdatePricelistBatch":                "productVariantPrice:massUpdate",
		"OrderBatchInsertion":                 "order:massCreate",
	} {
		_, b, ok := reg.Op(op)
		if !ok || b.Kind != Batch {
			t.Errorf("%s: not a batch row", op)
			continue
		}
		if got := reg.MassEvent(b); got != want {
			t.Errorf("%s: mass event %q, want %q", op, got, want)
		}
	}
}

// TestRowEventsInCatalogue: every event a row names is one the webhook
// catalogue knows; a row naming another fails naming the row.
func TestRowEventsInCatalogue(t *testing.T) {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	reg, err := New(Rows())
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.CheckEvents(cat.Events); err != nil {
		t.Fatalf("the table: %v", err)
	}
	bad, err := New([]*Resource{{Name: "gadgets", IDField: "id", Events: Events{Create: "gadget:create", MassUpdate: "gadget:massUpdated"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.CheckEvents(cat.Events); err == nil || !strings.Contains(err.Error(), "registry row gadgets") || !strings.Contains(err.Error(), "gadget:create") {
		t.Fatalf("unknown event: %v", err)
	}
}
