// Package oauth is the e-shop's OAuth server: the half of the add-on
// install handshake that the add-on calls. It serves, at every e-shop's
// own address {eshop_url},
//
//	POST {eshop_url}/action/ApiOAuthServer/token           code -> OAuth access token
//	GET  {eshop_url}/action/ApiOAuthServer/getAccessToken  OAuth token -> API access token
//
// with the reference's field names (client_id, client_secret, code,
// redirect_uri, grant_type, scope; access_token, expires_in, error).
// Install codes are 255 characters, single use and valid for 5 minutes on
// the sandbox clock; at most 5 API tokens of one add-on are valid in one
// e-shop at a time. Codes and OAuth tokens are bound to the e-shop that
// issued them, whichever e-shop address receives them: an add-on has one
// OAuth server address, as in the real add-on administration.
//
// Every code exchange, accepted or refused, is reported to observers (the
// install driver in sandbox/shop/addons judges the handshake from them).
package oauth

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Facts of the handshake. The spec gives the code length and the token
// limit; the code validity and the API token lifetime are the sandbox's
// choice (the spec says "short validity" and leaves the lifetime open).
const (
	CodeLength           = 255              // characters of an install code
	CodeValidity         = 5 * time.Minute  // an install code can be exchanged this long
	MaxAPITokens         = 5                // valid API tokens per add-on and e-shop
	DefaultTokenLifetime = 30 * time.Minute // API token lifetime unless changed via PUT /_sandbox/oauth

	// codeRetention keeps a used or expired code this long after its
	// validity, so a repeated or late exchange is told exactly what is
	// wrong instead of "unknown code".
	codeRetention = time.Hour
	// expiredRetention keeps an expired API token this long, so calls
	// with it answer expired-token (then invalid-token, once forgotten).
	expiredRetention = 24 * time.Hour
)

// Addresses of the OAuth server relative to {eshop_url}.
const (
	TokenPath       = "/action/ApiOAuthServer/token"
	AccessTokenPath = "/action/ApiOAuthServer/getAccessToken"
)

// Store collections (global: the request that brings a code or an OAuth
// token does not say which e-shop it belongs to).
const (
	CodesCollection  = "oauth-codes"  // install code -> Code
	GrantsCollection = "oauth-tokens" // OAuth access token -> Grant
)

// Server is the OAuth server of every e-shop.
type Server struct {
	store *store.Store
	ids   *sandbox.IDs
	site  *eshop.Site

	mu        sync.RWMutex
	observers []func(Exchange)
}

// New builds the OAuth server.
func New(st *store.Store, ids *sandbox.IDs, site *eshop.Site) *Server {
	return &Server{store: st, ids: ids, site: site}
}

// Observe registers fn to hear of every code exchange after it was
// decided (and committed), before the add-on gets the answer. fn must
// return quickly.
func (s *Server) Observe(fn func(Exchange)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observers = append(s.observers, fn)
}

func (s *Server) notify(ex Exchange) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, fn := range s.observers {
		fn(ex)
	}
}

// Routes are the OAuth server's routes relative to {eshop_url}; they are
// public (the add-on authenticates with its client secret or OAuth token).
func (s *Server) Routes() []api.Route {
	return []api.Route{
		{Operation: "oauth.token", Method: http.MethodPost, Path: TokenPath, Handler: s.token},
		{Operation: "oauth.getAccessToken", Method: http.MethodGet, Path: AccessTokenPath, Handler: s.accessToken},
	}
}

// TokenURL is where add-ons of an e-shop exchange their install code.
func (s *Server) TokenURL(eshopID int) string { return s.site.EshopURL(eshopID) + TokenPath }

// AccessTokenURL is where add-ons of an e-shop obtain API tokens.
func (s *Server) AccessTokenURL(eshopID int) string {
	return s.site.EshopURL(eshopID) + AccessTokenPath
}

// rawJSON is a non-envelope JSON answer: the OAuth endpoints answer in
// OAuth's own shape, as the reference describes.
func rawJSON(status int, v any) *api.Raw {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"error":"server_error"}`)
		status = http.StatusInternalServerError
	}
	return &api.Raw{Status: status, ContentType: "application/json", Body: b}
}

// Error is a refusal by the OAuth server: an HTTP status, the OAuth error
// value, a machine-readable reason and a sentence for the developer.
type Error struct {
	Status      int
	Code        string // OAuth "error" value, e.g. invalid_grant
	Reason      string // one of the Reason* constants
	Description string
}

// Error implements the error interface.
func (e *Error) Error() string { return e.Code + ": " + e.Description }

func refuse(status int, code, reason, description string) *Error {
	return &Error{Status: status, Code: code, Reason: reason, Description: description}
}
