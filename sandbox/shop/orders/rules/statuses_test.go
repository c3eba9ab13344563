package rules

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

const statusDoc = `{"defaultStatus":-1,"statuses":[
	{"id":-1,"name":"New","changeOrderItems":false},
	{"id":-4,"name":"Canceled","changeOrderItems":true,"_role":"canceled"},
	{"id":-5,"name":"Paid","changeOrderItems":false,"markAsPaid":true},
	{"id":1,"name":"Awaiting stock","changeOrderItems":true}]}`

// TestStatusAssignment is the spec's status-assignment table, row by row.
func TestStatusAssignment(t *testing.T) {
	s, err := ParseStatuses([]byte(statusDoc))
	if err != nil {
		t.Fatal(err)
	}
	own := 1
	tests := []struct {
		name       string
		order      int
		orderGiven bool
		item       *int
		want       int
	}{
		{"order omitted, item with its own status keeps it", -1, false, &own, 1},
		{"order omitted, item without status gets the default", -1, false, nil, -1},
		{"changeOrderItems true, item with its own status keeps it", -4, true, &own, 1},
		{"changeOrderItems true, item without status gets the order's", -4, true, nil, -4},
		{"changeOrderItems false, item with its own status keeps it", -5, true, &own, 1},
		{"changeOrderItems false, item without status gets the default", -5, true, nil, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			order, ok := s.Find(tc.order)
			if !ok {
				t.Fatalf("no status %d", tc.order)
			}
			if got := s.ItemStatus(order, tc.orderGiven, tc.item); got != tc.want {
				t.Errorf("item status %d, want %d", got, tc.want)
			}
		})
	}
	if _, err := s.Get(7, "data.statusId"); err == nil {
		t.Error("unknown status accepted")
	}
	if c, ok := s.Canceled(); !ok || c.ID != -4 {
		t.Errorf("canceled status %v", c)
	}
	r := s.Results()
	if r[ResultPaid] != -5 || r[ResultCanceled] != -4 || r[ResultPending] != -1 || r[ResultFailed] != -1 {
		t.Errorf("default result map %v", r)
	}
}

// TestStockEvents is the table of the beta stock events: the sum of a
// variant over all stocks before and after a movement.
func TestStockEvents(t *testing.T) {
	tests := []struct {
		before, after string
		min           *string
		want          string
	}{
		{"5", "4", nil, ""},
		{"5", "0", nil, EventSoldOut},
		{"1", "-2", nil, EventSoldOut},
		{"0", "-1", nil, ""},
		{"0", "3", nil, EventInStock},
		{"-2", "1", nil, EventInStock},
		{"5", "2", ptr("2"), EventMinSupply},
		{"3", "0", ptr("2"), EventSoldOut + "," + EventMinSupply},
		{"2", "1", ptr("2"), ""},
		{"1", "3", ptr("2"), ""},
		{"0", "3", ptr("2"), EventInStock},
	}
	for _, tc := range tests {
		var min *decimal.Decimal
		if tc.min != nil {
			v := d(*tc.min)
			min = &v
		}
		got := strings.Join(StockEvents(d(tc.before), d(tc.after), min), ",")
		if got != tc.want {
			t.Errorf("%s -> %s (min %v): %q, want %q", tc.before, tc.after, tc.min, got, tc.want)
		}
	}
}

func ptr(s string) *string { return &s }
