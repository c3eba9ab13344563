package jobs

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// TestLifeCycleTimes: each status's next transition on the clock.
func TestLifeCycleTimes(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		status, fault string
		next          time.Time
		open          bool
	}{
		{Pending, "", t0.Add(StartAfter), true},
		{Running, "", t0.Add(StartAfter + RunFor), true},
		{Running, FaultFail, t0.Add(StartAfter + RunFor), true},
		{Running, FaultStall, t0.Add(3 * time.Hour), true},
		{Completed, "", time.Time{}, false},
		{Failed, FaultStall, time.Time{}, false},
	} {
		j := &Job{Created: t0, Status: c.status, Fault: c.fault}
		if got := j.NextDue(); !got.Equal(c.next) || j.Open() != c.open {
			t.Errorf("%s/%s: next %v open %v", c.status, c.fault, got, j.Open())
		}
	}
}

// TestView renders the reference's job record.
func TestView(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	done := t0.Add(3*time.Hour + 2*time.Minute + 5*time.Second)
	v := (&Job{ID: "j", Endpoint: "/api/products/snapshot", Created: t0, Completed: &done, Status: Completed, Language: "en"}).View()
	if *v.CreationTime != "2025-01-01T12:00:00+0000" || *v.Duration != "03:02:05" || *v.Language != "en" || v.ResultURL != nil || v.Log != nil {
		t.Fatalf("%+v", v)
	}
	if v := (&Job{ID: "j", Created: t0, Status: Pending}).View(); v.CompletionTime != nil || v.Duration != nil || v.Language != nil {
		t.Fatalf("pending: %+v", v)
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, _ = w.Write([]byte(s))
	_ = w.Close()
	return b.Bytes()
}

// TestParseLines reads JSON Lines, plain or gzip, and reports bad lines.
func TestParseLines(t *testing.T) {
	in := "{\"guid\":\"a\"}\n\n[1,2]\n{\"guid\":\"b\",\"n\":1.50}\n"
	for name, raw := range map[string][]byte{"plain": []byte(in), "gzip": gz(in)} {
		rows, skipped, err := parseLines(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(rows) != 4 || rows[0]["guid"] != "a" || rows[1] != nil || rows[2] != nil || rows[3]["guid"] != "b" {
			t.Fatalf("%s: rows %v", name, rows)
		}
		if len(skipped) != 1 || skipped[0].line != 3 {
			t.Fatalf("%s: skipped %v", name, skipped)
		}
		if n := rows[3]["n"]; n == nil || n.(interface{ String() string }).String() != "1.50" {
			t.Fatalf("%s: number %v lost its digits", name, n)
		}
	}
	for _, bad := range [][]byte{nil, []byte("\n\n"), {0x1f, 0x8b, 0x00}} {
		if _, _, err := parseLines(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestBatchLog summarises applied and skipped rows.
func TestBatchLog(t *testing.T) {
	var skipped []rowError
	for i := 0; i < 25; i++ {
		skipped = append(skipped, rowError{line: i + 1, msg: "bad."})
	}
	got := batchLog(30, 5, skipped)
	if !strings.HasPrefix(got, "30 rows read, 5 records changed, 25 rows skipped. Line 1: bad.") || !strings.HasSuffix(got, "... and 5 more.") {
		t.Fatal(got)
	}
}

// TestCheckRefusesBatchWithoutWriter: a batch row whose single operation
// nothing can write a line through stops the jobs module at start.
func TestCheckRefusesBatchWithoutWriter(t *testing.T) {
	rows := append(registry.Rows(), &registry.Resource{Name: "gadgets", IDField: "id", Ops: []*registry.Op{
		{Operation: "PolishGadget", Kind: registry.Action},
		{Operation: "PolishGadgetBatch", Kind: registry.Batch, Single: "PolishGadget", Writes: registry.Update},
	}})
	reg, err := registry.New(rows)
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{Registry: reg}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "registry row gadgets: batch PolishGadgetBatch") {
		t.Fatalf("Check: %v", err)
	}
	s = &Service{Registry: mustRegistry(t)}
	if err := s.Check(); err != nil {
		t.Fatalf("the table: %v", err)
	}
}

func mustRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestUnwrapRows: flat lines pass as they are; a library row gives one
// row per entry of data with the fields beside data; conflicting
// identifiers, an empty or malformed data, and settings outside the
// order batch are skipped with the line (and entry) named.
func TestUnwrapRows(t *testing.T) {
	obj := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	cases := []struct {
		name     string
		line     string
		settings bool
		rows     []string // the rows as JSON, in order
		skip     string   // the skip message's start ("" = none)
	}{
		{"flat", `{"guid":"a","name":"x"}`, false, []string{`{"guid":"a","name":"x"}`}, ""},
		{"one object", `{"guid":"a","data":{"name":"x"}}`, false, []string{`{"guid":"a","name":"x"}`}, ""},
		{"a list", `{"categoryGuid":"c","data":[{"productGuid":"p","priority":1},{"productGuid":"q","priority":2}]}`, false,
			[]string{`{"categoryGuid":"c","priority":1,"productGuid":"p"}`, `{"categoryGuid":"c","priority":2,"productGuid":"q"}`}, ""},
		{"the same id twice", `{"guid":"a","data":{"guid":"a","name":"x"}}`, false, []string{`{"guid":"a","name":"x"}`}, ""},
		{"two ids", `{"guid":"a","data":{"guid":"b"}}`, false, nil, "guid is given beside data"},
		{"an empty list", `{"data":[]}`, false, nil, `"data" is an empty list`},
		{"a list entry not an object", `{"data":[1]}`, false, nil, "data[0]: not a JSON object"},
		{"data a string", `{"data":"x"}`, false, nil, `"data" must be the row`},
		{"settings elsewhere", `{"settings":{},"data":{"name":"x"}}`, false, nil, `"settings" belongs to order rows`},
		{"settings without data", `{"settings":{"suppressEmailSending":true},"email":"a@b.c"}`, true, nil, `"settings" goes with "data"`},
		{"order settings", `{"settings":{"suppressEmailSending":true},"data":{"email":"a@b.c"}}`, true,
			[]string{`{"email":"a@b.c","suppressEmailSending":true}`}, ""},
		{"a flag not a boolean", `{"settings":{"suppressEmailSending":"yes"},"data":{}}`, true, nil, "settings.suppressEmailSending must be true or false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows, skipped := unwrapRows([]map[string]any{nil, obj(c.line)}, c.settings)
			if len(rows) != len(c.rows) {
				t.Fatalf("%d rows, want %d (skipped %v)", len(rows), len(c.rows), skipped)
			}
			for i, want := range c.rows {
				got, _ := json.Marshal(rows[i].fields)
				if string(got) != want || rows[i].line != 2 {
					t.Errorf("row %d: %s (line %d), want %s (line 2)", i, got, rows[i].line, want)
				}
			}
			switch {
			case c.skip == "" && len(skipped) > 0:
				t.Fatalf("skipped %v", skipped)
			case c.skip != "" && (len(skipped) != 1 || skipped[0].line != 2 || !strings.HasPrefix(skipped[0].msg, c.skip)):
				t.Fatalf("skipped %v, want line 2: %s…", skipped, c.skip)
			}
		})
	}
}
