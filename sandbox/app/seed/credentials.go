package seed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// credentials is the fixture form of credentials.json.
type credentials struct {
	PrivateTokens []struct {
		Name   string          `json:"name"`
		Token  string          `json:"token"`
		Rights json.RawMessage `json:"rights"`
	} `json:"privateTokens"`
	Addons []struct {
		auth.Addon
		Endpoints []struct {
			Endpoint string `json:"endpoint"`
			Approved bool   `json:"approved"`
			Action   string `json:"action"`
		} `json:"endpoints"`
		APITokens []struct {
			Token     string `json:"token"`
			ExpiresAt string `json:"expiresAt"`
		} `json:"apiTokens"`
	} `json:"addons"`

	tokens []auth.Token
	addons []auth.Addon
}

func (l *Loader) readCredentials(id int, file string, raw []byte) (*credentials, error) {
	c := &credentials{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		return nil, &Error{File: l.path(file), Line: lineAt(raw, int(dec.InputOffset())), Reason: err.Error()}
	}
	fail := func(key, format string, args ...any) error {
		return &Error{File: l.path(file), Line: lineOf(raw, key), Reason: fmt.Sprintf(format, args...)}
	}
	seen := map[string]bool{}
	checkToken := func(tok string) error {
		if len(tok) < 16 || strings.ContainsAny(tok, ":*? ") {
			return fail(tok, "token %q must be at least 16 characters without spaces, ':', '*' or '?'", tok)
		}
		if seen[tok] {
			return fail(tok, "token %q is used twice", tok)
		}
		seen[tok] = true
		return nil
	}
	for _, p := range c.PrivateTokens {
		if err := checkToken(p.Token); err != nil {
			return nil, err
		}
		all, rights, err := auth.ParseRights(p.Rights, l.Groups)
		if err != nil {
			return nil, fail(p.Token, "private token %q: %v", p.Name, err)
		}
		c.tokens = append(c.tokens, auth.Token{Token: p.Token, EshopID: id, Kind: auth.KindPrivate, Name: p.Name, AllGroups: all, Rights: rights})
	}
	for _, a := range c.Addons {
		ad := a.Addon
		if ad.Name == "" || ad.ClientID == "" || ad.ClientSecret == "" {
			return nil, fail("addons", "every add-on needs name, clientId and clientSecret")
		}
		if strings.ContainsAny(ad.Name, ":*? /") {
			return nil, fail(ad.Name, "add-on name %q must not contain spaces, '/', ':', '*' or '?'", ad.Name)
		}
		if ad.Status == "" {
			ad.Status = "installed"
		}
		ad.Endpoints = nil
		for _, e := range a.Endpoints {
			op, ok := e.Endpoint, true
			if l.Operation != nil {
				op, ok = l.Operation(e.Endpoint)
			}
			if !ok {
				return nil, fail(e.Endpoint, "add-on %s: unknown endpoint %q (write an operation name such as GetListOfOrders or \"GET /api/orders\")", ad.Name, e.Endpoint)
			}
			switch e.Action {
			case "", "add", "edit", "delete":
			default:
				return nil, fail(e.Endpoint, "add-on %s: action %q must be add, edit or delete", ad.Name, e.Action)
			}
			action := e.Action
			if !e.Approved && action == "" {
				action = "add"
			}
			if e.Approved {
				action = ""
			}
			ad.Endpoints = append(ad.Endpoints, auth.EndpointGrant{Endpoint: op, Approved: e.Approved, Action: action})
		}
		c.addons = append(c.addons, ad)
		for _, t := range a.APITokens {
			if err := checkToken(t.Token); err != nil {
				return nil, err
			}
			exp, err := sandbox.ParseTime(t.ExpiresAt)
			if err != nil {
				return nil, fail(t.Token, "add-on %s: expiresAt %q is not a date-time like 2099-12-31T23:59:59+0000", ad.Name, t.ExpiresAt)
			}
			c.tokens = append(c.tokens, auth.Token{Token: t.Token, EshopID: id, Kind: auth.KindAddon, Addon: ad.Name, ExpiresAt: &exp})
		}
	}
	return c, nil
}

func (c *credentials) write(tx *store.Tx, id int) error {
	for i := range c.tokens {
		t := &c.tokens[i]
		if _, err := auth.GetToken(tx, t.Token); err == nil {
			return fmt.Errorf("e-shop %d: token %q is already used by another e-shop", id, t.Token)
		}
		if err := auth.PutToken(tx, t); err != nil {
			return err
		}
	}
	for i := range c.addons {
		if err := auth.PutAddon(tx, id, &c.addons[i]); err != nil {
			return err
		}
	}
	return nil
}

// AddonNames lists the add-ons an e-shop's fixtures configure
// (eshops/<id>/credentials.json of fsys), for checks made before any
// sandbox is seeded, such as a scenario naming the add-on it tests. ok is
// false when the fixtures have no such e-shop or its file cannot be read
// (the seeding then says what is wrong).
func AddonNames(fsys fs.FS, eshopID int) (names []string, ok bool) {
	raw, err := fs.ReadFile(fsys, "eshops/"+strconv.Itoa(eshopID)+"/"+FileCredentials)
	if errors.Is(err, fs.ErrNotExist) {
		if _, err := fs.Stat(fsys, "eshops/"+strconv.Itoa(eshopID)); err == nil {
			return nil, true // an e-shop without credentials has no add-on
		}
		return nil, false
	}
	if err != nil {
		return nil, false
	}
	var c struct {
		Addons []struct {
			Name string `json:"name"`
		} `json:"addons"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return nil, false
	}
	for _, a := range c.Addons {
		names = append(names, a.Name)
	}
	return names, true
}

// EshopIDs lists the e-shops of a fixture set (the numeric folders under
// eshops/), in ascending order.
func EshopIDs(fsys fs.FS) []int {
	entries, _ := fs.ReadDir(fsys, "eshops")
	var out []int
	for _, e := range entries {
		if id, err := strconv.Atoi(e.Name()); err == nil && e.IsDir() {
			out = append(out, id)
		}
	}
	sort.Ints(out)
	return out
}
