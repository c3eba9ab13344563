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

	"github.com/eshop-sandbox/sandbox/sandbox/api"
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

// call sends one request (body as JSON, or none) and decodes the
// envelope's data into out (when out is not nil). An error envelope is an
// *api.AnswerError; a sandbox that cannot be reached says how to name one.
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
	err = api.DecodeAnswer(resp.StatusCode, raw, out)
	var ae *api.AnswerError
	if errors.As(err, &ae) {
		if ae.Code == "" { // no error envelope: name the call
			ae.Message = method + " " + path + ": " + ae.Message
		}
		return ae
	}
	if err != nil && !json.Valid(raw) {
		return fmt.Errorf("%s at %s answered HTTP %d without the sandbox's envelope; is it a sandbox?", path, c.target.URL, resp.StatusCode)
	}
	return err
}
