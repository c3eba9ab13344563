package robustness

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestOverLimitBodySentWhole sends a body over api.MaxBodyBytes the way
// most client libraries do: the whole body written before the answer is
// read, without Expect: 100-continue, with a Content-Length and chunked.
// Each gets the 413 envelope, on the API and on the control plane (the
// connection used to be reset while the client was still writing).
func TestOverLimitBodySentWhole(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	host := strings.TrimPrefix(s.URL, "http://")
	body := append([]byte(`{"data": {"name": "`), bytes.Repeat([]byte("x"), 2*api.MaxBodyBytes)...)
	body = append(body, `"}}`...)
	targets := []struct{ method, path, token string }{
		{"POST", "/api/brands", privateToken},
		{"POST", "/_sandbox/events", ""},
	}
	for _, tg := range targets {
		for _, chunked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s chunked=%v", tg.path, chunked), func(t *testing.T) {
				conn, err := net.Dial("tcp", host)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
				var req bytes.Buffer
				fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", tg.method, tg.path, host)
				if tg.token != "" {
					fmt.Fprintf(&req, "Service-Private-API-Token: %s\r\n", tg.token)
				}
				if chunked {
					fmt.Fprintf(&req, "Transfer-Encoding: chunked\r\n\r\n")
					for rest := body; len(rest) > 0; {
						n := min(len(rest), 1<<20)
						fmt.Fprintf(&req, "%x\r\n%s\r\n", n, rest[:n])
						rest = rest[n:]
					}
					req.WriteString("0\r\n\r\n")
				} else {
					fmt.Fprintf(&req, "Content-Length: %d\r\n\r\n", len(body))
					req.Write(body)
				}
				if _, err := conn.Write(req.Bytes()); err != nil {
					t.Fatalf("writing the whole request: %v (the sandbox closed the connection before reading it)", err)
				}
				resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatalf("reading the answer: %v", err)
				}
				defer resp.Body.Close()
				raw, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != http.StatusRequestEntityTooLarge || !bytes.Contains(raw, []byte("too-many-entities")) {
					t.Fatalf("%d %s", resp.StatusCode, truncated(raw))
				}
			})
		}
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/health"}); r.Status != http.StatusOK {
		t.Fatalf("health: %d", r.Status)
	}
}
