package scenario

import (
	"strings"
	"testing"
)

// TestCatalogueNames: operation and event names are checked against the
// endpoint and webhook catalogues, with file:line:column and the closest
// known name.
func TestCatalogueNames(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       string // "" when the file is valid
	}{
		{"misspelt fault operation", "name: x\nfaults:\n  - name: a\n    match: {operation: GetOrderDetial}\n    close: true\n",
			`bad.yaml:4:24: faults[0].match.operation: "GetOrderDetial" is not an operation of the endpoint catalogue; did you mean "GetOrderDetail"?`},
		{"operation in lower camel case", "name: x\nsteps:\n  - expectRequest: {match: {operation: getOrderDetail}}\n",
			`bad.yaml:3:40: steps[0].expectRequest.match.operation: "getOrderDetail" is not an operation of the endpoint catalogue; did you mean "GetOrderDetail"?`},
		{"misspelt emitted event", "name: x\nsteps:\n  - emit: {eshop: 1001, event: \"order:craete\", instance: \"1\"}\n",
			`bad.yaml:3:32: steps[0].emit.event: "order:craete" is not an event of the webhook catalogue; did you mean "order:create"?`},
		{"the spec's review event", "name: x\nsteps:\n  - expectWebhookAck: {event: productReview:create}\n",
			`steps[0].expectWebhookAck.event: "productReview:create" is not an event of the webhook catalogue; did you mean "productReview:created"?`},
		{"webhook fault event", "name: x\nfaults:\n  - name: a\n    match: {event: \"order:paied\"}\n    webhook: {fault: duplicate}\n",
			`faults[0].match.event: "order:paied" is not an event of the webhook catalogue; did you mean "order:paid"?`},
		{"nothing close", "name: x\nsteps:\n  - expectBackoff: {match: {operation: Frobnicate}}\n",
			`steps[0].expectBackoff.match.operation: "Frobnicate" is not an operation of the endpoint catalogue (sandbox routes lists the operations)`},
		{"expectNoRequest too", "name: x\nsteps:\n  - expectNoRequest: {match: {operation: GetListOfOrder}}\n",
			`did you mean "GetListOfOrders"?`},
		{"known names", "name: x\nfaults:\n  - name: a\n    match: {operation: GetOrderDetail}\n    close: true\nsteps:\n  - emit: {eshop: 1001, event: \"addon:uninstall\", instance: \"example-addon\"}\n  - expectWebhookRejected: {event: \"job:finished\"}\n", ""},
		{"the sandbox's own routes", "name: x\nfaults:\n  - name: a\n    match: {operation: oauth.token}\n    close: true\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(c.yaml))
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"detial", "detail", 1}, {"craete", "create", 1},
		{"abc", "", 3}, {"kitten", "sitting", 3}, {"paied", "paid", 1},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestCheckVars: a variable nobody sets is named with its position and the
// --var flag that supplies it; the runner's own variables, --var values
// and the environment count as set.
func TestCheckVars(t *testing.T) {
	const file = `name: x
addon:
  name: example-addon
  eshop: 1001
  url: http://127.0.0.1:${ADDON_PORT}
  command: ["${SANDBOX_BIN}", "example-addon", "--sandbox", "${SANDBOX_URL}", "--token", "${MY_TOKEN}"]
  env: {HOME_DIR: "${SCENARIO_DIR}/home", EXTRA: "${FROM_ENV}"}
steps:
  - call: {eshop: 1001, path: "/api/orders/${ORDER_CODE}", body: {data: {url: "${ADDON_URL}/hook", shop: "${ESHOP_URL}"}}}
  - expectRequest: {header: {X-Trace: "${TRACE}"}}
`
	sc, err := Parse("s.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range sc.Vars() {
		names = append(names, u.Name)
	}
	if got := strings.Join(names, " "); got != "ADDON_PORT SANDBOX_BIN SANDBOX_URL MY_TOKEN SCENARIO_DIR FROM_ENV ORDER_CODE ADDON_URL ESHOP_URL TRACE" {
		t.Fatalf("variables in file order: %s", got)
	}
	t.Setenv("FROM_ENV", "set")
	ps := sc.CheckVars(map[string]string{"TRACE": "t1"})
	got := ps.Error()
	for _, want := range []string{
		`s.yaml:6:91: addon.command[5]: variable MY_TOKEN is not set: pass --var MY_TOKEN=VALUE (the runner itself sets SANDBOX_URL, SANDBOX_BIN, SANDBOX_HEADER_PREFIX, ADDON_PORT, ADDON_URL, ESHOP_URL, SCENARIO_DIR, SCENARIO_TMP, SANDBOX_ESHOP, SANDBOX_ESHOP_URL, SANDBOX_OAUTH_URL, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, SANDBOX_ADDON)`,
		`s.yaml:9:44: steps[0].call.path: variable ORDER_CODE is not set: pass --var ORDER_CODE=VALUE`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if len(ps) != 2 {
		t.Errorf("%d problems, want 2 (MY_TOKEN, ORDER_CODE):\n%s", len(ps), got)
	}

	bare, err := Parse("b.yaml", []byte("name: y\naddon: {name: a, command: [\"${EXAMPLE_ADDON}\"]}\nsteps:\n  - call: {eshop: 1001, path: /api/eshop, header: {X-U: \"${ADDON_URL}\", X-E: \"${ESHOP_URL}\"}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got = bare.CheckVars(nil).Error()
	for _, want := range []string{
		`b.yaml:2:29: addon.command[0]: variable EXAMPLE_ADDON is not set: pass --var EXAMPLE_ADDON=VALUE`,
		`the example add-on ships inside sandbox: start it with ["${SANDBOX_BIN}", "example-addon", ...]`,
		`steps[0].call.header.X-U: variable ADDON_URL is set only when the scenario gives addon.url`,
		`steps[0].call.header.X-E: variable ESHOP_URL is set only when the scenario gives addon.eshop`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
}
