package oauth

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Reasons a code exchange is refused. The install driver turns them into
// the handshake report's explanations.
const (
	ReasonUnknownEshop = "unknown-eshop" // the address names no e-shop
	ReasonBadRequest   = "bad-request"   // body unreadable or a field missing
	ReasonGrantType    = "grant-type"    // grant_type is not authorization_code
	ReasonScope        = "scope"         // scope is not api
	ReasonCodeLength   = "code-length"   // the code is not 255 characters long
	ReasonUnknownCode  = "unknown-code"  // no such code (never issued, or long gone)
	ReasonExpiredCode  = "expired-code"  // older than CodeValidity
	ReasonUsedCode     = "used-code"     // exchanged before: codes are single use
	ReasonClientID     = "client-id"     // not the client id of the code's add-on
	ReasonClientSecret = "client-secret" // wrong client secret
	ReasonRedirectURI  = "redirect-uri"  // not the add-on's registered redirect URI
	ReasonAddonGone    = "addon-gone"    // the add-on is no longer configured
)

// Exchange is one code exchange attempt as observers hear of it.
type Exchange struct {
	Time        string `json:"time"`                  // sandbox clock, the service's date-time format
	URL         string `json:"url"`                   // the address the add-on posted to
	EshopID     int    `json:"eshopId,omitempty"`     // e-shop of the code (0 when the code is unknown)
	InstallID   string `json:"installId,omitempty"`   // install that sent the code
	Addon       string `json:"addon,omitempty"`       // the add-on whose client id was sent
	ClientID    string `json:"clientId,omitempty"`    // as sent
	Status      int    `json:"status"`                // HTTP status of the answer
	Accepted    bool   `json:"accepted"`              // whether the OAuth server gave a token
	Error       string `json:"error,omitempty"`       // OAuth error value
	Reason      string `json:"reason,omitempty"`      // Reason* constant
	Description string `json:"description,omitempty"` // the OAuth error_description
}

// tokenRequest holds the reference's code-exchange fields.
type tokenRequest struct {
	ClientID, ClientSecret, Code, RedirectURI, GrantType, Scope string
}

// tokenResponse is a successful exchange. The reference knows
// access_token; token_type and scope are OAuth 2.0's usual companions.
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	Scope       string `json:"scope"`
}

// errorResponse is a refused exchange, in OAuth 2.0's error shape.
type errorResponse struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// token serves POST {eshop_url}/action/ApiOAuthServer/token.
func (s *Server) token(r *api.Request) (any, error) {
	ex := Exchange{Time: sandbox.FormatTime(s.store.Clock().Now()), URL: s.site.BaseURL + r.URL.Path}
	grant, err := s.exchange(r, &ex)
	var oe *Error
	if errors.As(err, &oe) {
		ex.Status, ex.Error, ex.Reason, ex.Description = oe.Status, oe.Code, oe.Reason, oe.Description
		s.notify(ex)
		return rawJSON(oe.Status, errorResponse{Error: oe.Code, Description: oe.Description}), nil
	}
	if err != nil {
		return nil, err
	}
	ex.Status, ex.Accepted = http.StatusOK, true
	s.notify(ex)
	return rawJSON(http.StatusOK, tokenResponse{AccessToken: grant.Token, TokenType: "bearer", Scope: "api"}), nil
}

// exchange checks a code exchange and, when it is right, marks the code
// used and issues the OAuth access token, in one transaction.
func (s *Server) exchange(r *api.Request, ex *Exchange) (*Grant, error) {
	urlEshop, _ := strconv.Atoi(r.Var("eshopId"))
	req, err := parseTokenRequest(r.Request.Header.Get("Content-Type"), r.RawBody())
	if req != nil {
		ex.ClientID = req.ClientID
	}
	if err != nil {
		return nil, err
	}
	var grant *Grant
	err = s.store.Update(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, urlEshop); err != nil {
			return refuse(http.StatusNotFound, "invalid_request", ReasonUnknownEshop,
				fmt.Sprintf("There is no e-shop %d, so no OAuth server at this address.", urlEshop))
		}
		c, err := getCode(tx, req.Code)
		if errors.Is(err, sandbox.ErrNotFound) {
			return refuse(http.StatusBadRequest, "invalid_grant", ReasonUnknownCode,
				"The code is not known to the e-shop. Send the code parameter of the install request unchanged; every install sends a new one.")
		}
		if err != nil {
			return err
		}
		ex.EshopID, ex.InstallID, ex.Addon = c.EshopID, c.InstallID, c.Addon
		ad, err := auth.GetAddon(tx, c.EshopID, c.Addon)
		if errors.Is(err, sandbox.ErrNotFound) {
			return refuse(http.StatusBadRequest, "invalid_grant", ReasonAddonGone,
				fmt.Sprintf("The add-on %s the code was issued to is no longer configured in e-shop %d.", c.Addon, c.EshopID))
		}
		if err != nil {
			return err
		}
		if err := checkClient(req, ad, c); err != nil {
			return err
		}
		now := tx.Now()
		if !now.Before(c.ExpiresAt) {
			return refuse(http.StatusBadRequest, "invalid_grant", ReasonExpiredCode,
				fmt.Sprintf("The code expired at %s: a code is valid for %s after the install request. Exchange it while handling the install request.",
					sandbox.FormatTime(c.ExpiresAt), CodeValidity))
		}
		c.UsedAt = &now
		if err := putCode(tx, req.Code, c); err != nil {
			return err
		}
		grant, err = s.grant(tx, c, ad)
		return err
	})
	return grant, err
}

// checkClient authenticates the add-on and checks that the code is
// its own, unused, and that the redirect URI is the registered one.
func checkClient(req *tokenRequest, ad *auth.Addon, c *Code) error {
	if req.ClientID != ad.ClientID {
		return refuse(http.StatusUnauthorized, "invalid_client", ReasonClientID,
			fmt.Sprintf("client_id %q is not the client id of the add-on %s the code was issued to (%s).", req.ClientID, ad.Name, ad.ClientID))
	}
	if subtle.ConstantTimeCompare([]byte(req.ClientSecret), []byte(ad.ClientSecret)) != 1 {
		return refuse(http.StatusUnauthorized, "invalid_client", ReasonClientSecret,
			fmt.Sprintf("client_secret is not the client secret of the add-on %s (GET /_sandbox/eshops shows it).", ad.Name))
	}
	if req.RedirectURI != ad.RedirectURI {
		return refuse(http.StatusBadRequest, "invalid_grant", ReasonRedirectURI,
			fmt.Sprintf("redirect_uri %q differs from the add-on's registered redirect URI %q; they must be equal character for character.", req.RedirectURI, ad.RedirectURI))
	}
	if c.UsedAt != nil {
		return refuse(http.StatusBadRequest, "invalid_grant", ReasonUsedCode,
			fmt.Sprintf("The code was already exchanged at %s; a code is single use. Keep the OAuth access token from the first exchange.", sandbox.FormatTime(*c.UsedAt)))
	}
	return nil
}

// parseTokenRequest reads the exchange fields from a JSON body (what the
// reference's client sends) or a form body (what generic OAuth libraries
// send). A missing or malformed field is invalid_request naming it.
func parseTokenRequest(contentType string, raw []byte) (*tokenRequest, error) {
	fields := map[string]string{}
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/x-www-form-urlencoded" {
		vals, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, refuse(http.StatusBadRequest, "invalid_request", ReasonBadRequest, "The form body could not be parsed: "+err.Error()+".")
		}
		for k := range vals {
			fields[k] = vals.Get(k)
		}
	} else {
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil || m == nil {
			return nil, refuse(http.StatusBadRequest, "invalid_request", ReasonBadRequest,
				"The body must be a JSON object with client_id, client_secret, code, redirect_uri, grant_type and scope (Content-Type: application/json).")
		}
		for k, v := range m {
			s, ok := v.(string)
			if !ok {
				return nil, refuse(http.StatusBadRequest, "invalid_request", ReasonBadRequest, fmt.Sprintf("Field %s must be a string.", k))
			}
			fields[k] = s
		}
	}
	req := &tokenRequest{ClientID: fields["client_id"], ClientSecret: fields["client_secret"], Code: fields["code"],
		RedirectURI: fields["redirect_uri"], GrantType: fields["grant_type"], Scope: fields["scope"]}
	for _, f := range []struct{ name, val string }{{"client_id", req.ClientID}, {"client_secret", req.ClientSecret}, {"code", req.Code}, {"redirect_uri", req.RedirectURI}} {
		if f.val == "" {
			return req, refuse(http.StatusBadRequest, "invalid_request", ReasonBadRequest, fmt.Sprintf("Field %s is missing; the exchange needs client_id, client_secret, code and redirect_uri.", f.name))
		}
	}
	if req.GrantType != "" && req.GrantType != "authorization_code" {
		return req, refuse(http.StatusBadRequest, "unsupported_grant_type", ReasonGrantType, fmt.Sprintf("grant_type must be authorization_code, not %q.", req.GrantType))
	}
	if req.Scope != "" && req.Scope != "api" {
		return req, refuse(http.StatusBadRequest, "invalid_scope", ReasonScope, fmt.Sprintf("scope must be api, not %q.", req.Scope))
	}
	if n := len([]rune(req.Code)); n != CodeLength {
		return req, refuse(http.StatusBadRequest, "invalid_grant", ReasonCodeLength,
			fmt.Sprintf("The code has %d characters; the e-shop's codes have exactly %d. Pass the code parameter of the install request on unchanged.", n, CodeLength))
	}
	return req, nil
}
