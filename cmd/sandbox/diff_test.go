package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestDiffExitCodes: sandbox diff exits as diff(1) does: 0 when no
// endpoint differs, 1 when some do, 2 when it cannot compare.
func TestDiffExitCodes(t *testing.T) {
	up := sandboxtest.New(t, sandbox.Config{})
	sb := sandboxtest.New(t, sandbox.Config{})
	tok := sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"the same service", []string{"--upstream", up.URL, "--url", sb.URL}, diffSame, " 0 differ"},
		// E-shop 1002 lacks modules 1001 has: its price lists answer 403.
		{"another e-shop", []string{"--upstream", up.URL, "--url", sb.URL, "--eshop", "1002"}, diffDiffer, "status   upstream 200, sandbox 403"},
		{"no sandbox e-shop", []string{"--upstream", up.URL, "--url", sb.URL, "--eshop", "77"}, diffTrouble, "has no e-shop 77"},
		{"unreachable upstream", []string{"--upstream", "http://127.0.0.1:1", "--url", sb.URL}, diffTrouble, "reading the upstream's e-shop"},
		{"no token", []string{"--upstream", up.URL, "--url", sb.URL, "--token", ""}, diffTrouble, "no token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append([]string{"diff"}, tc.args...)...)
			cmd.Env = append(os.Environ(), "SANDBOX_TEST_MAIN=1", "SANDBOX_TOKEN="+tok)
			if tc.name == "no token" {
				cmd.Env = append(os.Environ(), "SANDBOX_TEST_MAIN=1")
			}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(out.String(), tc.out) {
				t.Errorf("exit %d, want %d; output lacks %q?\n%s", code, tc.code, tc.out, out.String())
			}
		})
	}
}
