package discover

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// isolate points the records at a fresh folder and clears SANDBOX_URL.
func isolate(t *testing.T) string {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv(EnvURL, "")
	return filepath.Join(state, "eshop-sandbox", "running")
}

// healthyServer is a loopback server that answers the health check.
func healthyServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != HealthPath {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"data":{"status":"ok"}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// deadPID is the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestRecordAndRemove(t *testing.T) {
	dir := isolate(t)
	remove, err := Record(Entry{Addr: "0.0.0.0:8123", Version: "v1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	all, err := Recorded()
	if err != nil || len(all) != 1 {
		t.Fatalf("recorded %v, %v", all, err)
	}
	e := all[0]
	if e.URL != "http://127.0.0.1:8123" || e.PID != os.Getpid() || e.Version != "v1.2.3" || e.Started.IsZero() {
		t.Fatalf("entry %+v", e)
	}
	st, err := os.Stat(filepath.Join(dir, "0.0.0.0_8123.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("record file: %v %v", st, err)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if all, _ := Recorded(); len(all) != 0 {
		t.Fatalf("left after remove: %v", all)
	}

	// Another sandbox took the address since: its record stays.
	remove, err = Record(Entry{Addr: "127.0.0.1:8124"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Record(Entry{Addr: "127.0.0.1:8124", PID: os.Getpid() + 1}); err != nil {
		t.Fatal(err)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if all, _ := Recorded(); len(all) != 1 || all[0].PID != os.Getpid()+1 {
		t.Fatalf("the newer record was removed: %v", all)
	}
}

// TestRunning: a live record is listed; a record whose process is gone is
// deleted; one whose address does not answer is skipped but kept.
func TestRunning(t *testing.T) {
	dir := isolate(t)
	srv := healthyServer(t)
	live := strings.TrimPrefix(srv.URL, "http://")
	if _, err := Record(Entry{Addr: live}); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(Entry{Addr: "127.0.0.1:1", PID: deadPID(t)}); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(Entry{Addr: "127.0.0.1:2"}); err != nil { // this process, nothing listening
		t.Fatal(err)
	}
	got, err := Running(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].URL != srv.URL {
		t.Fatalf("running %+v, want only %s", got, srv.URL)
	}
	if _, err := os.Stat(filepath.Join(dir, "127.0.0.1_1.json")); !os.IsNotExist(err) {
		t.Errorf("the stale record is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "127.0.0.1_2.json")); err != nil {
		t.Errorf("the record of a live process was deleted: %v", err)
	}
}

func TestResolve(t *testing.T) {
	srv := healthyServer(t)
	other := healthyServer(t)
	cases := []struct {
		name    string
		flag    string
		env     string
		records []string // addresses recorded by this (live) process
		want    string
		source  Source
		err     string
	}{
		{name: "nothing: the default", want: DefaultURL, source: FromFallback},
		{name: "one record", records: []string{srv.URL}, want: srv.URL, source: FromRecord},
		{name: "the env wins over a record", env: "127.0.0.1:9999", records: []string{srv.URL}, want: "http://127.0.0.1:9999", source: FromEnv},
		{name: "the flag wins over the env", flag: "https://sbx.example:8443/", env: "127.0.0.1:9999", want: "https://sbx.example:8443", source: FromFlag},
		{name: "two records: ask", records: []string{srv.URL, other.URL}, err: "2 sandboxes are running: "},
		{name: "a bad flag", flag: "ftp://x", err: `--url: "ftp://x" is not a sandbox URL`},
		{name: "a bad env", env: "http://", err: `SANDBOX_URL: "http://" is not a sandbox URL`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			isolate(t)
			t.Setenv(EnvURL, c.env)
			for i, u := range c.records {
				if _, err := Record(Entry{Addr: strings.TrimPrefix(u, "http://"), Started: time.Now().Add(time.Duration(i) * time.Second)}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Resolve(context.Background(), c.flag)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.URL != c.want || got.Source != c.source {
				t.Fatalf("got %s from %s, want %s from %s", got.URL, got.Source, c.want, c.source)
			}
			if !strings.Contains(got.Describe(), got.URL) {
				t.Errorf("Describe() = %q", got.Describe())
			}
		})
	}
}

func TestNormalizeAndLocalURL(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{in: "127.0.0.1:8080", want: "http://127.0.0.1:8080"},
		{in: " http://localhost:9000/ ", want: "http://localhost:9000"},
		{in: "https://host/prefix/", want: "https://host/prefix"},
		{in: "ftp://x", err: "not a sandbox URL"},
		{in: "http://h:1/?q=1", err: "not a sandbox URL"},
	} {
		got, err := Normalize(c.in)
		if (err != nil) != (c.err != "") || got != c.want {
			t.Errorf("Normalize(%q) = %q, %v", c.in, got, err)
		}
	}
	for in, want := range map[string]string{
		"0.0.0.0:8080": "http://127.0.0.1:8080", "[::]:8080": "http://127.0.0.1:8080", ":8080": "http://127.0.0.1:8080",
		"127.0.0.1:9": "http://127.0.0.1:9", "[::1]:9": "http://[::1]:9",
	} {
		if got := LocalURL(in); got != want {
			t.Errorf("LocalURL(%q) = %q, want %q", in, got, want)
		}
	}
}
