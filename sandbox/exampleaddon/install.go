package exampleaddon

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// handleInstall is the install URL. The e-shop waits for this answer, and
// the answer must be 200 only once the add-on holds its OAuth token, so
// the code is exchanged here, in this request.
func (a *Addon) handleInstall(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	if code == "" {
		http.Error(w, "missing code parameter", http.StatusBadRequest)
		return
	}
	oauthToken, err := a.exchangeCode(r.Context(), code)
	if err != nil {
		// No token, no installation: say so with an error status. The
		// e-shop shows the installation as failed and nothing is half-done.
		a.log.Error("install: code exchange failed", "err", err)
		http.Error(w, "installation failed: "+err.Error(), http.StatusBadGateway)
		return
	}
	in := &installation{OAuthToken: oauthToken, InstalledAt: a.Now()}
	a.addInstallation(in)

	// The installation has succeeded: we hold the OAuth token. What
	// follows prepares the add-on's work; a failure there is logged and
	// retried later, it does not undo the installation.
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	if err := a.setup(ctx, in); err != nil {
		a.log.Warn("install: set-up incomplete", "err", err)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "example-addon is installed.")
}

// setup learns which e-shop the installation belongs to, obtains the
// webhook signature key and registers the webhooks the add-on lives on.
func (a *Addon) setup(ctx context.Context, in *installation) error {
	var info struct {
		ContactInformation struct {
			EshopID int `json:"eshopId"`
		} `json:"contactInformation"`
	}
	if err := a.call(ctx, in, http.MethodGet, "/api/eshop", nil, &info); err != nil {
		return fmt.Errorf("GET /api/eshop: %w", err)
	}
	a.bindEshop(in, info.ContactInformation.EshopID)
	a.log.Info("installed", "eshop", info.ContactInformation.EshopID)
	if err := a.renewSignatureKey(ctx, in); err != nil {
		return err
	}
	if len(a.cfg.Events) == 0 {
		return nil
	}
	hooks := make([]map[string]string, 0, len(a.cfg.Events))
	for _, ev := range a.cfg.Events {
		hooks = append(hooks, map[string]string{"event": ev, "url": a.cfg.WebhookURL()})
	}
	if err := a.call(ctx, in, http.MethodPost, "/api/webhooks", map[string]any{"data": hooks}, nil); err != nil {
		return fmt.Errorf("register webhooks: %w", err)
	}
	return nil
}

// renewSignatureKey asks the e-shop for a new webhook signature key. Each
// call issues a new key, so the add-on asks once per installation.
func (a *Addon) renewSignatureKey(ctx context.Context, in *installation) error {
	var out struct {
		SignatureKey string `json:"signatureKey"`
	}
	if err := a.call(ctx, in, http.MethodPost, "/api/webhooks/renew-signature-key", nil, &out); err != nil {
		return fmt.Errorf("renew the webhook signature key: %w", err)
	}
	if out.SignatureKey == "" {
		return fmt.Errorf("renew the webhook signature key: the answer holds no data.signatureKey")
	}
	a.mu.Lock()
	in.SignatureKey = out.SignatureKey
	a.mu.Unlock()
	a.save()
	return nil
}
