package crud

import (
	"errors"
	"slices"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// EshopInfo is the e-shop's information (data of GET /api/eshop).
func (c *Ctx) EshopInfo() (map[string]any, error) {
	return c.Esh.Single(c.Tx, c.R.Eshop, "info")
}

// Setting returns a settings document ("_id" in the settings collection),
// rendered; nil when the e-shop has none.
func (c *Ctx) Setting(id string) (map[string]any, error) {
	raw, err := c.Tx.Get(c.R.Eshop, "settings", id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return api.Render(raw, c.Esh.View())
}

// HasModule reports whether the e-shop runs an active module.
func HasModule(info map[string]any, name string) bool {
	mods, _ := info["activeModules"].([]any)
	return slices.ContainsFunc(mods, func(m any) bool {
		mm, _ := m.(map[string]any)
		return mm["name"] == name
	})
}
