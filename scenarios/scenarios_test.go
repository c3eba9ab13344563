package scenarios_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/cmd/example-addon/addon"
	"github.com/eshop-sandbox/sandbox/sandbox/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/scenario/runner"
	"github.com/eshop-sandbox/sandbox/scenarios"
)

// beAddon makes this test binary act as cmd/example-addon when the runner
// starts it as a scenario's add-on command (EXAMPLE_ADDON points here), so
// the examples run against the real add-on without a separate build.
const beAddon = "SANDBOX_TEST_BE_EXAMPLE_ADDON"

func TestMain(m *testing.M) {
	if os.Getenv(beAddon) == "1" {
		os.Exit(addon.Main())
	}
	os.Exit(m.Run())
}

func files(t *testing.T) []string {
	t.Helper()
	entries, err := fs.ReadDir(scenarios.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	if len(out) == 0 {
		t.Fatal("no example scenarios")
	}
	return out
}

// TestExamples runs every scenario of this folder against the example
// add-on; each must pass.
func TestExamples(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(beAddon, "1") // inherited by the add-on processes only; this process checked it at start
	for _, name := range files(t) {
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			res := runner.RunFile(context.Background(), name, runner.Options{Vars: map[string]string{"EXAMPLE_ADDON": exe}})
			var out bytes.Buffer
			runner.WriteText(&out, res)
			if !res.Passed {
				t.Fatalf("scenario failed:\n%s", out.String())
			}
			t.Log("\n" + out.String())
		})
	}
}

// TestExamplesCoverEveryKind: the folder holds at least one documented
// example of every fault kind and every step kind.
func TestExamplesCoverEveryKind(t *testing.T) {
	faultKinds := map[string]bool{}
	stepKinds := map[string]bool{}
	for _, name := range files(t) {
		raw, err := scenarios.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(raw, []byte("# ")) {
			t.Errorf("%s does not start with a comment explaining it", name)
		}
		sc, err := scenario.Parse(name, raw)
		if err != nil {
			t.Fatalf("%v", err)
		}
		for _, f := range sc.Faults {
			faultKinds[f.Kind()] = true
			if f.Trigger == scenario.TriggerHeader {
				faultKinds["trigger: header"] = true
			}
		}
		for _, s := range sc.Steps {
			stepKinds[s.Kind()] = true
		}
	}
	for _, k := range []string{scenario.KindRespond, scenario.KindLatency, scenario.KindClose, scenario.KindExpireToken, scenario.KindHoldLock,
		scenario.KindJobFail, scenario.KindJobStall, scenario.KindFillBucket, scenario.KindMaintenance, scenario.KindWebhookSignature,
		scenario.KindWebhookDuplicate, scenario.KindWebhookOutOfOrder, scenario.KindWebhookDelay, "trigger: header"} {
		if !faultKinds[k] {
			t.Errorf("no example of fault kind %s", k)
		}
	}
	for _, k := range []string{scenario.StepInstall, scenario.StepEmit, scenario.StepCall, scenario.StepAdvanceClock, scenario.StepSetClock,
		scenario.StepWait, scenario.StepExpectRequest, scenario.StepExpectNoRequest, scenario.StepExpectWebhookAck,
		scenario.StepExpectWebhookRejected, scenario.StepExpectBackoff, scenario.StepExpectReport} {
		if !stepKinds[k] {
			t.Errorf("no example of step kind %s", k)
		}
	}
}
