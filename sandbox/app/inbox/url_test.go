package inbox

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

func TestIs(t *testing.T) {
	for _, tc := range []struct {
		base, url string
		want      bool
	}{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/_sandbox/inbox/orders", true},
		{"http://127.0.0.1:8080", "http://localhost:8080/_sandbox/inbox/orders", true},
		{"http://127.0.0.1:8080", "http://[::1]:8080/_sandbox/inbox/orders", true},
		{"http://127.0.0.1:8080", "http://127.0.0.2:8080/_sandbox/inbox/a.b-c_d", true},
		{"http://127.0.0.1:8080", "http://0.0.0.0:8080/_sandbox/inbox/x", true},
		{"http://127.0.0.1:8080", "http://LOCALHOST.:8080/_sandbox/inbox/x?ignored=1", true},
		{"http://[::]:8080", "http://127.0.0.1:8080/_sandbox/inbox/x", true},
		{"http://sandbox.test", "http://sandbox.test:80/_sandbox/inbox/x", true},
		{"https://sandbox.test", "https://sandbox.test/_sandbox/inbox/x", true},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8081/_sandbox/inbox/orders", false}, // another sandbox: a real request
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/_sandbox/reset", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/_sandbox/inbox/", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/_sandbox/inbox/a/b", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/_sandbox/inbox/a%2Fb", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/_sandbox/inbox/..", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/_sandbox/inbox/../reset", false},
		{"http://127.0.0.1:8080", "ftp://127.0.0.1:8080/_sandbox/inbox/x", false},
		{"http://127.0.0.1:8080", "http://user@127.0.0.1:8080/_sandbox/inbox/x", false},
		{"http://127.0.0.1:8080", "http://example.com:8080/_sandbox/inbox/x", false},
		{"http://sandbox.test", "http://localhost:80/_sandbox/inbox/x", false}, // the base is not loopback
		{"http://127.0.0.1:8080", "not a url", false},
		{"", "http://127.0.0.1:8080/_sandbox/inbox/x", false},
	} {
		if got := Is(tc.base, tc.url); got != tc.want {
			t.Errorf("Is(%q, %q) = %v, want %v", tc.base, tc.url, got, tc.want)
		}
	}
}

func TestCheckSignature(t *testing.T) {
	body := []byte(`{"eshopId":1001}`)
	good := "8c2ca6c7c24f2d6b9c74b9c1ea86a5b11b1b8a6b"
	for _, tc := range []struct {
		key, sig, want string
	}{
		{"", "", SignatureUnsigned},
		{"k", "", SignatureMissing},
		{"", good, SignatureInvalid},
		{"k", good, SignatureInvalid},
		{"k", signFor("k", body), SignatureValid},
	} {
		if got := check(tc.key, body, tc.sig); got != tc.want {
			t.Errorf("check(%q, %q) = %s, want %s", tc.key, tc.sig, got, tc.want)
		}
	}
}

func signFor(key string, body []byte) string { return webhooks.Sign(key, body) }
