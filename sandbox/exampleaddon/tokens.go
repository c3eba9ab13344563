package exampleaddon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// OAuthError is a refusal by the OAuth server (its "error" value).
type OAuthError struct {
	Status      int
	Code        string // e.g. invalid_grant, maximum_tokens_reached
	Description string
	retryAfter  string // Retry-After of the answer, if any
}

// Error implements the error interface.
func (e *OAuthError) Error() string {
	if e.Description != "" {
		return fmt.Sprintf("OAuth server: HTTP %d %s: %s", e.Status, e.Code, e.Description)
	}
	return fmt.Sprintf("OAuth server: HTTP %d %s", e.Status, e.Code)
}

// exchangeCode trades the install code for the OAuth access token:
// POST {eshop_url}/action/ApiOAuthServer/token with a JSON body of the
// reference's fields. It is called once per code: codes are single use.
func (a *Addon) exchangeCode(ctx context.Context, code string) (string, error) {
	body, _ := json.Marshal(map[string]string{
		"client_id":     a.cfg.ClientID,
		"client_secret": a.cfg.ClientSecret,
		"code":          code,
		"redirect_uri":  a.cfg.RedirectURI,
		"grant_type":    "authorization_code",
		"scope":         "api",
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.cfg.OAuthURL, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := a.oauthCall(req, &out); err != nil {
		return "", err
	}
	if out.AccessToken == "" {
		return "", errors.New("OAuth server: the answer holds no access_token")
	}
	return out.AccessToken, nil
}

// accessAnswer is the answer of getAccessToken.
type accessAnswer struct {
	AccessToken string  `json:"access_token"`
	ExpiresIn   int64   `json:"expires_in"`
	Error       *string `json:"error"`
}

// apiToken returns a valid API token for the installation, asking the
// OAuth server for a new one only when the current one is (nearly)
// expired: at most 5 may be valid at once, so tokens are reused, never
// fetched per call. A 429 maximum_tokens_reached is waited out.
func (a *Addon) apiToken(ctx context.Context, in *installation) (string, error) {
	in.tokMu.Lock()
	defer in.tokMu.Unlock()
	if in.apiToken != "" && a.Now().Before(in.apiExpires.Add(-30*time.Second)) {
		return in.apiToken, nil
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.cfg.AccessTokenURL(), nil)
		if err != nil {
			return "", err
		}
		req.Header.Set("Authorization", "Bearer "+in.OAuthToken)
		var out accessAnswer
		err = a.oauthCall(req, &out)
		var oe *OAuthError
		if errors.As(err, &oe) && oe.Code == "maximum_tokens_reached" && attempt < a.cfg.MaxRetries {
			d := retryDelay(oe.retryAfter, attempt, a.Now(), a.cfg.MaxBackoff)
			a.log.Warn("all API tokens in use; waiting", "eshop", in.EshopID, "wait", d)
			if err := a.Sleep(ctx, d); err != nil {
				return "", err
			}
			continue
		}
		if err != nil {
			return "", err
		}
		in.apiToken = out.AccessToken
		in.apiExpires = a.Now().Add(time.Duration(out.ExpiresIn) * time.Second)
		return in.apiToken, nil
	}
}

// dropToken forgets an API token the API called expired, unless another
// call replaced it already.
func (a *Addon) dropToken(in *installation, tok string) {
	in.tokMu.Lock()
	defer in.tokMu.Unlock()
	if in.apiToken == tok {
		in.apiToken = ""
	}
}

// oauthCall sends a request to the OAuth server and decodes its JSON
// answer. Any non-2xx status, or an "error" value whatever the status, is
// an OAuthError.
func (a *Addon) oauthCall(req *http.Request, out any) error {
	resp, err := a.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	var e struct {
		Error       *string `json:"error"`
		Description string  `json:"error_description"`
	}
	_ = json.Unmarshal(raw, &e)
	if resp.StatusCode/100 != 2 || (e.Error != nil && *e.Error != "") {
		oe := &OAuthError{Status: resp.StatusCode, Description: e.Description, retryAfter: resp.Header.Get("Retry-After")}
		if e.Error != nil {
			oe.Code = *e.Error
		}
		return oe
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return &OAuthError{Status: resp.StatusCode, Code: "empty_answer"}
	}
	return json.Unmarshal(raw, out)
}
