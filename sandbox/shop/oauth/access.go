package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// accessResponse is the reference's answer of getAccessToken. Refusals
// carry the same keys (an empty token, expires_in 0) plus error and
// error_description, so a client decoding the success shape still sees
// the error value, which is what the reference's client checks.
type accessResponse struct {
	AccessToken string  `json:"access_token"`
	ExpiresIn   int64   `json:"expires_in"`
	Error       *string `json:"error"`
	Description string  `json:"error_description,omitempty"`
}

func accessRefusal(status int, code, description string) *api.Raw {
	return rawJSON(status, accessResponse{Error: &code, Description: description})
}

// accessToken serves GET {eshop_url}/action/ApiOAuthServer/getAccessToken:
// Authorization: Bearer <OAuth token> in, a new API token and its
// lifetime in seconds out. Unknown or revoked OAuth tokens answer 401; a
// sixth valid token answers 429 maximum_tokens_reached.
func (s *Server) accessToken(r *api.Request) (any, error) {
	scheme, tok, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	tok = strings.TrimSpace(tok)
	if !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return accessRefusal(http.StatusUnauthorized, "invalid_request",
			"Send the OAuth access token from the code exchange in the header Authorization: Bearer <token>."), nil
	}
	urlEshop, _ := strconv.Atoi(r.Var("eshopId"))
	var out *api.Raw
	err := s.store.Update(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, urlEshop); err != nil {
			out = accessRefusal(http.StatusNotFound, "invalid_request", fmt.Sprintf("There is no e-shop %d, so no OAuth server at this address.", urlEshop))
			return nil
		}
		g, ad, err := liveGrant(tx, tok)
		switch {
		case errors.Is(err, errNoGrant):
			out = accessRefusal(http.StatusUnauthorized, "invalid_token", "The OAuth access token is not known to the e-shop. Obtain one by exchanging the install code.")
			return nil
		case err != nil:
			return err
		case g.RevokedAt != nil:
			out = accessRefusal(http.StatusUnauthorized, "invalid_token",
				fmt.Sprintf("The OAuth access token was revoked at %s: %s.", sandbox.FormatTime(*g.RevokedAt), g.RevokedReason))
			return nil
		case ad == nil:
			out = accessRefusal(http.StatusUnauthorized, "invalid_token", fmt.Sprintf("The add-on %s is no longer configured in e-shop %d.", g.Addon, g.EshopID))
			return nil
		case ad.Status != auth.StatusInstalled && ad.Status != auth.StatusSuspended && ad.Status != "":
			out = accessRefusal(http.StatusUnauthorized, "invalid_token", fmt.Sprintf("The add-on %s is not installed in e-shop %d (status %s).", ad.Name, g.EshopID, ad.Status))
			return nil
		}
		valid, err := APITokens(tx, g.EshopID, g.Addon)
		if err != nil {
			return err
		}
		if len(valid) >= MaxAPITokens {
			out = accessRefusal(http.StatusTooManyRequests, "maximum_tokens_reached",
				fmt.Sprintf("%d API access tokens of %s are valid in e-shop %d, the most there may be at once; the earliest expires at %s. Reuse a token you hold until it answers expired-token.",
					len(valid), g.Addon, g.EshopID, sandbox.FormatTime(expiry(valid[0]))))
			return nil
		}
		d := lifetime(tx)
		t, err := s.issueAPIToken(tx, g, d)
		if err != nil {
			return err
		}
		out = rawJSON(http.StatusOK, accessResponse{AccessToken: t.Token, ExpiresIn: int64(d.Seconds())})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
