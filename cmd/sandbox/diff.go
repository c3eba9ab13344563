package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/fidelity"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/upstream"
)

// Exit codes of sandbox diff, as diff(1) has them.
const (
	diffSame    = 0 // no compared endpoint differs
	diffDiffer  = 1 // some endpoint differs
	diffTrouble = 2 // the comparison could not run
)

// exitStatus ends the program with its own code; its message has been
// shown already (or there is none to show).
type exitStatus struct {
	code int
	err  error
}

func (e exitStatus) Error() string { return e.err.Error() }

func newDiffCmd() *cobra.Command {
	var (
		up           upstreamFlags
		sandboxToken string
		sbPrefix     string
		eshopID      int
		asJSON       bool
		notes        bool
	)
	cmd := &cobra.Command{
		Use:   "diff",
		Short: "Compare the sandbox with a real e-shop, endpoint by endpoint: a fidelity report",
		Long: `diff sends the same GET requests to the upstream e-shop and to the sandbox
(every read endpoint that answers at once, with every include section) and
reports, per endpoint, the fields the sandbox misses or adds, the fields of
another JSON type, and the endpoints answering another status.

It compares shapes, not values: fields under a list that is empty on one side,
or an object that is null on one side, are not judged, and a field that is
null in every record on one side is a note (--notes), not a difference. Detail
endpoints are asked for the upstream's first record; when the sandbox lacks
it, the sandbox is asked for its own. Endpoints whose identifiers no read
endpoint gives (a payment code, a shipping request) are listed as not compared.

The sandbox is found as every client finds it (--url, SANDBOX_URL, the running
one); its token is the full-access private token of the e-shop with the
upstream's id (or --eshop), read from its control plane, unless
--sandbox-token names one. The upstream is read as sandbox record reads it:
at most 3 calls at once, Retry-After honoured, timeouts, no redirects.

Exit code: 0 when no endpoint differs, 1 when some do, 2 when the comparison
could not run.`,
		Example: `  SANDBOX_TOKEN=... sandbox diff --upstream https://api.example.com
  sandbox diff --upstream http://127.0.0.1:9000 --token sbx_prv_... --url http://127.0.0.1:8080 --json > fidelity.json`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			trouble := func(err error) error { return exitStatus{code: diffTrouble, err: err} }
			upc, err := up.client()
			if err != nil {
				return trouble(usageError(cmd, "%v", err))
			}
			defer upc.Close()
			cc, err := newControlClient(cmd)
			if err != nil {
				return trouble(fail(cmd, "%v", err))
			}
			target := cc.target
			if eshopID == 0 {
				if eshopID, err = upstreamEshop(cmd, upc); err != nil {
					return trouble(fail(cmd, "%v", err))
				}
			}
			tok := sandboxToken
			if tok == "" {
				if tok, err = fullAccessToken(cmd, cc, eshopID); err != nil {
					return trouble(fail(cmd, "%v", err))
				}
			}
			sbBase, err := upstream.CheckBase(target.URL, true)
			if err != nil {
				return trouble(fail(cmd, "%v", err))
			}
			sbc := &upstream.Client{Base: sbBase, Auth: upstream.Auth{Header: sandbox.NewHeaders(sbPrefix).PrivateToken, Token: tok}, Timeout: up.timeout}
			defer sbc.Close()
			rep, err := fidelity.Compare(cmd.Context(), fidelity.Options{Upstream: upc, Sandbox: sbc, UpstreamName: upc.Base, SandboxName: sbBase})
			if err != nil {
				return trouble(fail(cmd, "%v", err))
			}
			w := cmd.OutOrStdout()
			if asJSON {
				err = rep.WriteJSON(w)
			} else {
				err = rep.WriteText(w, notes)
			}
			if err != nil {
				return trouble(fail(cmd, "%v", err))
			}
			if !rep.Clean() {
				return exitStatus{code: diffDiffer, err: fmt.Errorf("%d endpoints differ", rep.Differing)}
			}
			return nil
		},
	}
	up.add(cmd)
	addURLFlag(cmd, new(string))
	f := cmd.Flags()
	f.StringVar(&sandboxToken, "sandbox-token", "", "the sandbox's private token (default: the e-shop's full-access token from its control plane)"+envHelp("sandbox-token"))
	f.StringVar(&sbPrefix, "sandbox-header-prefix", sandbox.DefaultHeaderPrefix, "brand word of the sandbox's token header (its up --header-prefix)"+envHelp("sandbox-header-prefix"))
	f.IntVar(&eshopID, "eshop", 0, "the sandbox's e-shop to compare (default: the upstream's e-shop id)")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.BoolVar(&notes, "notes", false, "also list the fields that are null on one side only")
	return cmd
}

// upstreamEshop reads the upstream's e-shop id.
func upstreamEshop(cmd *cobra.Command, c *upstream.Client) (int, error) {
	resp, err := c.Get(cmd.Context(), "/api/eshop")
	if err != nil {
		return 0, fmt.Errorf("reading the upstream's e-shop: %w", err)
	}
	var env struct {
		Data struct {
			ContactInformation struct {
				EshopID json.Number `json:"eshopId"`
			} `json:"contactInformation"`
		} `json:"data"`
	}
	if err := json.Unmarshal(resp.Body, &env); err != nil || resp.Status != 200 {
		return 0, fmt.Errorf("GET %s/api/eshop answered %d: is the URL the API's base address, and the token valid?", c.Base, resp.Status)
	}
	id, err := strconv.Atoi(env.Data.ContactInformation.EshopID.String())
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("the upstream's GET /api/eshop has no contactInformation.eshopId; name the sandbox's e-shop with --eshop")
	}
	return id, nil
}

// fullAccessToken reads the e-shop's full-access private token from the
// sandbox's control plane.
func fullAccessToken(cmd *cobra.Command, c *controlClient, eshopID int) (string, error) {
	var data struct {
		Eshops []struct {
			ID            int `json:"id"`
			PrivateTokens []struct {
				Token     string `json:"token"`
				AllGroups bool   `json:"allGroups"`
			} `json:"privateTokens"`
		} `json:"eshops"`
	}
	if err := c.call(cmd.Context(), http.MethodGet, "/_sandbox/eshops", nil, &data); err != nil {
		return "", fmt.Errorf("listing the sandbox's e-shops for a token: %w (or give it with --sandbox-token)", err)
	}
	var ids []int
	for _, e := range data.Eshops {
		ids = append(ids, e.ID)
		if e.ID != eshopID {
			continue
		}
		for _, tk := range e.PrivateTokens {
			if tk.AllGroups {
				return tk.Token, nil
			}
		}
		return "", fmt.Errorf("e-shop %d of the sandbox has no private token with every right; give one with --sandbox-token", eshopID)
	}
	return "", fmt.Errorf("the sandbox at %s has no e-shop %d (it has %v); choose one with --eshop, or serve a recording of the upstream (sandbox record)", c.target.URL, eshopID, ids)
}
