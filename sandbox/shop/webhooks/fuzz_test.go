package webhooks

import (
	"strings"
	"testing"
)

// FuzzVerify checks the receiver's signature check: the signature Sign
// makes always verifies, any other header value (a changed byte, another
// case, a prefix, garbage) never does, and nothing panics.
func FuzzVerify(f *testing.F) {
	f.Add("key", []byte(`{"eshopId":1001,"event":"order:create"}`), "")
	f.Add("", []byte{}, "da39a3ee5e6b4b0d3255bfef95601890afd80709")
	f.Add("k\x00ey", []byte("\xff\xfe"), "ZZ")
	f.Fuzz(func(t *testing.T, key string, body []byte, other string) {
		sig := Sign(key, body)
		if len(sig) != 40 || strings.ToLower(sig) != sig {
			t.Fatalf("signature %q is not 40 lowercase hex digits", sig)
		}
		if !Verify(key, body, sig) {
			t.Fatal("a body's own signature does not verify")
		}
		if other != sig && Verify(key, body, other) {
			t.Fatalf("header %q verifies although the signature is %q", other, sig)
		}
		if up := strings.ToUpper(sig); up != sig && Verify(key, body, up) {
			t.Fatal("an upper-case signature verifies")
		}
		if len(body) > 0 && Verify(key, append([]byte{body[0] ^ 1}, body[1:]...), sig) {
			t.Fatal("a changed body verifies with the old signature")
		}
	})
}
