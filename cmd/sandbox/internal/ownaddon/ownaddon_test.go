package ownaddon

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/cmd/sandbox/internal/built"
)

// runs is how many times the strict scenario must pass in a row: a race
// that fails one run in six, as the contract report's ordering did,
// cannot hide in twenty.
const runs = 20

// privateToken1001 is e-shop 1001's full-access private token in the
// embedded fixtures, for reading what the add-on did.
const privateToken1001 = "sbx_prv_538318d5dbe63220d64365f084946f66"

// TestOwnAddonPath drives the Python add-on in testdata the way a
// developer does: against `sandbox up`, registered, installed and faulted
// from the shell, and then by a strict scenario twenty times.
func TestOwnAddonPath(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the twenty strict runs take about a minute")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("the own-add-on test runs an add-on written in Python: python3 must be on the PATH (CI installs it in .ci/run): %v", err)
	}
	root := built.RepoRoot(t)
	tmp := t.TempDir()
	bin := built.Build(t, tmp)
	addonPy, err := filepath.Abs(filepath.Join("testdata", "addon.py"))
	if err != nil {
		t.Fatal(err)
	}
	// Every command finds the sandbox the way a developer's would: from the
	// record `sandbox up` leaves in the state folder (no --url).
	env := append(withoutSandboxVars(os.Environ()), "XDG_STATE_HOME="+filepath.Join(tmp, "state"), "HOME="+tmp)
	sandbox := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Dir = env, tmp
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := sandbox(args...)
		if err != nil {
			t.Fatalf("sandbox %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}

	base := built.Up(t, context.Background(), bin, tmp, env)
	port := freePort(t)
	addonURL := "http://127.0.0.1:" + port

	// 1. Register it: fixed credentials, every endpoint, an env file.
	out := must("addon", "add", "py-addon", "--install-url", addonURL+"/install", "--webhook-url", addonURL+"/webhooks",
		"--client-id", "py-client", "--client-secret", "py-secret", "--output", "env")
	addonEnv := append([]string{}, env...)
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "SANDBOX_") || !strings.Contains(l, "=") {
			t.Fatalf("--output env printed %q", l)
		}
		addonEnv = append(addonEnv, l)
	}
	if !strings.Contains(out, "SANDBOX_URL="+base+"\n") || !strings.Contains(out, "SANDBOX_CLIENT_ID=py-client\n") {
		t.Fatalf("env file:\n%s", out)
	}

	// 2. Start it with that env file, as a developer would.
	addon := exec.Command(python, addonPy)
	addon.Env = append(addonEnv, "ADDON_PORT="+port)
	var addonOut bytes.Buffer
	addon.Stdout, addon.Stderr = &addonOut, &addonOut
	built.OwnGroup(addon)
	if err := addon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = built.TerminateGroup(addon)
		_ = addon.Wait()
		if t.Failed() {
			t.Logf("add-on output:\n%s", addonOut.String())
		}
	})
	built.WaitOK(t, addonURL+"/healthz")

	// 3. Install it.
	if out := must("install", "--addon", "py-addon", "--eshop", "1001"); !strings.Contains(out, "into e-shop 1001: passed") {
		t.Fatalf("install:\n%s", out)
	}

	// 4. Fault it while it runs: its first order read is refused with 429
	// while its order-status read is slow (the two overlap), and its token
	// expires at its first status change.
	must("fault", "add", "--operation", "GetOrderDetail", "--addon", "py-addon", "--times", "1", "--status", "429", "--retry-after", "1s")
	must("fault", "add", "--operation", "GetListOfOrderStatuses", "--addon", "py-addon", "--times", "1", "--latency", "300ms")
	must("fault", "add", "--operation", "UpdateOrderStatus", "--addon", "py-addon", "--nth", "1", "--expire-token-after", "0")

	before := orderStatus(t, base)
	post(t, base+"/_sandbox/events", `{"eshopId":1001,"event":"order:create","instance":"2025000001"}`)
	deadline := time.Now().Add(20 * time.Second)
	for orderStatus(t, base) == before {
		if time.Now().After(deadline) {
			t.Fatalf("the add-on did not move order 2025000001 on within 20 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	out = must("fault", "list")
	for _, want := range []string{"f1  f1    runtime  respond", "f2  f2    runtime  latency", "f3  f3    runtime  expire-token"} {
		if !strings.Contains(out, want) {
			t.Errorf("fault list lacks %q:\n%s", want, out)
		}
	}
	for _, id := range []string{"f1", "f2", "f3"} {
		if hits := acted(t, base, id); hits != 1 {
			t.Errorf("fault %s acted %d times on the add-on's calls, want 1", id, hits)
		}
	}
	var rep struct {
		Clean    bool              `json:"clean"`
		Findings []json.RawMessage `json:"findings"`
	}
	getData(t, base+"/_sandbox/report", &rep)
	if !rep.Clean {
		t.Fatalf("the contract report judged the add-on wrongly: %s", rep.Findings)
	}

	// 5. The same add-on in a strict scenario, twenty runs on fresh
	// sandboxes, with no finding in any.
	junit := filepath.Join(tmp, "junit.xml")
	out, err = sandbox("test", "--count", strconv.Itoa(runs), "--junit", junit, filepath.Join(root, "cmd", "sandbox", "internal", "ownaddon", "testdata", "own-addon.yaml"))
	if err != nil {
		t.Fatalf("sandbox test --count %d: %v\n%s", runs, err, out)
	}
	if want := fmt.Sprintf("%d scenario(s): %d passed, 0 failed", runs, runs); !strings.Contains(out, want) {
		t.Fatalf("want %q:\n%s", want, out)
	}
	raw, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil || doc.Failures != 0 || doc.Errors != 0 || len(doc.Suites) != runs {
		t.Fatalf("JUnit: %v %+v", err, doc)
	}

	// 6. sandbox certify judges it against every platform rule it can
	// exercise: it holds (at most 3 calls at once across its webhook
	// threads, a 429 holding every call until Retry-After, ...), and it
	// moves the fresh orders certify creates on under the fault rounds.
	// It starts no job, so job-finished is not exercised: INCOMPLETE.
	// Its sandbox listens on a port of ours too: bound to :0, it could
	// take the one just handed out for the add-on.
	certPort, certSandbox := freePort(t), freePort(t)
	out, err = sandbox("certify", "--listen", "127.0.0.1:"+certSandbox, "--addon", "py-addon", "--addon-url", "http://127.0.0.1:"+certPort+"/install",
		"--client-id", "py-client", "--client-secret", "py-secret", "--command", python+" "+addonPy, "--trigger", "order:create")
	if err != nil || !strings.Contains(out, "\nINCOMPLETE: 14 passed, 0 failed, 1 not exercised, 2 observed") || strings.Contains(out, "\nFAIL ") ||
		!regexp.MustCompile(`\n  certify-429 round: \S+ PATCH /api/orders/\d+/status -> 200`).MatchString(out) {
		t.Fatalf("sandbox certify: %v\n%s", err, out)
	}
}

// withoutSandboxVars drops SANDBOX_* from the environment, so nothing but
// the sandbox's own record tells the commands where it is.
func withoutSandboxVars(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "SANDBOX_") {
			out = append(out, kv)
		}
	}
	return out
}

// handedOut are the ports freePort gave: never twice.
var handedOut = map[int]bool{}

func freePort(t *testing.T) string {
	t.Helper()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !handedOut[port] {
			handedOut[port] = true
			return strconv.Itoa(port)
		}
	}
}

func post(t *testing.T, url, body string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s", url, resp.Status)
	}
}

// getData decodes the envelope's data of GET url (with the private token).
func getData(t *testing.T, url string, out any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Service-Private-API-Token", privateToken1001)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", url, resp.Status, err)
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		t.Fatal(err)
	}
}

func orderStatus(t *testing.T, base string) int {
	var v struct {
		Order struct {
			Status struct {
				ID int `json:"id"`
			} `json:"status"`
		} `json:"order"`
	}
	getData(t, base+"/api/orders/2025000001", &v)
	return v.Order.Status.ID
}

// acted is how often the fault with this id acted.
func acted(t *testing.T, base, id string) int {
	var v struct {
		Faults []struct {
			ID   string `json:"id"`
			Hits int    `json:"hits"`
		} `json:"faults"`
	}
	getData(t, base+"/_sandbox/faults", &v)
	for _, f := range v.Faults {
		if f.ID == id {
			return f.Hits
		}
	}
	return -1
}
