package egress

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func tcp(ip string, port int) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: port} }

// TestCheck: URLs at the sandbox's own port on any loopback address, its
// own IP, its public URL, and (listening everywhere) any address of this
// machine are refused; other ports and hosts are not.
func TestCheck(t *testing.T) {
	var local string
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
				local = n.IP.String()
				break
			}
		}
	}
	type checkCase struct {
		name   string
		listen net.Addr
		public string
		url    string
		self   bool
	}
	tests := []checkCase{
		{"own port on 127.0.0.1", tcp("127.0.0.1", 8080), "", "http://127.0.0.1:8080/_sandbox/reset", true},
		{"own port by name", tcp("127.0.0.1", 8080), "", "http://localhost:8080/_sandbox/reset", true},
		{"own port, name with a dot", tcp("127.0.0.1", 8080), "", "http://LOCALHOST.:8080/x", true},
		{"own port on ::1", tcp("127.0.0.1", 8080), "", "http://[::1]:8080/x", true},
		{"own port on another loopback address", tcp("127.0.0.1", 8080), "", "http://127.0.0.9:8080/x", true},
		{"own port on 0.0.0.0", tcp("127.0.0.1", 8080), "", "http://0.0.0.0:8080/x", true},
		{"another port: an add-on", tcp("127.0.0.1", 8080), "", "http://127.0.0.1:9090/webhooks", false},
		{"default port", tcp("127.0.0.1", 8080), "", "http://127.0.0.1/x", false},
		{"listening on port 80", tcp("127.0.0.1", 80), "", "http://localhost/x", true},
		{"public URL", tcp("0.0.0.0", 8080), "http://sandbox.test:8081", "http://sandbox.test:8081/_sandbox/reset", true},
		{"public URL, other port", tcp("0.0.0.0", 8080), "http://sandbox.test:8081", "http://sandbox.test:9999/x", false},
		{"public URL, default port", tcp("0.0.0.0", 8080), "https://sandbox.test", "https://sandbox.test/x", true},
		{"not bound yet", nil, "", "http://127.0.0.1:8080/x", false},
		{"unparsable host", tcp("127.0.0.1", 8080), "", "http://no-such-host.invalid:8080/x", false},
	}
	if local != "" {
		tests = append(tests,
			checkCase{"listening everywhere: a local address", tcp("0.0.0.0", 8080), "", "http://" + local + ":8080/x", true},
			checkCase{"listening on loopback: a local address is another host", tcp("127.0.0.1", 8080), "", "http://" + local + ":8080/x", false},
		)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &Guard{}
			if tc.listen != nil {
				g.Bind(tc.listen, tc.public)
			}
			err := g.Check(context.Background(), tc.url)
			if got := errors.Is(err, ErrSelf); got != tc.self {
				t.Fatalf("Check(%s) = %v, want self %v", tc.url, err, tc.self)
			}
		})
	}
}

// TestClientRefusesRedirectsIntoTheSandbox: a receiver on another port
// that redirects into the sandbox's port gets no request through, with
// redirects followed or not; the receiver itself is reached.
func TestClientRefusesRedirectsIntoTheSandbox(t *testing.T) {
	hits := 0
	sandbox := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer sandbox.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, sandbox.URL+"/_sandbox/reset", http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	g := &Guard{}
	g.Bind(sandbox.Listener.Addr(), "")
	c := g.Client(5*time.Second, true)
	if _, err := c.Post(redirect.URL, "application/json", nil); !errors.Is(err, ErrSelf) {
		t.Fatalf("redirect into the sandbox: %v", err)
	}
	if _, err := c.Get(sandbox.URL); !errors.Is(err, ErrSelf) {
		t.Fatalf("direct request to the sandbox: %v", err)
	}
	resp, err := g.Client(5*time.Second, false).Get(redirect.URL)
	if err != nil || resp.StatusCode != http.StatusTemporaryRedirect {
		t.Fatalf("the receiver itself: %v", err)
	}
	resp.Body.Close()
	if hits != 0 {
		t.Fatalf("the sandbox was reached %d times", hits)
	}
}

// TestAllowDownloads: downloads reach a loopback address only when it is
// named, by IP or by localhost; other addresses need no allowance and
// cannot be named.
func TestAllowDownloads(t *testing.T) {
	g := &Guard{}
	if err := g.AllowDownloads([]string{"localhost:9000", "127.0.0.1:9001"}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		url     string
		refused bool
	}{
		{"http://127.0.0.1:9000/a.png", false},
		{"http://[::1]:9000/a.png", false},
		{"http://localhost:9001/a.png", true}, // [::1]:9001 was not named
		{"http://127.0.0.1:9001/a.png", false},
		{"http://127.0.0.1:9002/a.png", true},
		{"http://127.0.0.9/a.png", true},
		{"http://0.0.0.0:9000/a.png", true},
		{"http://192.0.2.1:9002/a.png", false},
	} {
		err := g.CheckDownload(ctx, tc.url)
		if refused := errors.Is(err, ErrLoopback); refused != tc.refused {
			t.Errorf("%s: err %v, want refused %v", tc.url, err, tc.refused)
		}
	}
	for _, bad := range []string{"192.0.2.1:80", "127.0.0.1", "127.0.0.1:0", "localhost:http"} {
		if err := g.AllowDownloads([]string{bad}); err == nil {
			t.Errorf("%q allowed", bad)
		}
	}
}
