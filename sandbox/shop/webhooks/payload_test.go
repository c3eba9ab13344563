package webhooks

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestSignatureVector checks the reference README's test vector: the body
// encoded by Payload.Encode and signed with the example key.
func TestSignatureVector(t *testing.T) {
	created := "2024-01-31T12:00:00+0100"
	p := Payload{EshopID: 1, Event: "order:create", EventCreated: &created, EventInstance: "2024000001"}
	body := p.Encode()
	const want = `{"eshopId":1,"event":"order:create","eventCreated":"2024-01-31T12:00:00+0100","eventInstance":"2024000001"}`
	if string(body) != want {
		t.Fatalf("body:\n got %s\nwant %s", body, want)
	}
	sig := Sign("example-signature-key", body)
	if sig != "b464b874b28eafdeb436b6ee91d598d83417e77b" {
		t.Fatalf("signature %s", sig)
	}
	if !Verify("example-signature-key", body, sig) || Verify("other-key", body, sig) || Verify("example-signature-key", append(body, ' '), sig) {
		t.Fatal("Verify does not tell a good signature from a bad one")
	}
}

// TestNewPayloadTime renders eventCreated in the service's format from
// the event's own time zone.
func TestNewPayloadTime(t *testing.T) {
	at := time.Date(2024, 1, 31, 12, 0, 0, 0, time.FixedZone("", 3600))
	got := string(NewPayload(sandbox.Event{EshopID: 1, Kind: "order:create", Instance: "2024000001", Time: at}).Encode())
	if got != `{"eshopId":1,"event":"order:create","eventCreated":"2024-01-31T12:00:00+0100","eventInstance":"2024000001"}` {
		t.Fatal(got)
	}
	if got := string(NewPayload(sandbox.Event{EshopID: 2, Kind: "job:finished", Instance: "x"}).Encode()); got != `{"eshopId":2,"event":"job:finished","eventCreated":null,"eventInstance":"x"}` {
		t.Fatal(got)
	}
}

// TestPHPString covers json_encode's default escaping, which Go's
// encoder does differently (it keeps "/", escapes <>&, writes UTF-8).
func TestPHPString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{"a/b", `"a\/b"`},
		{`quote " and \ backslash`, `"quote \" and \\ backslash"`},
		{"<b>&amp;</b>", `"<b>&amp;<\/b>"`},
		{"Dárkové balení", `"D\u00e1rkov\u00e9 balen\u00ed"`},
		{"€", `"\u20ac"`},
		{"🎒", `"\ud83c\udf92"`},
		{"tab\tnew\nline\r\b\f", `"tab\tnew\nline\r\b\f"`},
		{"\x01\x1f", `"\u0001\u001f"`},
		{"bad \xff byte", `"bad \ufffd byte"`},
	} {
		got := string(AppendPHPString(nil, c.in))
		if got != c.want {
			t.Errorf("%q: got %s want %s", c.in, got, c.want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("%q: not JSON: %v", c.in, err)
		}
	}
}

// TestEncodeList is the eventInstance of a mass event.
func TestEncodeList(t *testing.T) {
	if got := EncodeList([]string{"a/1", "b"}); got != `["a\/1","b"]` {
		t.Fatal(got)
	}
	if got := EncodeList(nil); got != `[]` {
		t.Fatal(got)
	}
}

// TestDelay is the exponential back-off.
func TestDelay(t *testing.T) {
	o := Options{Backoff: 10 * time.Second}
	for n, want := range map[int]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 3: 40 * time.Second, 8: 1280 * time.Second, 40: 24 * time.Hour} {
		if got := o.Delay(n); got != want {
			t.Errorf("Delay(%d) = %v, want %v", n, got, want)
		}
	}
}
