package runner

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

// runYAML writes a scenario into a temporary folder and runs it.
func runYAML(t *testing.T, yaml string, opts Options) (*Result, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if opts.DefaultWithin == 0 {
		opts.DefaultWithin = 300e6
	}
	res := RunFile(context.Background(), path, opts)
	var out bytes.Buffer
	WriteText(&out, res)
	return res, out.String()
}

func statuses(res *Result) []string {
	var out []string
	for _, s := range res.Steps {
		out = append(out, s.Status)
	}
	return out
}

// TestWrongScenarioFailsReadably: an expectation that does not hold fails
// with what was expected, what happened instead and the traffic; the
// steps after it are skipped, and the report says so.
func TestWrongScenarioFailsReadably(t *testing.T) {
	res, out := runYAML(t, `name: deliberately wrong
steps:
  - name: the administration reads the orders
    call: {eshop: 1001, path: /api/orders}
  - name: wrongly expects a 404
    call: {eshop: 1001, path: /api/orders/2025000001, expect: {status: 404}}
  - name: never runs
    call: {eshop: 1001, path: /api/eshop}
`, Options{})
	if res.Passed {
		t.Fatal("a wrong scenario passed")
	}
	if got, want := statuses(res), []string{Passed, Failed, Skipped}; !reflect.DeepEqual(got, want) {
		t.Fatalf("statuses %v, want %v", got, want)
	}
	for _, want := range []string{
		`scenario "deliberately wrong"`,
		"ok    1 the administration reads the orders (line 3)",
		"FAIL  2 wrongly expects a 404 (line 5)",
		"expected: GET /api/orders/2025000001 answers 404",
		`got:      200 {"data":{"order":`,
		"skip  3 never runs",
		"not run: step 2 failed",
		"1 passed, 1 failed, 1 skipped",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestExpectationsWithoutAnAddon: expectations about an add-on that made
// no call fail with the traffic that was seen; expectNoRequest passes.
func TestExpectationsWithoutAnAddon(t *testing.T) {
	res, out := runYAML(t, `name: nobody calls
steps:
  - call: {eshop: 1001, path: /api/orders, header: {User-Agent: another-client}}
  - expectNoRequest: {match: {tokenKind: addon}, within: 100ms}
  - expectRequest: {match: {method: GET, path: /api/orders}, header: {X-Trace: "*"}}
`, Options{})
	if got, want := statuses(res), []string{Passed, Passed, Failed}; !reflect.DeepEqual(got, want) {
		t.Fatalf("statuses %v, want %v\n%s", got, want, out)
	}
	for _, want := range []string{"with header X-Trace: *", "it was sent without X-Trace", "GET /api/orders -> 200 (GetListOfOrders)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestSetupFailures: a scenario that does not load or cannot start is one
// readable failure; the steps are not run.
func TestSetupFailures(t *testing.T) {
	cases := []struct {
		name, yaml, want string
	}{
		{"invalid file", "name: x\nsteps:\n  - wait: soon\n", "s.yaml:3:11: steps[0].wait: not a duration"},
		{"unknown variable", "name: x\naddon: {name: example-addon, eshop: 1001, command: [\"${NO_SUCH_ADDON_BINARY}\"]}\nsteps:\n  - wait: 1ms\n",
			"variable NO_SUCH_ADDON_BINARY is not set"},
		{"missing fixtures", "name: x\nfixtures: ./nowhere\nsteps:\n  - wait: 1ms\n", "nowhere: not a folder"},
		{"add-on that exits", "name: x\naddon: {name: example-addon, eshop: 1001, url: \"http://127.0.0.1:${ADDON_PORT}\", ready: /healthz, command: [\"false\"]}\nsteps:\n  - wait: 1ms\n",
			"the add-on exited before it was ready"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, out := runYAML(t, c.yaml, Options{})
			if res.Passed || !strings.Contains(res.Setup, c.want) {
				t.Fatalf("setup %q, want %q\n%s", res.Setup, c.want, out)
			}
			for _, s := range res.Steps {
				if s.Status != Skipped {
					t.Errorf("step %d ran: %s", s.Index, s.Status)
				}
			}
			if !strings.Contains(out, "ERROR the scenario could not start") {
				t.Errorf("report:\n%s", out)
			}
		})
	}
}

// TestStrictFailsOnFindings: strict adds a last step that fails while the
// contract report lists anything.
func TestStrictFailsOnFindings(t *testing.T) {
	careless := `name: careless
strict: true
steps:
  - call: {eshop: 1001, path: /api/eshop, header: {User-Agent: careless/1, Content-Type: ""}, expect: {status: 422}}
`
	res, out := runYAML(t, careless, Options{})
	if res.Passed || len(res.Steps) != 2 || res.Steps[1].Kind != "strict" || res.Steps[1].Status != Failed {
		t.Fatalf("strict step: %+v\n%s", res.Steps, out)
	}
	if !strings.Contains(out, "missing-content-type: GET /api/eshop was sent without Content-Type") {
		t.Errorf("report:\n%s", out)
	}
	res, out = runYAML(t, strings.Replace(careless, `header: {User-Agent: careless/1, Content-Type: ""}, expect: {status: 422}`, `expect: {status: 200}`, 1), Options{})
	if !res.Passed || res.Steps[1].Status != Passed {
		t.Fatalf("a clean strict run failed:\n%s", out)
	}
}

// TestScenarioFaultsApply: the scenario's faults are active on its sandbox
// (a call step sees them too) and the run is the same every time.
func TestScenarioFaultsApply(t *testing.T) {
	yaml := `name: flaky
seed: 9
faults:
  - name: flaky-orders
    match: {path: /api/orders, probability: 0.5}
    respond: {status: 500}
steps:
` + strings.Repeat("  - call: {eshop: 1001, path: /api/orders, expect: {status: 200}}\n", 6)
	first, _ := runYAML(t, yaml, Options{})
	second, _ := runYAML(t, yaml, Options{})
	if !reflect.DeepEqual(statuses(first), statuses(second)) {
		t.Fatalf("two runs differ: %v / %v", statuses(first), statuses(second))
	}
	failed := 0
	for _, s := range first.Steps {
		if s.Status == Failed {
			failed++
			if !strings.Contains(s.Got, "500") {
				t.Errorf("failure is not the fault: %s", s.Got)
			}
		}
	}
	if failed != 1 {
		t.Fatalf("the first faulted call should stop the run: %v", statuses(first))
	}
}

// TestJUnit: the XML parses, holds a suite per scenario and a test case
// per step, with failures, skips and setup errors where they belong.
func TestJUnit(t *testing.T) {
	ok, _ := runYAML(t, "name: fine\nsteps:\n  - call: {eshop: 1001, path: /api/eshop}\n  - wait: 1ms\n", Options{})
	bad, _ := runYAML(t, "name: wrong\nsteps:\n  - call: {eshop: 1001, path: /api/eshop, expect: {status: 418}}\n  - wait: 1ms\n  - wait: 1ms\n", Options{})
	broken, _ := runYAML(t, "name: broken\nsteps: [{wait: never}]\n", Options{})
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, []*Result{ok, bad, broken}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Skipped  int      `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Tests int    `xml:"tests,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
				Error   *struct{} `xml:"error"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not valid XML: %v\n%s", err, buf.String())
	}
	if doc.Tests != 6 || doc.Failures != 1 || doc.Errors != 1 || doc.Skipped != 2 || len(doc.Suites) != 3 {
		t.Fatalf("totals %+v\n%s", doc, buf.String())
	}
	for i, want := range []int{len(ok.Steps), len(bad.Steps), 1} {
		if s := doc.Suites[i]; s.Tests != want || len(s.Cases) != want {
			t.Errorf("suite %s: %d cases, want one per step (%d)", s.Name, len(s.Cases), want)
		}
	}
	c := doc.Suites[1].Cases
	if c[0].Failure == nil || c[1].Skipped == nil || c[2].Skipped == nil || c[0].Name != "01 call" {
		t.Errorf("cases of the failing suite: %+v", c)
	}
	if doc.Suites[2].Cases[0].Name != "setup" || doc.Suites[2].Cases[0].Error == nil {
		t.Errorf("the broken scenario's case: %+v", doc.Suites[2].Cases)
	}
	if !strings.Contains(buf.String(), "expected: GET /api/eshop answers 418") {
		t.Errorf("the failure body lacks the expectation:\n%s", buf.String())
	}
}

func TestSubset(t *testing.T) {
	got := map[string]any{"data": map[string]any{"id": float64(3), "tags": []any{"a", "b"}, "name": "x"}, "errors": nil}
	cases := []struct {
		want any
		diff string
	}{
		{map[string]any{"data": map[string]any{"id": 3}}, ""},
		{map[string]any{"errors": nil}, ""},
		{map[string]any{"data": map[string]any{"tags": []any{"a", "b"}}}, ""},
		{map[string]any{"data": map[string]any{"id": 4}}, "data.id: expected 4, got 3"},
		{map[string]any{"data": map[string]any{"missing": 1}}, "data.missing: missing"},
		{map[string]any{"data": map[string]any{"tags": []any{"a"}}}, "data.tags: expected 1 items, got 2"},
		{map[string]any{"data": map[string]any{"tags": []any{"a", "c"}}}, `data.tags[1]: expected "c", got "b"`},
		{map[string]any{"data": []any{}}, "data: expected a list"},
		{map[string]any{"errors": []any{}}, "errors: expected a list, got null"},
	}
	for _, c := range cases {
		if d := subset(normalize(c.want), got, ""); d != c.diff && !strings.HasPrefix(d, c.diff) || (c.diff == "") != (d == "") {
			t.Errorf("subset(%v) = %q, want %q", c.want, d, c.diff)
		}
	}
}

func TestDescribeMatch(t *testing.T) {
	for _, c := range []struct {
		m    scenario.Match
		want string
	}{
		{scenario.Match{}, "any call"},
		{scenario.Match{Method: "GET", Path: "/api/orders/*", TokenKind: "addon"}, "a call GET /api/orders/* addon token"},
		{scenario.Match{Operation: "GetOrderDetail", Nth: 2}, "call number 2 of call operation GetOrderDetail"},
		{scenario.Match{Operation: "GetOrderDetail", Addon: "my-addon"}, "a call operation GetOrderDetail by add-on my-addon"},
	} {
		if got := describeMatch(c.m); got != c.want {
			t.Errorf("describeMatch(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}

// TestIdleFaultsExplainAFailure: when a step fails, every fault that never
// acted is named, with whether nothing met its conditions or its nth
// passed the matching calls over; a fault that acted is not.
func TestIdleFaultsExplainAFailure(t *testing.T) {
	res, out := runYAML(t, `name: idle faults
faults:
  - name: never
    match: {path: /api/nowhere/*}
    respond: {status: 500}
  - name: picked-over
    match: {path: /api/eshop, nth: 5}
    respond: {status: 500}
  - name: acts
    match: {path: /api/orders}
    respond: {status: 503}
  - name: by-header
    trigger: header
    close: true
steps:
  - call: {eshop: 1001, path: /api/eshop, header: {User-Agent: an-addon/1}}
  - call: {eshop: 1001, path: /api/orders, expect: {status: 503}}
  - expectRequest: {match: {path: /api/products}, within: 50ms}
`, Options{})
	if got, want := statuses(res), []string{Passed, Passed, Failed}; !reflect.DeepEqual(got, want) {
		t.Fatalf("statuses %v, want %v\n%s", got, want, out)
	}
	for _, want := range []string{
		`note:     fault "never" (line 3) never acted: none of the 1 calls of the add-on so far matched a call /api/nowhere/*`,
		`note:     fault "picked-over" (line 6) never acted: 1 of the 1 calls of the add-on so far matched a call /api/eshop, but nth, times or probability passed them over`,
		`note:     fault "by-header" (line 12) never acted: no call named it in the Service-Sandbox-Fault header`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `fault "acts"`) {
		t.Errorf("a fault that acted is reported idle:\n%s", out)
	}
	if n := len(res.Steps[2].Notes); n != 3 {
		t.Errorf("%d notes, want 3: %v", n, res.Steps[2].Notes)
	}
	var junit bytes.Buffer
	if err := WriteJUnit(&junit, []*Result{res}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), `note: fault &#34;never&#34; (line 3) never acted`) {
		t.Errorf("the JUnit failure lacks the note:\n%s", junit.String())
	}
}

// TestBackoffNamesTheScriptedWait: Retry-After is an HTTP date rounded up
// to the whole second, so a scripted retryAfter of 1s is reported as 1s
// (not as what the date minus the refusal's time happens to round to),
// and an add-on that waits exactly until the date is not early (strict).
// The clock starts at .6 of a second, where a truncated date asked 0s.
func TestBackoffNamesTheScriptedWait(t *testing.T) {
	res, out := runYAML(t, `name: waits for Retry-After
strict: true
clock: {start: "2025-06-02T09:00:00.6Z"}
addon:
  name: example-addon
  command: ["${SANDBOX_BIN}"]
  env: {RUNNER_TEST_ADDON: backoff}
faults:
  - name: slow-down
    match: {path: /api/orders, nth: 1}
    respond: {status: 429, retryAfter: 1s}
steps:
  - expectBackoff: {match: {path: /api/orders}, within: 5s}
`, Options{})
	if !res.Passed {
		t.Fatalf("the run failed:\n%s", out)
	}
	if note := res.Steps[0].Note; !strings.Contains(note, "Retry-After asked 1s, until 09:00:0") {
		t.Fatalf("note %q, want the scripted 1s and the date", note)
	}
}

// TestOwnAddonSection: the addon section registers an add-on the fixtures
// do not have (install and webhook URLs, the endpoints it names, fixed
// credentials) and hands its command what it needs in SANDBOX_*; the
// add-on installs with them and its own calls are told apart by match.addon.
func TestOwnAddonSection(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "env")
	res, out := runYAML(t, `name: my own add-on
strict: true
addon:
  name: my-addon
  eshop: 1001
  url: http://127.0.0.1:${ADDON_PORT}
  installUrl: http://127.0.0.1:${ADDON_PORT}/install
  webhookUrl: http://127.0.0.1:${ADDON_PORT}/webhooks
  endpoints: [GetEshopInfo, GetOrderDetail, RegisterNewWebhook, GetOverviewOfRegisteredWebhooks, DeleteRegisteredWebhook, GenerateWebhookSignatureKey]
  clientId: my-client
  clientSecret: my-secret
  ready: /healthz
  command: ["${SANDBOX_BIN}", "--name", "my-addon", "--listen", "127.0.0.1:${ADDON_PORT}", "--sandbox", "${SANDBOX_URL}",
            "--oauth-url", "${SANDBOX_OAUTH_URL}", "--client-id", "${SANDBOX_CLIENT_ID}", "--client-secret", "${SANDBOX_CLIENT_SECRET}", "--events", "order:create"]
  env: {RUNNER_TEST_ADDON: example}
steps:
  - install: {}
  - emit: {event: "order:create", instance: "2025000001"}
  - expectRequest: {match: {operation: GetOrderDetail, addon: my-addon}, status: 200, within: 5s}
  - expectNoRequest: {match: {addon: example-addon}, within: 50ms}
`, Options{DefaultWithin: 5 * time.Second})
	if !res.Passed {
		t.Fatalf("the run failed:\n%s", out)
	}

	// The environment the runner gives the add-on's command.
	res, out = runYAML(t, `name: the add-on's environment
addon:
  name: env-addon
  eshop: 1002
  url: http://127.0.0.1:${ADDON_PORT}
  clientId: env-client
  clientSecret: env-secret
  command: ["${SANDBOX_BIN}"]
  env: {RUNNER_TEST_ADDON: env, RUNNER_TEST_ENV_FILE: `+envFile+`}
steps:
  - wait: 300ms
`, Options{})
	if !res.Passed {
		t.Fatalf("the run failed:\n%s", out)
	}
	raw, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		env[k] = v
	}
	base := env["SANDBOX_URL"]
	if env["ADDON_PORT"] == "" {
		t.Fatal("the add-on's environment has no ADDON_PORT")
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("SANDBOX_URL %q", base)
	}
	for k, want := range map[string]string{
		"SANDBOX_ESHOP": "1002", "SANDBOX_ESHOP_URL": base + "/eshops/1002", "SANDBOX_OAUTH_URL": base + "/eshops/1002/action/ApiOAuthServer/token",
		"SANDBOX_CLIENT_ID": "env-client", "SANDBOX_CLIENT_SECRET": "env-secret", "SANDBOX_ADDON": "env-addon",
		"SANDBOX_HEADER_PREFIX": "Service", "ADDON_URL": "http://127.0.0.1:" + env["ADDON_PORT"],
	} {
		if env[k] != want {
			t.Errorf("%s=%q, want %q", k, env[k], want)
		}
	}
}

// TestHeaderPrefix runs an add-on that hard-codes another platform word in
// its header names and media type (as the official client libraries do):
// it passes when the run's sandbox speaks that word, set in the file's
// sandbox section or by the runner's option (which wins), and fails with
// the default word.
func TestHeaderPrefix(t *testing.T) {
	scenarioWith := func(section string) string {
		return `name: an add-on that says Acme
` + section + `addon:
  name: acme-addon
  eshop: 1001
  url: http://127.0.0.1:${ADDON_PORT}
  endpoints: all
  clientId: acme-client
  clientSecret: acme-secret
  ready: /healthz
  command: ["${SANDBOX_BIN}", "--header-prefix", "Acme", "--name", "acme-addon", "--listen", "127.0.0.1:${ADDON_PORT}", "--sandbox", "${SANDBOX_URL}",
            "--oauth-url", "${SANDBOX_OAUTH_URL}", "--client-id", "${SANDBOX_CLIENT_ID}", "--client-secret", "${SANDBOX_CLIENT_SECRET}", "--events", "order:create"]
  env: {RUNNER_TEST_ADDON: example}
steps:
  - install: {}
  - emit: {event: "order:create", instance: "2025000001"}
  - expectRequest: {match: {operation: GetOrderDetail, addon: acme-addon}, status: 200, within: 5s}
  - name: the scenario's own calls speak the run's word too
    call: {eshop: 1001, path: /api/eshop, expect: {status: 200}}
`
	}
	for _, c := range []struct {
		name, section, option string
		pass                  bool
	}{
		{"the file's sandbox section", "sandbox:\n  headerPrefix: Acme\n", "", true},
		{"the runner's option", "", "Acme", true},
		{"the option wins over the file", "sandbox:\n  headerPrefix: Other\n", "Acme", true},
		{"the default word", "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, out := runYAML(t, scenarioWith(c.section), Options{DefaultWithin: 5 * time.Second, HeaderPrefix: c.option})
			if res.Passed != c.pass {
				t.Fatalf("passed %v, want %v:\n%s", res.Passed, c.pass, out)
			}
			if !c.pass && !strings.Contains(out, "FAIL  2") && !strings.Contains(out, "FAIL  1") && !strings.Contains(out, "FAIL  3") {
				t.Fatalf("no failing step in:\n%s", out)
			}
		})
	}
}

// TestSandboxSection: the sandbox section holds the run's fixtures and
// limits as the older top-level keys do, and a file may not give both.
func TestSandboxSection(t *testing.T) {
	res, out := runYAML(t, `name: limits in the sandbox section
sandbox:
  limits: {bucketCapacity: 1, bucketLeak: 1h}
steps:
  - call: {eshop: 1001, path: /api/eshop, expect: {status: 200}}
  - call: {eshop: 1001, path: /api/eshop, expect: {status: 429}}
`, Options{})
	if !res.Passed {
		t.Fatalf("the sandbox section's limits did not apply:\n%s", out)
	}
	_, err := scenario.Parse("both.yaml", []byte(`name: both
limits: {perToken: 1}
sandbox:
  limits: {perToken: 2}
steps: [{wait: 1ms}]
`))
	if err == nil || !strings.Contains(err.Error(), "sandbox.limits sets the limits already") {
		t.Fatalf("a file giving the limits twice: %v", err)
	}
	_, err = scenario.Parse("bad.yaml", []byte(`name: bad word
sandbox: {headerPrefix: "two words"}
steps: [{wait: 1ms}]
`))
	if err == nil || !strings.Contains(err.Error(), "headerPrefix") {
		t.Fatalf("a header word with a space: %v", err)
	}
}
