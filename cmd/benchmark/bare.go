package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// bareEnv, when set in the environment, makes this program the bare
// baseline server instead of the benchmark: it serves the answers the
// named JSON file lists (bareAnswer) on a free loopback port, prints the
// address and runs until killed. The baseline runs in its own process, as
// the sandbox does, so both are measured across the same process boundary
// (a server inside the load generator's own process answers a lone client
// faster than any other process can, which would flatter the baseline at
// c=1).
const bareEnv = "SANDBOX_BENCH_BARE_BODY"

// bareAnswer is one answer of the baseline: the body and headers the
// sandbox sent for Path (its query is not looked at), so both servers
// send the same bytes but for the Date. An empty Path answers every path
// not listed.
type bareAnswer struct {
	Path   string      `json:"path"`
	Header http.Header `json:"header"`
	Body   []byte      `json:"body"`
}

// serveBare is the baseline server's main.
func serveBare(path string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var answers []bareAnswer
	if err := json.Unmarshal(raw, &answers); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	byPath := map[string]*bareAnswer{}
	for i := range answers {
		a := &answers[i]
		if a.Header == nil {
			a.Header = http.Header{}
		}
		// The same framing the sandbox uses for a cached answer: its
		// length announced, so neither side pays for chunking.
		a.Header.Set("Content-Length", strconv.Itoa(len(a.Body)))
		if a.Header.Get("Content-Type") == "" {
			a.Header.Set("Content-Type", "application/json")
		}
		byPath[a.Path] = a
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(l.Addr().String())
	_ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := byPath[r.URL.Path]
		if a == nil {
			if a = byPath[""]; a == nil {
				http.NotFound(w, r)
				return
			}
		}
		h := w.Header()
		for k, v := range a.Header {
			h[k] = v
		}
		_, _ = w.Write(a.Body)
	}))
}

// sandboxAnswer GETs path from the sandbox with the API headers and
// returns it as the baseline's answer: the same body and headers, less
// those the baseline's net/http sets itself.
func sandboxAnswer(base, path string) (bareAnswer, error) {
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		return bareAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Service-Private-API-Token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return bareAnswer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return bareAnswer{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return bareAnswer{}, fmt.Errorf("GET %s: %d %s", path, resp.StatusCode, firstLine(string(body)))
	}
	h := resp.Header.Clone()
	h.Del("Date")
	h.Del("Content-Length")
	return bareAnswer{Path: req.URL.Path, Header: h, Body: body}, nil
}

// bare starts the baseline in a child process serving fixed answers with
// net/http only: the baseline the sandbox's reads are compared with,
// measured in the same run on the same machine. It returns the base URL.
func bare(answers ...bareAnswer) (string, func(), error) {
	raw, err := json.Marshal(answers)
	if err != nil {
		return "", nil, err
	}
	f, err := os.CreateTemp("", "sandbox-bare-*.json")
	if err != nil {
		return "", nil, err
	}
	_, err = f.Write(raw)
	_ = f.Close()
	if err != nil {
		_ = os.Remove(f.Name())
		return "", nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), bareEnv+"="+f.Name())
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		_ = os.Remove(f.Name())
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("bare baseline: %w", err)
	}
	return "http://" + strings.TrimSpace(line), stop, nil
}
