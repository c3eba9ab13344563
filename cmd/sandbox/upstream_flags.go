package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/upstream"
)

// upstreamFlags are how `sandbox record` and `sandbox diff` reach the
// e-shop they read: its API address and a token, as the real service
// takes them.
type upstreamFlags struct {
	url, token, accessToken, prefix string
	insecure                        bool
	timeout                         time.Duration
}

func (f *upstreamFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.url, "upstream", "", "the e-shop's API base address, e.g. https://api.example.com"+envHelp("upstream"))
	fl.StringVar(&f.token, "token", "", "a private API token of the e-shop, sent as <prefix>-Private-API-Token; prefer the environment variable, which other users cannot see"+envHelp("token"))
	fl.StringVar(&f.accessToken, "access-token", "", "an add-on's access token instead, sent as <prefix>-Access-Token (it reads what the add-on may)"+envHelp("access-token"))
	fl.StringVar(&f.prefix, "header-prefix", sandbox.DefaultHeaderPrefix, "brand word of the token headers"+envHelp("header-prefix"))
	fl.BoolVar(&f.insecure, "insecure-http", false, "allow plain http to an address other than this machine (the token travels in the clear)")
	fl.DurationVar(&f.timeout, "timeout", upstream.DefaultTimeout, "how long one call may take, connection to last byte")
}

// client builds the upstream's client, refusing an unsafe URL or a
// missing or doubled token.
func (f *upstreamFlags) client() (*upstream.Client, error) {
	base, err := upstream.CheckBase(f.url, f.insecure)
	if err != nil {
		return nil, err
	}
	h := sandbox.NewHeaders(f.prefix)
	var auth upstream.Auth
	switch {
	case f.token != "" && f.accessToken != "":
		return nil, fmt.Errorf("give one token: --token (a private API token) or --access-token (an add-on's), not both")
	case f.token != "":
		auth = upstream.Auth{Header: h.PrivateToken, Token: f.token}
	case f.accessToken != "":
		auth = upstream.Auth{Header: h.AccessToken, Token: f.accessToken}
	default:
		return nil, fmt.Errorf("no token: give the e-shop's private API token with --token or SANDBOX_TOKEN (or an add-on's with --access-token)")
	}
	if f.timeout <= 0 {
		return nil, fmt.Errorf("--timeout must be positive")
	}
	return &upstream.Client{Base: base, Auth: auth, Timeout: f.timeout}, nil
}
