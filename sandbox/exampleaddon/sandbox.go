package exampleaddon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// The functions in this file talk to the sandbox's control plane
// (/_sandbox/). They replace what a developer does by hand in the partner
// administration of the real service: copy the client credentials, enter
// the add-on's URLs, press "install". The add-on itself never needs them.

// controlCall sends a control-plane request and decodes the envelope's
// data; an error envelope becomes an error with its message.
func (a *Addon) controlCall(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(a.cfg.APIURL, "/")+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Timeout: 2 * time.Minute}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("sandbox control plane: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("sandbox control plane %s %s: HTTP %d, not an envelope", method, path, resp.StatusCode)
	}
	if len(env.Errors) > 0 {
		return fmt.Errorf("sandbox control plane %s %s: HTTP %d: %s", method, path, resp.StatusCode, env.Errors[0].Message)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(env.Data, out)
}

// sandboxAddon is the add-on as GET /_sandbox/eshops lists it.
type sandboxAddon struct {
	EshopID      int
	Name         string `json:"name"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	RedirectURI  string `json:"redirectUri"`
}

func (a *Addon) sandboxAddons(ctx context.Context) ([]sandboxAddon, error) {
	var data struct {
		Eshops []struct {
			ID     int            `json:"id"`
			Addons []sandboxAddon `json:"addons"`
		} `json:"eshops"`
	}
	if err := a.controlCall(ctx, http.MethodGet, "/_sandbox/eshops", nil, &data); err != nil {
		return nil, err
	}
	var out []sandboxAddon
	for _, e := range data.Eshops {
		for _, ad := range e.Addons {
			if ad.Name == a.cfg.Name {
				ad.EshopID = e.ID
				out = append(out, ad)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the sandbox at %s has no add-on named %q", a.cfg.APIURL, a.cfg.Name)
	}
	return out, nil
}

// FetchCredentials fills in the client id and secret from the sandbox
// when they were not given.
func (a *Addon) FetchCredentials(ctx context.Context) error {
	if a.cfg.ClientID != "" && a.cfg.ClientSecret != "" {
		return nil
	}
	list, err := a.sandboxAddons(ctx)
	if err != nil {
		return err
	}
	if a.cfg.ClientID == "" {
		a.cfg.ClientID = list[0].ClientID
	}
	if a.cfg.ClientSecret == "" {
		a.cfg.ClientSecret = list[0].ClientSecret
	}
	return nil
}

// Register tells the sandbox where this process listens: the install,
// redirect and webhook URLs of the add-on and its payment gateway address
// (the gateway record the service's operator keeps; spec: payment flow
// step 1), in every e-shop that knows it.
func (a *Addon) Register(ctx context.Context) error {
	list, err := a.sandboxAddons(ctx)
	if err != nil {
		return err
	}
	for _, ad := range list {
		body := map[string]string{"installUrl": a.cfg.InstallURL(), "redirectUri": a.cfg.RedirectURI, "webhookUrl": a.cfg.WebhookURL()}
		if err := a.controlCall(ctx, http.MethodPut, fmt.Sprintf("/_sandbox/eshops/%d/addons/%s", ad.EshopID, ad.Name), body, nil); err != nil {
			return err
		}
		gateway := map[string]string{"url": a.cfg.GatewayURL()}
		if err := a.controlCall(ctx, http.MethodPut, fmt.Sprintf("/_sandbox/eshops/%d/payment-gateways/%s", ad.EshopID, ad.Name), gateway, nil); err != nil {
			return err
		}
	}
	return nil
}

// InstallReport is the part of the sandbox's install report the add-on
// prints.
type InstallReport struct {
	ID       string   `json:"id"`
	Result   string   `json:"result"`
	Passed   bool     `json:"passed"`
	Problems []string `json:"problems"`
	Summary  string   `json:"summary"`
}

// RequestInstall asks the sandbox to install this add-on into an e-shop,
// which makes the sandbox call the install URL with a code.
func (a *Addon) RequestInstall(ctx context.Context, eshopID int) (*InstallReport, error) {
	var rep InstallReport
	err := a.controlCall(ctx, http.MethodPost, fmt.Sprintf("/_sandbox/eshops/%d/install", eshopID), map[string]string{"addon": a.cfg.Name}, &rep)
	return &rep, err
}
