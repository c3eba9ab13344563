package oauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// lifetimeKey is the store value holding the API token lifetime; a reset
// empties the store, so the default comes back with the fixtures.
const lifetimeKey = "oauth.apiTokenLifetime"

// Limits on the configurable API token lifetime.
const (
	MinTokenLifetime = time.Second
	MaxTokenLifetime = 30 * 24 * time.Hour
)

// Settings is the data of GET and PUT /_sandbox/oauth: the handshake's
// facts, of which the API token lifetime can be changed.
type Settings struct {
	APITokenLifetime        string `json:"apiTokenLifetime"`        // Go duration, e.g. "30m0s"
	APITokenLifetimeSeconds int64  `json:"apiTokenLifetimeSeconds"` // what getAccessToken answers in expires_in
	CodeValidity            string `json:"codeValidity"`            // how long an install code can be exchanged, a Go duration
	CodeLength              int    `json:"codeLength"`              // the install code's length in characters
	MaxAPITokens            int    `json:"maxApiTokens"`            // how many valid API tokens an add-on may hold at once per e-shop
}

// ControlRoutes are the OAuth settings routes under /_sandbox/.
func (s *Server) ControlRoutes() []api.Route {
	return []api.Route{
		{Operation: "sandbox.oauth.get", Method: http.MethodGet, Summary: "OAuth server facts: code validity and length, API token lifetime, tokens per add-on", Path: "/_sandbox/oauth", Handler: s.getSettings, Answer: Settings{}},
		{Operation: "sandbox.oauth.put", Method: http.MethodPut, Summary: "Change the OAuth facts, e.g. {\"apiTokenLifetime\":\"10m\"}", Path: "/_sandbox/oauth", Handler: s.putSettings, Answer: Settings{}, Body: SettingsBody{}},
	}
}

// TokenLifetime is the API token lifetime in force.
func (s *Server) TokenLifetime() time.Duration {
	d := DefaultTokenLifetime
	_ = s.store.View(func(tx *store.Tx) error { d = lifetime(tx); return nil })
	return d
}

// SetTokenLifetime changes the lifetime of API tokens issued from now on;
// tokens already issued keep theirs.
func (s *Server) SetTokenLifetime(d time.Duration) error {
	if d < MinTokenLifetime || d > MaxTokenLifetime {
		return sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "apiTokenLifetime",
			"apiTokenLifetime must be between %s and %s, not %s.", MinTokenLifetime, MaxTokenLifetime, d)
	}
	return s.store.Update(func(tx *store.Tx) error { return tx.SetValue(lifetimeKey, d.String()) })
}

func (s *Server) settings() Settings {
	d := s.TokenLifetime()
	return Settings{APITokenLifetime: d.String(), APITokenLifetimeSeconds: int64(d.Seconds()),
		CodeValidity: CodeValidity.String(), CodeLength: CodeLength, MaxAPITokens: MaxAPITokens}
}

func (s *Server) getSettings(*api.Request) (any, error) { return s.settings(), nil }

// putSettings takes {"apiTokenLifetime": "10m"} or a number of seconds.
// SettingsBody is the body of PUT /_sandbox/oauth.
type SettingsBody struct {
	APITokenLifetime any `json:"apiTokenLifetime" doc:"The API token lifetime: a duration such as 30m, or a whole number of seconds."`
}

func (s *Server) putSettings(r *api.Request) (any, error) {
	m, err := r.Body()
	if err != nil {
		return nil, err
	}
	for k := range m {
		if k != "apiTokenLifetime" {
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, k, "Field %s cannot be set; only apiTokenLifetime can.", k)
		}
	}
	d, err := parseLifetime(m["apiTokenLifetime"])
	if err != nil {
		return nil, err
	}
	if err := s.SetTokenLifetime(d); err != nil {
		return nil, err
	}
	return s.settings(), nil
}

func parseLifetime(v any) (time.Duration, error) {
	bad := func(format string, args ...any) error {
		return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "apiTokenLifetime", "%s", fmt.Sprintf(format, args...))
	}
	switch t := v.(type) {
	case string:
		d, err := time.ParseDuration(t)
		if err != nil {
			return 0, bad("apiTokenLifetime %q is not a duration such as \"30m\" or \"2h\".", t)
		}
		return d, nil
	case json.Number:
		n, err := t.Int64()
		if err != nil || n < 0 || n > int64(MaxTokenLifetime/time.Second) {
			return 0, bad("apiTokenLifetime %s must be a whole number of seconds between 1 and %d.", t, int64(MaxTokenLifetime/time.Second))
		}
		return time.Duration(n) * time.Second, nil
	case nil:
		return 0, bad(`apiTokenLifetime is missing: send {"apiTokenLifetime": "30m"}.`)
	}
	return 0, bad("apiTokenLifetime must be a duration string or a number of seconds.")
}
