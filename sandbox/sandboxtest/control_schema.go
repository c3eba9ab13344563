package sandboxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox/app/openapi"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
)

// controlSchemas are the answer schemas of the control plane's document
// as the sandbox serves it, by operation, compiled once per sandbox.
type controlSchemas struct {
	once sync.Once
	byOp map[string]*jsonschema.Schema
	err  error
}

const controlDocURL = "https://sandbox.local/openapi-control.json"

func (c *controlSchemas) load(client *http.Client, base string) {
	c.once.Do(func() {
		c.byOp, c.err = compileControl(client, base)
	})
}

func compileControl(client *http.Client, base string) (map[string]*jsonschema.Schema, error) {
	cc := controlclient.New(base, client)
	cc.Unrecorded = true
	raw, err := cc.Document(context.Background(), openapi.ControlPath)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string                     `json:"operationId"`
			Responses   map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", openapi.ControlPath, err)
	}
	comp := jsonschema.NewCompiler()
	comp.Draft = jsonschema.Draft2020
	if err := comp.AddResource(controlDocURL, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	ptr := strings.NewReplacer("~", "~0", "/", "~1")
	out := map[string]*jsonschema.Schema{}
	for path, item := range doc.Paths {
		for method, op := range item {
			if _, ok := op.Responses["2XX"]; !ok {
				continue
			}
			loc := controlDocURL + "#/paths/" + url.PathEscape(ptr.Replace(path)) + "/" + method + "/responses/2XX/content/application~1json/schema"
			sch, err := comp.Compile(loc)
			if err != nil {
				return nil, fmt.Errorf("%s: answer schema: %w", op.OperationID, err)
			}
			out[op.OperationID] = sch
		}
	}
	return out, nil
}

// controlSchema answers the declared answer schema of a control
// operation (nil when it declares none).
func (s *Server) controlSchema(operation string) *jsonschema.Schema {
	s.t.Helper()
	s.ctl.load(s.Client, s.URL)
	if s.ctl.err != nil {
		s.t.Fatalf("the control plane's OpenAPI: %v", s.ctl.err)
	}
	return s.ctl.byOp[operation]
}

// checkingTransport hands every answer of the control client to the
// sandbox's schema checks, as Do does for its own calls.
type checkingTransport struct {
	s    *Server
	next http.RoundTripper
}

func (c checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var sent []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body.Close()
		sent = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	if len(raw) > 0 && raw[0] == '{' {
		c.s.checkControlSchema(&Response{Operation: c.s.App.Server.Operation(req, sent), Status: resp.StatusCode, Body: raw})
	}
	return resp, nil
}
