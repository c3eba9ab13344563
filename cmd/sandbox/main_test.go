package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/eshop-sandbox/sandbox/sandbox/app/discover"
	"github.com/eshop-sandbox/sandbox/sandbox/exampleaddon"
)

func TestMain(m *testing.M) {
	if os.Getenv("SANDBOX_TEST_MAIN") == "1" {
		os.Exit(Main())
	}
	testscript.Main(isolated{m}, map[string]func(){
		"sandbox":       func() { os.Exit(Main()) },
		"example-addon": func() { os.Exit(exampleaddon.Main(discover.Locate)) },
	})
}

// isolated runs the tests with their own state folder, so the sandboxes
// they start (some killed on purpose) never record themselves in the
// developer's cache, and never find the developer's sandboxes.
type isolated struct{ m *testing.M }

// Run implements testscript.TestingM.
func (i isolated) Run() int {
	dir, err := os.MkdirTemp("", "sandbox-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_STATE_HOME", dir)
	os.Unsetenv("SANDBOX_URL")
	return i.m.Run()
}

// TestSIGTERM checks that SIGTERM (what CI runners and process managers
// send) shuts the sandbox down cleanly with exit code 0.
func TestSIGTERM(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var out strings.Builder
	cmd := exec.Command(os.Args[0], "up", "--headless", "--addr", addr)
	cmd.Env = append(os.Environ(), "SANDBOX_TEST_MAIN=1")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/_sandbox/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("not healthy: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Fatalf("no clean shutdown:\n%s", out.String())
	}
}

// TestScripts runs the CLI scripts in testdata/script. Each script gets a
// free loopback port in $PORT, its own $HOME and state folder
// ($XDG_STATE_HOME, where sandbox up records itself), and the commands
// waithealth, waiturl, waitbody, httpget, httpdo and findsandbox.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, "state"))
			if err := goEnv(env); err != nil {
				return err
			}
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return err
			}
			port := l.Addr().(*net.TCPAddr).Port
			l.Close()
			env.Setenv("PORT", strconv.Itoa(port))
			// A second free port, for the example add-on.
			if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
				return err
			}
			env.Setenv("ADDON_PORT", strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
			l.Close()
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waithealth":  waitHealth,
			"waiturl":     waitURL,
			"waitbody":    waitBody,
			"httpget":     httpGet,
			"httpdo":      httpDo,
			"findsandbox": findSandbox,
			"cutfile":     cutFile,
		},
	})
}

// waithealth URL: waits up to 10 s for GET URL/_sandbox/health to answer 200.
func waitHealth(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waithealth BASEURL")
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(args[0] + "/_sandbox/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				if neg {
					ts.Fatalf("sandbox is healthy")
				}
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !neg {
		ts.Fatalf("sandbox at %s not healthy after 10s", args[0])
	}
}

// waiturl URL: waits up to 10 s for GET URL to answer 200 (an add-on's
// health address).
func waitURL(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waiturl URL")
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(args[0]); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s does not answer 200 after 10s", args[0])
}

// httpget URL [Header:Value...]: prints "status N" and the body to stdout.
func httpGet(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: httpget URL [Header:Value...]")
	}
	req, err := http.NewRequest("GET", args[0], nil)
	ts.Check(err)
	for _, h := range args[1:] {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			ts.Fatalf("header %q must be Name:Value", h)
		}
		req.Header.Set(k, v)
	}
	printResponse(ts, neg, req)
}
