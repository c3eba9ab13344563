package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/discover"
)

// controlTimeout bounds one control-plane call of a client command.
const controlTimeout = 30 * time.Second

// controlClient calls the control plane of the sandbox a client command
// talks to (--url, SANDBOX_URL, the recorded sandbox) and decodes the
// envelope, so each command deals only in data and clear errors.
type controlClient struct {
	target discover.Target
	http   *http.Client
}

func newControlClient(cmd *cobra.Command) (*controlClient, error) {
	t, err := resolveTarget(cmd)
	if err != nil {
		return nil, err
	}
	return &controlClient{target: t, http: &http.Client{Timeout: controlTimeout}}, nil
}

// controlError is an error envelope the sandbox answered.
type controlError struct {
	Status   int
	Code     string
	Instance string
	Message  string
}

func (e *controlError) Error() string { return e.Message }

// call sends one request (body as JSON, or none) and decodes the
// envelope's data into out (when out is not nil). An error envelope is a
// *controlError; a sandbox that cannot be reached says how to name one.
func (c *controlClient) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.target.URL+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return errors.New(unreachable(c.target, err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return fmt.Errorf("reading the sandbox's answer: %v", err)
	}
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			ErrorCode string `json:"errorCode"`
			Message   string `json:"message"`
			Instance  string `json:"instance"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("%s at %s answered HTTP %d without the sandbox's envelope; is it a sandbox?", path, c.target.URL, resp.StatusCode)
	}
	if resp.StatusCode >= 400 || (len(env.Errors) > 0 && string(env.Data) == "null") {
		ce := &controlError{Status: resp.StatusCode, Message: fmt.Sprintf("%s %s: HTTP %d", method, path, resp.StatusCode)}
		if len(env.Errors) > 0 {
			ce.Code, ce.Instance, ce.Message = env.Errors[0].ErrorCode, env.Errors[0].Instance, env.Errors[0].Message
		}
		return ce
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(env.Data, out)
}
