package runner

import (
	"context"
	"reflect"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

// TestFilterSelects: --run picks scenarios by file name or scenario name,
// and with SCENARIO/STEP only those with a step of that name; a slash in
// brackets is part of the pattern, as in go test -run.
func TestFilterSelects(t *testing.T) {
	sc, err := scenario.Parse("dir/fault-latency.yaml", []byte(`name: The add-on waits out latency
steps:
  - advanceClock: 1m
  - name: reads the order
    wait: 1ms
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		expr string
		want bool
	}{
		{"", true},
		{"latency", true},
		{"^fault-latency\\.yaml$", true},
		{"waits out", true},
		{"locked", false},
		{"dir", false}, // the folder is not part of the name
		{"latency/advanceClock", true},
		{"latency/reads the", true},
		{"latency/emit", false},
		{"locked/advanceClock", false},
		{"[/]", false},
	} {
		f, err := ParseFilter(c.expr)
		if err != nil {
			t.Fatalf("%q: %v", c.expr, err)
		}
		if got := f.Selects(sc.File, sc); got != c.want {
			t.Errorf("--run %q selects %v, want %v", c.expr, got, c.want)
		}
		if got := f.Selects(sc.File, nil); c.expr == "latency" && !got {
			t.Errorf("--run %q: a file that does not load is not picked by its name", c.expr)
		}
	}
	if _, err := ParseFilter("a/("); err == nil {
		t.Error("a bad step pattern is accepted")
	}
}

// TestRunSelectedSteps: with a step pattern, the steps up to the last one
// it picks run; the ones after it neither run nor appear, so the scenario
// passes although its last step would fail.
func TestRunSelectedSteps(t *testing.T) {
	f, err := ParseFilter("x/second")
	if err != nil {
		t.Fatal(err)
	}
	res, out := runYAML(t, `name: x
steps:
  - name: first
    call: {eshop: 1001, path: /api/eshop}
  - name: second
    call: {eshop: 1001, path: /api/orders}
  - name: third fails
    call: {eshop: 1001, path: /api/eshop, expect: {status: 418}}
`, Options{Steps: f.Step})
	var ran []string
	for _, s := range res.Steps {
		ran = append(ran, s.Name+" "+s.Status)
	}
	if want := []string{"first passed", "second passed"}; !res.Passed || !reflect.DeepEqual(ran, want) {
		t.Fatalf("steps %v, want %v:\n%s", ran, want, out)
	}
}

// TestRunSuiteFailFast: with FailFast no scenario starts after one
// failed, and the one running beside it finishes and is reported; without
// it every scenario runs.
func TestRunSuiteFailFast(t *testing.T) {
	files := writeScenarios(t,
		[2]string{"a.yaml", "name: a fails\nsteps:\n  - call: {eshop: 1001, path: /api/eshop, expect: {status: 418}}\n"},
		[2]string{"b.yaml", "name: b takes longer\nsteps:\n  - wait: 3s\n"},
		[2]string{"c.yaml", "name: c passes\nsteps:\n  - wait: 1ms\n"})
	jobs := []Job{{File: files[0]}, {File: files[1]}, {File: files[2]}}
	for _, c := range []struct {
		name  string
		sopts SuiteOptions
		want  []string
	}{
		{"one at a time", SuiteOptions{Parallel: 1, FailFast: true}, []string{"a fails"}},
		{"two at a time", SuiteOptions{Parallel: 2, FailFast: true}, []string{"a fails", "b takes longer"}},
		{"without fail-fast", SuiteOptions{Parallel: 2}, []string{"a fails", "b takes longer", "c passes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := RunSuite(context.Background(), jobs, Options{}, c.sopts, nil)
			if got := names(res); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("ran %v, want %v", got, c.want)
			}
			if len(res) > 1 && !res[1].Passed {
				t.Errorf("the scenario running beside the failure did not finish: %+v", res[1].Steps)
			}
		})
	}
}
