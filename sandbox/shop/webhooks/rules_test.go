package webhooks

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestCheckNew is the spec's registration rules (Events rule 2) plus the
// sandbox's own: system events, unknown names, bad URLs, duplicates.
func TestCheckNew(t *testing.T) {
	cat := NewCatalogue([]string{"order:create", "order:update", "order:cancel", "customer:update", "customer:disableOrders",
		"customer:enableOrders", "customer:create", "job:finished", "addon:suspend", "addon:uninstall"})
	const u = "https://addon.example.test/hook"
	for _, c := range []struct {
		name     string
		existing map[string][]string
		regs     []Registration
		kind     sandbox.Kind // 0 (internal) means no error expected
		instance string
	}{
		{"several at once", nil, []Registration{{"order:create", u}, {"job:finished", u}, {"customer:create", u}}, 0, ""},
		{"order update with cancel", nil, []Registration{{"order:update", u}, {"order:cancel", u}}, sandbox.KindConflict, "data"},
		{"order cancel after update", map[string][]string{"order:update": {u}}, []Registration{{"order:cancel", "https://other.test/"}}, sandbox.KindConflict, "data"},
		{"customer update with disableOrders", nil, []Registration{{"customer:update", u}, {"customer:disableOrders", u}}, sandbox.KindConflict, "data"},
		{"customer enableOrders after update", map[string][]string{"customer:update": {u}}, []Registration{{"customer:enableOrders", u}}, sandbox.KindConflict, "data"},
		{"customer disable and enable", nil, []Registration{{"customer:disableOrders", u}, {"customer:enableOrders", u}}, 0, ""},
		{"duplicate in request", nil, []Registration{{"order:create", u}, {"order:create", u}}, sandbox.KindConflict, "data[1]"},
		{"duplicate of existing", map[string][]string{"order:create": {u}}, []Registration{{"order:create", u}}, sandbox.KindConflict, "data[0]"},
		{"same event, other URL", map[string][]string{"order:create": {u}}, []Registration{{"order:create", u + "2"}}, 0, ""},
		{"system event", nil, []Registration{{"addon:suspend", u}}, sandbox.KindInvalid, "data[0].event"},
		{"unknown event", nil, []Registration{{"order:explode", u}}, sandbox.KindInvalid, "data[0].event"},
		{"no event", nil, []Registration{{"", u}}, sandbox.KindInvalid, "data[0].event"},
		{"relative URL", nil, []Registration{{"order:create", "/hook"}}, sandbox.KindInvalid, "data[0].url"},
		{"ftp URL", nil, []Registration{{"order:create", "ftp://x.test/"}}, sandbox.KindInvalid, "data[0].url"},
		{"empty list", nil, nil, sandbox.KindInvalid, "data"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := cat.CheckNew(c.existing, c.regs)
			if c.kind == 0 {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			e := sandbox.AsError(err)
			if err == nil || e.Kind != c.kind || e.Instance != c.instance || e.Message == "" {
				t.Fatalf("got %+v, want kind %v at %s", err, c.kind, c.instance)
			}
		})
	}
}
