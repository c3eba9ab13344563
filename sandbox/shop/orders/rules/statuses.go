package rules

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// RoleCanceled marks, in order-statuses.json ("_role"), the status whose
// setting cancels an order (spec: one status value is canceled).
const RoleCanceled = "canceled"

// Payment results a gateway add-on reports with PATCH
// /api/payment-status/{paymentCode} when the e-shop maps none of its own
// (order-statuses.json "_paymentResults").
const (
	ResultPaid     = "paid"
	ResultPending  = "pending"
	ResultCanceled = "canceled"
	ResultFailed   = "failed"
)

// Documents are the documents a status generates when an order gets it.
type Documents struct {
	Invoice         bool `json:"generateInvoice"`
	DeliveryNote    bool `json:"generateDeliveryNote"`
	ProformaInvoice bool `json:"generateProformaInvoice"`
	ProofPayment    bool `json:"generateProofPayment"`
}

// Status is one order status with what setting it implies.
type Status struct {
	ID               int       `json:"id"`
	Name             string    `json:"name"`
	ChangeOrderItems bool      `json:"changeOrderItems"`
	MarkAsPaid       bool      `json:"markAsPaid"`
	Role             string    `json:"_role"`
	SendEmail        bool      `json:"_sendEmail"`
	ClaimResolved    bool      `json:"stockClaimResolved"`
	Documents        Documents `json:"documents"`
}

// Canceled reports whether setting this status cancels the order.
func (s Status) Canceled() bool { return s.Role == RoleCanceled }

// Ref is the {id, name} object of a status, as orders and items carry it.
func (s Status) Ref() map[string]any {
	return map[string]any{"id": s.ID, "name": s.Name}
}

// Statuses is an e-shop's status list (order-statuses.json).
type Statuses struct {
	Default        int            `json:"defaultStatus"`
	List           []Status       `json:"statuses"`
	PaymentResults map[string]int `json:"_paymentResults"`
}

// ParseStatuses reads an order-statuses document.
func ParseStatuses(doc []byte) (*Statuses, error) {
	var s Statuses
	if err := json.Unmarshal(doc, &s); err != nil {
		return nil, fmt.Errorf("order statuses: %w", err)
	}
	return &s, nil
}

// Find returns the status with an id.
func (s *Statuses) Find(id int) (Status, bool) {
	for _, st := range s.List {
		if st.ID == id {
			return st, true
		}
	}
	return Status{}, false
}

// Get returns the status with an id, or a 400 naming the field that
// carried the unknown id.
func (s *Statuses) Get(id int, field string) (Status, error) {
	if st, ok := s.Find(id); ok {
		return st, nil
	}
	ids := make([]string, len(s.List))
	for i, st := range s.List {
		ids[i] = strconv.Itoa(st.ID)
	}
	return Status{}, sandbox.Invalid(field, "Field %s: order status %d does not exist in this e-shop; its statuses are %s (GET /api/orders/statuses).",
		field, id, strings.Join(ids, ", "))
}

// Canceled returns the e-shop's canceling status.
func (s *Statuses) Canceled() (Status, bool) {
	for _, st := range s.List {
		if st.Canceled() {
			return st, true
		}
	}
	return Status{}, false
}

// ItemStatus applies the spec's status-assignment table to one item:
// an item with its own status keeps it; one without gets the order's
// status when that status has changeOrderItems, the default status
// otherwise (also when the order's status was omitted).
func (s *Statuses) ItemStatus(order Status, orderGiven bool, item *int) int {
	if item != nil {
		return *item
	}
	if orderGiven && order.ChangeOrderItems {
		return order.ID
	}
	return s.Default
}

// Results maps each payment result to the order status the e-shop sets
// for it. Without "_paymentResults" in the fixtures: paid to the first
// status that marks orders paid, canceled to the canceling status,
// pending and failed to the default status.
func (s *Statuses) Results() map[string]int {
	if len(s.PaymentResults) > 0 {
		return s.PaymentResults
	}
	out := map[string]int{ResultPending: s.Default, ResultFailed: s.Default}
	for _, st := range s.List {
		if st.MarkAsPaid {
			out[ResultPaid] = st.ID
			break
		}
	}
	if c, ok := s.Canceled(); ok {
		out[ResultCanceled] = c.ID
	}
	return out
}

// ResultNames lists the payment results, sorted, for messages.
func (s *Statuses) ResultNames() []string {
	var out []string
	for k := range s.Results() {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
