package junit

import (
	"strings"
	"testing"
	"time"
)

// TestWrite: totals follow the cases, empty optional attributes are left
// out, and text is escaped.
func TestWrite(t *testing.T) {
	s := Suite{Name: "s", Time: Seconds(1500 * time.Millisecond), Cases: []Case{
		{Name: "ok", Classname: "c", SystemOut: "fine"},
		{Name: "bad", Classname: "c", File: "f.yaml", Line: 7, Failure: &Message{Message: "expected <a>", Type: "t", Body: "x & y"}},
		{Name: "broken", Classname: "c", Error: &Message{Message: "setup"}},
		{Name: "later", Classname: "c", Skipped: &Message{Message: "not run"}},
	}}
	s.Count()
	d := Suites{Name: "run"}
	d.Add(s)
	d.Add(Suite{Name: "empty"})
	var b strings.Builder
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="run" tests="4" failures="1" errors="1" skipped="1">
  <testsuite name="s" tests="4" failures="1" errors="1" skipped="1" time="1.500">
    <testcase name="ok" classname="c">
      <system-out>fine</system-out>
    </testcase>
    <testcase name="bad" classname="c" file="f.yaml" line="7">
      <failure message="expected &lt;a&gt;" type="t">x &amp; y</failure>
    </testcase>
    <testcase name="broken" classname="c">
      <error message="setup"></error>
    </testcase>
    <testcase name="later" classname="c">
      <skipped message="not run"></skipped>
    </testcase>
  </testsuite>
  <testsuite name="empty" tests="0" failures="0" errors="0" skipped="0"></testsuite>
</testsuites>
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
