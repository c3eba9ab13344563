package runner

import (
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/cmd/example-addon/addon"
)

// helperAddonEnv, when set, makes the test binary act as the add-on under
// test instead of running the tests: the runner starts ${SANDBOX_BIN},
// which in these tests is the test binary itself.
const helperAddonEnv = "RUNNER_TEST_ADDON"

// privateToken1001 is e-shop 1001's full-access private token in the
// embedded fixtures.
const privateToken1001 = "sbx_prv_538318d5dbe63220d64365f084946f66"

func TestMain(m *testing.M) {
	switch os.Getenv(helperAddonEnv) {
	case "":
		os.Exit(m.Run())
	case "backoff":
		os.Exit(backoffAddon())
	case "env":
		os.Exit(envAddon())
	case "example":
		// The example add-on, as ${SANDBOX_BIN} example-addon runs it in
		// the sandbox program; its flags come after the program.
		os.Exit(addon.Main(nil))
	default:
		fmt.Fprintf(os.Stderr, "unknown %s=%q\n", helperAddonEnv, os.Getenv(helperAddonEnv))
		os.Exit(2)
	}
}

// backoffAddon reads the orders once, and when refused with Retry-After
// waits exactly until the date (measured from the answer's Date, which
// follows the sandbox clock) and reads them again; then it idles until
// the runner stops it.
func backoffAddon() int {
	get := func() (*http.Response, error) {
		req, err := http.NewRequest(http.MethodGet, os.Getenv("SANDBOX_URL")+"/api/orders", nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Service-Private-API-Token", privateToken1001)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return resp, err
	}
	resp, err := get()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if until, err := http.ParseTime(resp.Header.Get("Retry-After")); err == nil {
		sent, err := http.ParseTime(resp.Header.Get("Date"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "no Date:", err)
			return 1
		}
		time.Sleep(until.Sub(sent))
		if _, err := get(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return idle()
}

// envAddon writes the environment variables the runner gave it, one
// NAME=VALUE a line, to the file $RUNNER_TEST_ENV_FILE.
func envAddon() int {
	var lines []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SANDBOX_") || strings.HasPrefix(kv, "ADDON_") || strings.HasPrefix(kv, "ESHOP_") {
			lines = append(lines, kv)
		}
	}
	if err := os.WriteFile(os.Getenv("RUNNER_TEST_ENV_FILE"), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return idle()
}

// idle waits for the runner's SIGTERM.
func idle() int {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, os.Interrupt)
	<-ch
	return 0
}
