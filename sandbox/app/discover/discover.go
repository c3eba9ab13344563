// Package discover lets every client of a sandbox (the CLI's client
// commands, shell completion, the example add-on) find the running sandbox
// without being told where it listens. `sandbox up` records its address in
// a small file per address (Record) in the user's state or cache folder and
// removes it on a clean shutdown; a client resolves its target (Resolve)
// from --url, then SANDBOX_URL, then those records (stale ones, whose
// process is gone, are deleted on sight), then the default address.
//
// One name per meaning: --addr/SANDBOX_ADDR is where `sandbox up` listens,
// --url/SANDBOX_URL is the sandbox a client talks to.
package discover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// EnvURL names the environment variable a client reads its target from
// when --url is not given.
const EnvURL = "SANDBOX_URL"

// DefaultURL is the target when nothing else names one: where `sandbox up`
// listens by default.
const DefaultURL = "http://" + sandbox.DefaultAddr

// HealthPath is what Resolve calls to tell a live record from a stale one.
const HealthPath = "/_sandbox/health"

// probeTimeout bounds each health probe of a recorded sandbox, so a wedged
// address never hangs a client (or a shell completion) for long.
const probeTimeout = time.Second

// Entry is one running sandbox as `sandbox up` recorded it.
type Entry struct {
	// URL is where a client on this machine reaches it: the listen address,
	// with a loopback host when it listens on every interface.
	URL string `json:"url"`
	// Addr is the address it listens on, as bound (the real port when
	// --addr asked for port 0).
	Addr string `json:"addr"`
	// PublicURL is the base URL it advertises (--public-url), when given.
	PublicURL string `json:"publicUrl,omitempty"`
	// PID is the process serving it; a record whose process is gone is
	// stale.
	PID     int       `json:"pid"`
	Version string    `json:"version,omitempty"`
	Started time.Time `json:"started"`

	file string
}

// Dir is the folder holding the records: $XDG_STATE_HOME/eshop-sandbox when
// XDG_STATE_HOME is set, else eshop-sandbox in the user's cache folder
// (os.UserCacheDir: ~/.cache on Linux, ~/Library/Caches on macOS).
func Dir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "eshop-sandbox", "running"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no folder to record running sandboxes in: %w", err)
	}
	return filepath.Join(d, "eshop-sandbox", "running"), nil
}

// fileName turns a listen address into a record's file name, one per
// address: 127.0.0.1:8080 -> 127.0.0.1_8080.json.
func fileName(addr string) string {
	r := strings.NewReplacer(":", "_", "[", "", "]", "", "/", "_", "\\", "_")
	return r.Replace(addr) + ".json"
}

// LocalURL is the URL a client on this machine uses for a listen address:
// an unspecified host (0.0.0.0, ::) becomes 127.0.0.1.
func LocalURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Record writes e's record (replacing a stale one for the same address)
// and returns the function that removes it again, which `sandbox up` calls
// on a clean shutdown. The record is written whole or not at all.
func Record(e Entry) (remove func() error, err error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if e.URL == "" {
		e.URL = LocalURL(e.Addr)
	}
	if e.PID == 0 {
		e.PID = os.Getpid()
	}
	if e.Started.IsZero() {
		e.Started = time.Now().UTC()
	}
	raw, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fileName(e.Addr))
	tmp, err := os.CreateTemp(dir, ".record-*")
	if err != nil {
		return nil, err
	}
	_, werr := tmp.Write(append(raw, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return nil, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return nil, err
	}
	pid := e.PID
	return func() error {
		// Only our own record: another sandbox may have taken the address
		// (and the file) since.
		if cur, err := read(path); err == nil && cur.PID != pid {
			return nil
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}, nil
}

func read(path string) (Entry, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Entry{}, fmt.Errorf("%s: %w", path, err)
	}
	e.file = path
	return e, nil
}

// Recorded lists every record, live or not, oldest first.
func Recorded() ([]Entry, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, n := range names {
		e, err := read(n)
		if err != nil {
			continue // half-written by hand or by another tool: not ours to judge
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out, nil
}

// Running lists the recorded sandboxes that answer their health check.
// A record whose process no longer exists is stale and deleted.
func Running(ctx context.Context) ([]Entry, error) {
	all, err := Recorded()
	if err != nil {
		return nil, err
	}
	var live []Entry
	for _, e := range all {
		if e.PID > 0 && !processAlive(e.PID) {
			_ = os.Remove(e.file)
			continue
		}
		if Healthy(ctx, e.URL) {
			live = append(live, e)
		}
	}
	return live, nil
}

// Healthy reports whether a sandbox answers GET /_sandbox/health with 200
// at base, within a second.
func Healthy(ctx context.Context, base string) bool {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+HealthPath, nil)
	if err != nil {
		return false
	}
	resp, err := (&http.Client{Timeout: probeTimeout}).Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// Source says where a client's target came from, for messages.
type Source string

// Where a target can come from.
const (
	FromFlag     Source = "--url"
	FromEnv      Source = EnvURL
	FromRecord   Source = "recorded by sandbox up"
	FromFallback Source = "default"
)

// Target is the sandbox a client talks to.
type Target struct {
	URL    string
	Source Source
	// Entry is the record it came from (FromRecord only).
	Entry *Entry
}

// Resolve picks a client's target: given (the --url flag) when not empty,
// else $SANDBOX_URL, else the one running sandbox `sandbox up` recorded,
// else DefaultURL. Several running sandboxes and no --url is an error that
// lists them, since guessing would send calls to the wrong one.
func Resolve(ctx context.Context, given string) (Target, error) {
	if given != "" {
		u, err := Normalize(given)
		if err != nil {
			return Target{}, fmt.Errorf("--url: %w", err)
		}
		return Target{URL: u, Source: FromFlag}, nil
	}
	if v := os.Getenv(EnvURL); v != "" {
		u, err := Normalize(v)
		if err != nil {
			return Target{}, fmt.Errorf("%s: %w", EnvURL, err)
		}
		return Target{URL: u, Source: FromEnv}, nil
	}
	live, err := Running(ctx)
	if err != nil || len(live) == 0 {
		return Target{URL: DefaultURL, Source: FromFallback}, nil
	}
	if len(live) > 1 {
		list := make([]string, len(live))
		for i, e := range live {
			list[i] = fmt.Sprintf("%s (pid %d)", e.URL, e.PID)
		}
		return Target{}, fmt.Errorf("%d sandboxes are running: %s; choose one with --url URL or %s=URL", len(live), strings.Join(list, ", "), EnvURL)
	}
	e := live[0]
	return Target{URL: e.URL, Source: FromRecord, Entry: &e}, nil
}

// Describe says where the target came from, e.g. "http://127.0.0.1:8080
// (from SANDBOX_URL)", for error messages.
func (t Target) Describe() string {
	switch t.Source {
	case FromRecord:
		return fmt.Sprintf("%s (recorded by sandbox up, pid %d)", t.URL, t.Entry.PID)
	case FromFallback:
		return t.URL + " (the default address: no running sandbox is recorded, and neither --url nor " + EnvURL + " is set)"
	}
	return fmt.Sprintf("%s (from %s)", t.URL, t.Source)
}

// Normalize turns host:port or http(s)://host:port[/prefix] into a base
// URL without a trailing slash.
func Normalize(s string) (string, error) {
	v := strings.TrimSpace(s)
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q is not a sandbox URL; give http://host:port or host:port", s)
	}
	return strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/"), nil
}

// Locate resolves the target of a client that has no --url of its own
// (SANDBOX_URL, then the recorded sandbox, then DefaultURL) and returns its
// URL; the example add-on takes it as its way to find the sandbox.
func Locate(ctx context.Context) (string, error) {
	t, err := Resolve(ctx, "")
	return t.URL, err
}
