package runner

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// storeScenario starts the store add-on (addon_helper_test.go), which
// keeps its state in the file store names and meets the other runs of its
// suite in ${MEET_DIR}.
func storeScenario(name, store string) string {
	return `name: ` + name + `
addon:
  name: example-addon
  eshop: 1001
  url: http://127.0.0.1:${ADDON_PORT}
  ready: /healthz
  startTimeout: 30s
  command: ["${SANDBOX_BIN}"]
  env: {RUNNER_TEST_ADDON: store, STORE_FILE: "` + store + `", MEET_DIR: "${MEET_DIR}", MEET_N: "${MEET_N}"}
steps:
  - wait: 1ms
`
}

// writeScenarios writes name -> YAML into a fresh folder and returns the
// paths, in the order given.
func writeScenarios(t *testing.T, files ...[2]string) []string {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, f := range files {
		p := filepath.Join(dir, f[0])
		if err := os.WriteFile(p, []byte(f[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func names(rs []*Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return out
}

// TestRunSuiteRunsFilesAtOnce: the suite's files, and the runs of
// --count, run at the same time (the store add-on of each run waits until
// all three have started, which a run one at a time never reaches), each
// with its own port and a fresh ${SCENARIO_TMP}, removed afterwards; the
// results come whole and in the jobs' order.
func TestRunSuiteRunsFilesAtOnce(t *testing.T) {
	files := writeScenarios(t, [2]string{"a.yaml", storeScenario("a", "${SCENARIO_TMP}/app.db")}, [2]string{"b.yaml", storeScenario("b", "${SCENARIO_TMP}/app.db")})
	meet := t.TempDir()
	jobs := []Job{{File: files[0], Run: 1, Of: 2}, {File: files[0], Run: 2, Of: 2}, {File: files[1], Run: 1, Of: 1}}
	var reported []string
	res := RunSuite(context.Background(), jobs, Options{Vars: map[string]string{"MEET_DIR": meet, "MEET_N": "3"}}, SuiteOptions{Parallel: 3},
		func(r *Result) { reported = append(reported, r.Name) })
	want := []string{"a (run 1 of 2)", "a (run 2 of 2)", "b"}
	if !reflect.DeepEqual(names(res), want) || !reflect.DeepEqual(reported, want) {
		t.Fatalf("results %v, reported %v; want %v in the jobs' order", names(res), reported, want)
	}
	for _, r := range res {
		if !r.Passed {
			var out strings.Builder
			WriteText(&out, r)
			t.Errorf("%s failed:\n%s", r.Name, out.String())
		}
	}
	entries, err := os.ReadDir(meet)
	if err != nil || len(entries) != 3 {
		t.Fatalf("markers %v %v", entries, err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(meet, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		tmp := string(raw)
		if tmp == "" || seen[tmp] {
			t.Errorf("SCENARIO_TMP %q given to two runs, or empty", tmp)
		}
		seen[tmp] = true
		if _, err := os.Stat(tmp); !os.IsNotExist(err) {
			t.Errorf("SCENARIO_TMP %s is still there after the run: %v", tmp, err)
		}
	}
}

// TestScenarioTmpIsolatesRuns: two scenarios of an add-on that keeps its
// state in a file, run at the same time, pass together when the file is
// in ${SCENARIO_TMP}, and collide when it is one shared path.
func TestScenarioTmpIsolatesRuns(t *testing.T) {
	for _, c := range []struct {
		name, store string
		passed      int
	}{
		{"each run's own folder", "${SCENARIO_TMP}/app.db", 2},
		{"one shared file", "${SHARED}/app.db", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := writeScenarios(t, [2]string{"a.yaml", storeScenario("a", c.store)}, [2]string{"b.yaml", storeScenario("b", c.store)})
			vars := map[string]string{"MEET_DIR": t.TempDir(), "MEET_N": "2", "SHARED": t.TempDir()}
			res := RunSuite(context.Background(), []Job{{File: files[0]}, {File: files[1]}}, Options{Vars: vars}, SuiteOptions{Parallel: 2}, nil)
			passed := 0
			var out strings.Builder
			for _, r := range res {
				WriteText(&out, r)
				if r.Passed {
					passed++
				}
			}
			if len(res) != 2 || passed != c.passed {
				t.Fatalf("%d of %d passed, want %d:\n%s", passed, len(res), c.passed, out.String())
			}
			if c.passed < 2 && !strings.Contains(out.String(), "shared state:") {
				t.Errorf("the failure does not show the add-on's complaint:\n%s", out.String())
			}
		})
	}
}

// TestFreePortsAreNotHandedOutTwice: a port handed to a run is not handed
// to another until the run gives it back, although its probe listener is
// closed at once (the kernel may offer it again).
func TestFreePortsAreNotHandedOutTwice(t *testing.T) {
	held := map[int]bool{}
	for i := 0; i < 200; i++ {
		p, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		if held[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		held[p] = true
	}
	for p := range held {
		releasePort(strconv.Itoa(p))
	}
	ports.Lock()
	defer ports.Unlock()
	if len(ports.taken) != 0 {
		t.Fatalf("%d ports still held after release", len(ports.taken))
	}
}
