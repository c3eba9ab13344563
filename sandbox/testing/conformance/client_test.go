package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// client calls the sandbox with a private token and checks answers
// against the response schemas without failing the test (the callers
// collect reasons).
type client struct {
	s     *sandboxtest.Server
	token string
	hc    *http.Client
}

// answer is one decoded response.
type answer struct {
	op     string
	status int
	ctype  string
	body   []byte
}

func (a *answer) get(path string) gjson.Result { return gjson.GetBytes(a.body, path) }

func (a *answer) String() string {
	b := string(a.body)
	if len(b) > 400 {
		b = b[:400] + "…"
	}
	return fmt.Sprintf("%d %s", a.status, b)
}

func startSandbox(t *testing.T) *sandboxtest.Server {
	t.Helper()
	return sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
}

// do sends a request; body nil sends none, a string or []byte goes as is,
// anything else is marshalled.
func (c *client) do(method, path string, body any) (*answer, error) {
	var rd io.Reader
	var sent []byte
	switch b := body.(type) {
	case nil:
	case string:
		sent = []byte(b)
	case []byte:
		sent = b
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		sent = raw
	}
	if body != nil {
		rd = bytes.NewReader(sent)
	}
	req, err := http.NewRequest(method, c.s.URL+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(c.s.Headers.PrivateToken, c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &answer{op: c.s.App.Server.Operation(req, sent), status: resp.StatusCode, ctype: resp.Header.Get("Content-Type"), body: raw}, nil
}

// schemaError validates a JSON answer against its operation's response
// schema ("" when it matches or the operation has no JSON response).
func (c *client) schemaError(a *answer) string {
	sch := c.s.App.Schemas.Response(a.op)
	if sch == nil || len(a.body) == 0 || a.body[0] != '{' {
		return ""
	}
	v, err := schemas.Decode(bytes.NewReader(a.body))
	if err != nil {
		return "answer is not JSON: " + err.Error()
	}
	if err := sch.Validate(v); err != nil {
		msg := err.Error()
		if len(msg) > 600 {
			msg = msg[:600] + "…"
		}
		return "answer does not match the response schema: " + msg
	}
	return ""
}
