package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/app/discover"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
)

// controlTimeout bounds one control-plane call of a client command.
const controlTimeout = 30 * time.Second

// controlClient calls the control plane of the sandbox a client command
// talks to (--url, SANDBOX_URL, the recorded sandbox) through the typed
// client add-on tests use too (sandbox/controlclient), so each command
// deals only in data and clear errors.
type controlClient struct {
	target discover.Target
	*controlclient.Client
}

func newControlClient(cmd *cobra.Command) (*controlClient, error) {
	t, err := resolveTarget(cmd)
	if err != nil {
		return nil, err
	}
	return &controlClient{target: t, Client: controlclient.New(t.URL, &http.Client{Timeout: controlTimeout})}, nil
}

// call sends one request (body as JSON, or none) and decodes the
// envelope's data into out (when out is not nil). An error envelope is an
// *api.AnswerError; a sandbox that cannot be reached says how to name one.
func (c *controlClient) call(ctx context.Context, method, path string, body, out any) error {
	err := c.Do(ctx, method, path, body, out)
	var te *controlclient.TransportError
	if errors.As(err, &te) {
		return errors.New(unreachable(c.target, te.Err))
	}
	var ne *controlclient.NotEnvelopeError
	if errors.As(err, &ne) {
		return fmt.Errorf("%s at %s answered HTTP %d without the sandbox's envelope; is it a sandbox?", path, c.target.URL, ne.Status)
	}
	return err
}
