package eshop

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Context is the per-request rendering context: the e-shop's addresses and
// the resolved language.
type Context struct {
	Meta     *Meta
	Language string
	BaseURL  string
	EshopURL string
}

// NewContext resolves the e-shop and the language parameter of a request.
func NewContext(tx *store.Tx, r *api.Request, site *Site) (*Context, error) {
	meta, err := Get(tx, r.Eshop)
	if err != nil {
		return nil, err
	}
	lang, err := meta.Language(r.Query("language"))
	if err != nil {
		return nil, err
	}
	return &Context{Meta: meta, Language: lang, BaseURL: site.BaseURL, EshopURL: site.EshopURL(r.Eshop)}, nil
}

// View returns the api.View of this context.
func (c *Context) View() api.View {
	return api.View{Language: c.Language, BaseURL: c.BaseURL, EshopURL: c.EshopURL}
}
