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
			if e.Async {
				t.Errorf("%s: %s is asynchronous (served by the jobs package), not a table row", row.Name, op.Operation)
			}
			vars := []string{op.Var}
			if row.Parent != nil && op.Kind != Action {
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
	} {
		if got := tc.op.SuccessStatus(); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.op.Kind, got, tc.want)
		}
	}
}
