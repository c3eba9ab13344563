package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckAddons: an add-on the scenario names must be in its fixtures
// (in that e-shop) or defined by its addon section; otherwise validation
// names it, where it is written, and how to define it.
func TestCheckAddons(t *testing.T) {
	own := t.TempDir()
	if err := os.MkdirAll(filepath.Join(own, "fixtures", "eshops", "7"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, "fixtures", "eshops", "7", "credentials.json"), []byte(`{"addons":[{"name":"house-addon"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, yaml, dir string
		want            string // "" when valid
	}{
		{"a fixtures' add-on", "name: x\naddon: {name: example-addon, eshop: 1001}\nsteps: [{install: {}}]\n", "", ""},
		{"a fixtures' add-on, any e-shop", "name: x\naddon: {name: example-addon}\nsteps: [{wait: 1ms}]\n", "", ""},
		{"defined by installUrl", "name: x\naddon: {name: my-addon, eshop: 1001, installUrl: \"http://127.0.0.1:${ADDON_PORT}/install\"}\nsteps: [{install: {}}]\n", "", ""},
		{"defined by url", "name: x\naddon: {name: my-addon, eshop: 1002, url: \"http://127.0.0.1:${ADDON_PORT}\"}\nsteps: [{install: {}}]\n", "", ""},
		{"unknown and undefined", "name: x\naddon:\n  name: my-addon\n  eshop: 1001\nsteps: [{install: {}}]\n", "",
			`s.yaml:3:9: addon.name: add-on "my-addon" is not in the embedded fixtures of e-shop 1001 (they have: example-addon); define it here with installUrl (or url)`},
		{"in the fixtures of another e-shop", "name: x\naddon: {name: example-addon, eshop: 1002}\nsteps: [{install: {}}]\n", "",
			`add-on "example-addon" is not in the embedded fixtures of e-shop 1002 (they have: none)`},
		{"an install step naming another add-on", "name: x\naddon: {name: my-addon, eshop: 1001, url: \"http://127.0.0.1:${ADDON_PORT}\"}\nsteps:\n  - install: {addon: other-addon}\n", "",
			`s.yaml:4:22: steps[0].install.addon: add-on "other-addon" is not in the embedded fixtures of e-shop 1001`},
		{"the scenario's own fixtures", "name: x\nfixtures: fixtures\naddon: {name: house-addon, eshop: 7}\nsteps: [{wait: 1ms}]\n", own, ""},
		{"not in the scenario's own fixtures", "name: x\nfixtures: fixtures\naddon: {name: example-addon, eshop: 7}\nsteps: [{wait: 1ms}]\n", own,
			`fixtures of e-shop 7 (they have: house-addon)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir
			if dir == "" {
				dir = t.TempDir()
			}
			sc, err := Parse(filepath.Join(dir, "s.yaml"), []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			ps := sc.CheckAddons()
			if c.want == "" {
				if len(ps) > 0 {
					t.Fatalf("refused: %v", ps)
				}
				return
			}
			if len(ps) != 1 || !strings.Contains(ps.Error(), c.want) {
				t.Fatalf("problems %v, want %q", ps, c.want)
			}
		})
	}
}

// TestAddonSectionRules: the new keys of the addon section are checked
// with their positions.
func TestAddonSectionRules(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"credentials by halves", "name: x\naddon: {name: a, eshop: 1001, url: \"http://x\", clientId: c}\n", "addon: give clientId and clientSecret together"},
		{"installUrl and installPath", "name: x\naddon: {name: a, eshop: 1001, url: \"http://x\", installUrl: \"http://x/i\", installPath: /i}\n", "installUrl names the install URL already"},
		{"webhookUrl and webhookPath", "name: x\naddon: {name: a, eshop: 1001, webhookUrl: \"http://x/w\", webhookPath: /w, url: \"http://x\"}\n", "webhookUrl names the webhook URL already"},
		{"no e-shop to register in", "name: x\naddon: {name: a, installUrl: \"http://x/i\"}\n", "addon.installUrl: which e-shop is the add-on registered in? give addon.eshop"},
		{"a misspelt endpoint", "name: x\naddon: {name: a, eshop: 1001, url: \"http://x\", endpoints: [GetOrderDetial, \"PATCH /api/orders/{code}/status\"]}\n", `2:60: addon.endpoints[0]: "GetOrderDetial" is not an operation of the endpoint catalogue; did you mean "GetOrderDetail"?`},
		{"endpoints neither all nor a list", "name: x\naddon: {name: a, eshop: 1001, url: \"http://x\", endpoints: some}\n", "addon.endpoints"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("s.yaml", []byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	sc, err := Parse("s.yaml", []byte("name: x\naddon: {name: a, eshop: 1001, url: \"http://x\", endpoints: all, clientId: \"${ID}\", clientSecret: s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Addon.Endpoints.All || sc.Addon.Endpoints.Body() != "all" {
		t.Fatalf("endpoints %+v", sc.Addon.Endpoints)
	}
	if ps := sc.CheckVars(nil); len(ps) != 1 || !strings.Contains(ps[0].Message, "addon.clientId: variable ID is not set") {
		t.Fatalf("clientId is expanded: %v", ps)
	}
}
