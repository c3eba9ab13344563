package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/schemas"
)

func eventsSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := schemas.FS.ReadFile(EventsSchema)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	const url = "https://sandbox.local/schemas/" + EventsSchema
	if err := c.AddResource(url, bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestEventsMatchTheSchema: every line --json prints for a suite with a
// passing, a failing and a broken scenario validates against
// schemas/test-events.schema.json; the failed step's line names what it
// expected, what it got and its line in the file; and the schema refuses
// lines of no known shape.
func TestEventsMatchTheSchema(t *testing.T) {
	files := writeScenarios(t,
		[2]string{"a.yaml", "name: fine\nsteps:\n  - call: {eshop: 1001, path: /api/eshop}\n"},
		[2]string{"b.yaml", "name: wrong\nsteps:\n  - wait: 1ms\n  - call: {eshop: 1001, path: /api/eshop, expect: {status: 418}}\n  - wait: 1ms\n"},
		[2]string{"c.yaml", "name: broken\nsteps: [{wait: never}]\n"})
	var out bytes.Buffer
	res := RunSuite(context.Background(), []Job{{File: files[0]}, {File: files[1]}, {File: files[2]}}, Options{}, SuiteOptions{Parallel: 3},
		func(r *Result) {
			if err := WriteEvents(&out, ScenarioEvents(r)...); err != nil {
				t.Fatal(err)
			}
		})
	if err := WriteEvents(&out, SuiteEvent(res, 0, time.Second)); err != nil {
		t.Fatal(err)
	}
	schema := eventsSchema(t)
	var lines []string
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		var v any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, sc.Text())
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s\n%#v", sc.Text(), err)
		}
	}
	// fine: start, 1 step, end; wrong: start, 3 steps, end; broken:
	// start, setup, end; the suite's end.
	if len(lines) != 3+5+3+1 {
		t.Fatalf("%d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for i, want := range map[int]string{
		0:  `"Action":"start","File":"` + files[0] + `","Scenario":"fine"}`,
		5:  `"Action":"fail","File":"` + files[1] + `","Scenario":"wrong","Step":"call","Index":2,"Kind":"call","Line":4,"Elapsed":`,
		6:  `"Action":"skip",`,
		7:  `"Action":"fail","File":"` + files[1] + `","Scenario":"wrong","Elapsed":`,
		9:  `"Step":"setup"`,
		11: `"Action":"fail","Elapsed":1,"Passed":1,"Failed":2,"NotRun":0}`,
	} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d lacks %s:\n%s", i+1, want, lines[i])
		}
	}
	if !strings.Contains(lines[5], `"Expected":"GET /api/eshop answers 418","Got":"200 {`) {
		t.Errorf("the failed step's line lacks expected and got:\n%s", lines[5])
	}
	for _, bad := range []string{
		`{"Time":"2025-06-02T09:00:00Z","Action":"pass","File":"a.yaml","Scenario":"a","Step":"x"}`,
		`{"Time":"2025-06-02T09:00:00Z","Action":"start","File":"a.yaml"}`,
		`{"Time":"yesterday","Action":"start","File":"a.yaml","Scenario":"a"}`,
		`{"Time":"2025-06-02T09:00:00Z","Action":"finish","Elapsed":1,"Passed":1,"Failed":0,"NotRun":0}`,
		`{"Time":"2025-06-02T09:00:00Z","Action":"start","File":"a.yaml","Scenario":"a","Extra":1}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if schema.Validate(v) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}
