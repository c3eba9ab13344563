// Package eshop knows what the sandbox needs about each e-shop to answer
// a request: its address, its languages (for the language parameter) and
// its currencies. The facts come from the seeded eshop.json and live in
// the store's global "eshops" collection.
package eshop

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Collection is the global store collection of e-shop metadata.
const Collection = "eshops"

// InfoCollection is the per-e-shop collection of singleton documents
// ("info", "customer-fields", "order-statuses").
const InfoCollection = "eshop"

// Meta is the sandbox's summary of one e-shop.
type Meta struct {
	ID              int      `json:"eshopId"`
	Name            string   `json:"name"`
	DefaultLanguage string   `json:"defaultLanguage"`
	Languages       []string `json:"languages"`
	// Modules are the names of the e-shop's active modules (GET /api/eshop
	// activeModules): the endpoints that need one answer 403 without it,
	// and language is effective only with ModuleForeignLanguages.
	Modules         []string `json:"modules"`
	Currencies      []string `json:"currencies"`
	DefaultCurrency string   `json:"defaultCurrency"`
}

// Site knows the sandbox's public addresses.
type Site struct {
	BaseURL string // e.g. http://127.0.0.1:8080
}

// EshopPath is the path prefix of an e-shop's own address (its OAuth
// server, storefront pages): {eshop_url} = BaseURL + EshopPath(id).
func EshopPath(id int) string { return "/eshops/" + strconv.Itoa(id) }

// EshopURL is an e-shop's own address.
func (s Site) EshopURL(id int) string { return s.BaseURL + EshopPath(id) }

// Get loads an e-shop's metadata.
func Get(tx *store.Tx, id int) (*Meta, error) {
	raw, err := tx.Get(store.Global, Collection, strconv.Itoa(id))
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, err
	}
	var m Meta
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("e-shop %d metadata: %w", id, err)
	}
	if m.Modules == nil { // a data file seeded before the summary kept modules
		active, err := Modules(tx, id)
		if err != nil {
			return nil, err
		}
		m.Modules = []string{}
		for _, a := range active {
			m.Modules = append(m.Modules, a.Name)
		}
	}
	return &m, nil
}

// notFound is the 404 of an e-shop id that does not exist.
func notFound(id int) error {
	return sandbox.NotFound(strconv.Itoa(id), "E-shop %d does not exist.", id)
}

// Put stores an e-shop's metadata.
func Put(tx *store.Tx, m *Meta) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = tx.Put(store.Global, Collection, strconv.Itoa(m.ID), raw)
	return err
}

// List returns every e-shop's metadata in seeding order.
func List(tx *store.Tx) ([]*Meta, error) {
	var out []*Meta
	var ferr error
	err := tx.Scan(store.Global, Collection, func(_ string, doc []byte) bool {
		var m Meta
		if ferr = json.Unmarshal(doc, &m); ferr != nil {
			return false
		}
		out = append(out, &m)
		return true
	})
	if err == nil {
		err = ferr
	}
	return out, err
}

// Language resolves the language query parameter: "" (default texts) when
// absent, equal to the default language or when the foreign-languages
// module is off; the code otherwise. An unknown code answers 400.
func (m *Meta) Language(param string) (string, error) {
	param = strings.TrimSpace(param)
	if param == "" {
		return "", nil
	}
	if !slices.Contains(m.Languages, param) {
		return "", sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "language",
			"Language %q is not a language of this e-shop; it has %s.", param, strings.Join(m.Languages, ", "))
	}
	if param == m.DefaultLanguage || !m.ForeignLanguages() {
		return "", nil
	}
	return param, nil
}

// HasCurrency reports whether code is one of the e-shop's currencies.
func (m *Meta) HasCurrency(code string) bool { return slices.Contains(m.Currencies, code) }
