package bus

import (
	"encoding/json"
	"testing"
)

// TestBody: parts are kept as written (a shared part is not copied),
// joined on demand, and the JSON form is a []byte's.
func TestBody(t *testing.T) {
	shared := []byte(`{"n":1}`)
	var b Body
	b.Append([]byte(`{"data":`))
	b.Append(shared)
	b.Append(nil)
	b.Append([]byte(`}`))
	if b.Len() != 16 || b.String() != `{"data":{"n":1}}` || b.IsZero() {
		t.Fatalf("body %q len %d", b.String(), b.Len())
	}
	if &b.parts[1][0] != &shared[0] {
		t.Fatal("a shared part was copied")
	}
	one := NewBody(shared)
	if got := one.Bytes(); &got[0] != &shared[0] {
		t.Fatal("a one-part body is copied on Bytes")
	}
	raw, err := json.Marshal(struct {
		B Body `json:"b,omitzero"`
		Z Body `json:"z,omitzero"`
	}{B: b})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(struct {
		B []byte `json:"b"`
	}{B: []byte(`{"data":{"n":1}}`)})
	if string(raw) != string(want) {
		t.Fatalf("JSON %s, want %s", raw, want)
	}
	var back struct{ B Body }
	if err := json.Unmarshal(raw, &back); err != nil || back.B.String() != b.String() {
		t.Fatalf("round trip: %v %q", err, back.B.String())
	}
}
