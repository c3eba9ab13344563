package scenarios_test

import (
	"bytes"
	"io/fs"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/scenarios"
)

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
