package bus

import "testing"

// TestMessagePayloads: a call or a delivery is found whether it was sent
// by value or by pointer, and nothing is found in another payload.
func TestMessagePayloads(t *testing.T) {
	c, d := Call{ID: "c"}, Delivery{ID: "d"}
	for _, m := range []Message{{Data: c}, {Data: &c}} {
		if got := m.Call(); got == nil || got.ID != "c" || m.Delivery() != nil {
			t.Errorf("%T: call %v", m.Data, got)
		}
	}
	for _, m := range []Message{{Data: d}, {Data: &d}} {
		if got := m.Delivery(); got == nil || got.ID != "d" || m.Call() != nil {
			t.Errorf("%T: delivery %v", m.Data, got)
		}
	}
	if (Message{Data: Fault{}}).Call() != nil || (Message{}).Delivery() != nil {
		t.Error("another payload read as a call or a delivery")
	}
}
