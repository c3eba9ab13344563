package bus

import (
	"bytes"
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

// TestBodyContains checks Contains against bytes.Contains on the joined
// body, for every way of cutting a text into parts of up to three pieces.
func TestBodyContains(t *testing.T) {
	text := []byte(`{"data":{"paginator":{"page":1}},"errors":null}`)
	subs := [][]byte{[]byte(`"paginator"`), []byte(`"data":{"p`), []byte(`}},"e`), []byte(`x`), []byte(`}`), []byte(`null}`), []byte(`{"data":{"paginator":{"page":1}},"errors":null}`), []byte(`nope`)}
	eachCut(text, func(i, j int, b Body) {
		for _, sub := range subs {
			if got, want := b.Contains(sub), bytes.Contains(text, sub); got != want {
				t.Fatalf("cut at %d, %d: Contains(%s) = %v, want %v", i, j, sub, got, want)
			}
		}
	})
}

// eachCut calls fn with text cut into three parts at i and j, for every
// i <= j.
func eachCut(text []byte, fn func(i, j int, b Body)) {
	for i := 0; i <= len(text); i++ {
		for j := i; j <= len(text); j++ {
			var b Body
			b.Append(text[:i])
			b.Append(text[i:j])
			b.Append(text[j:])
			fn(i, j, b)
		}
	}
}

// TestBodyHeadTail checks Head and Tail against slicing the joined body,
// for every way of cutting a text into parts of up to three pieces and
// every length.
func TestBodyHeadTail(t *testing.T) {
	text := []byte(`{"data":{"orders":[1,2],"paginator":{"page":1}},"errors":null}`)
	eachCut(text, func(i, j int, b Body) {
		for _, n := range []int{0, 1, 7, 30, len(text) - 1, len(text), len(text) + 5} {
			k := min(n, len(text))
			if got := b.Head([]byte("x"), n); string(got) != "x"+string(text[:k]) {
				t.Fatalf("cut at %d, %d: Head(%d) = %q", i, j, n, got)
			}
			if got := b.Tail(nil, n); string(got) != string(text[len(text)-k:]) {
				t.Fatalf("cut at %d, %d: Tail(%d) = %q", i, j, n, got)
			}
		}
	})
}
