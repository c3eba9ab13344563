package runner

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/exampleaddon"
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
	case "store":
		os.Exit(storeAddon())
	case "example":
		// The example add-on, as ${SANDBOX_BIN} example-addon runs it in
		// the sandbox program; its flags come after the program.
		os.Exit(exampleaddon.Main(nil))
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

// storeAddon is an add-on that keeps its state in a file, as an add-on
// with a database does. It leaves a marker holding its ${SCENARIO_TMP} in
// $MEET_DIR and waits (at most 20s) until $MEET_N add-ons have, so the
// runs that start it are known to overlap; then it creates $STORE_FILE
// exclusively (another run holding the same file is shared state: it
// exits 1, saying so) and serves /healthz until the runner stops it.
func storeAddon() int {
	tmp := os.Getenv("SCENARIO_TMP")
	if entries, err := os.ReadDir(tmp); err != nil || len(entries) > 0 {
		fmt.Fprintf(os.Stderr, "SCENARIO_TMP %q is not a fresh empty folder: %v %v\n", tmp, entries, err)
		return 1
	}
	if dir := os.Getenv("MEET_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(os.Getpid())), []byte(tmp), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		n, _ := strconv.Atoi(os.Getenv("MEET_N"))
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if entries, _ := os.ReadDir(dir); len(entries) >= n {
				break
			}
			if time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "the other %d run(s) never started beside this one\n", n-1)
				return 1
			}
		}
	}
	f, err := os.OpenFile(os.Getenv("STORE_FILE"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		fmt.Fprintf(os.Stderr, "shared state: %v\n", err)
		return 1
	}
	defer f.Close()
	l, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("ADDON_PORT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go func() { _ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {})) }()
	return idle()
}
