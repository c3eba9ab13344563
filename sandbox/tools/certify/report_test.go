package certify

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// sample is a report with one check of each verdict, and characters the
// HTML page must escape.
func sample() *Report {
	rs := results{}
	rs.set(CheckInstall, Passed, "The add-on exchanged the code, then answered 200.", []string{"install 1: GET http://127.0.0.1:9090/install?code=<255 characters> -> HTTP 200 after 4 ms"})
	rs.set(CheckSignature, Failed, "A forged notification must be refused; the add-on answered WRONG signature: 200.", []string{
		`09:00:01.000 certify: webhook order:create 2025000001 (eventCreated 09:00:01) to http://127.0.0.1:9090/webhooks, WRONG signature -> 200 in 1ms`,
		`<script>alert("not run")</script>`})
	rs.set(CheckDuplicate, Observed, "The same order:create 2025000001, delivered twice, was answered 200 and 200; the add-on made 2 API calls after them.", nil)
	return &Report{Addon: "my-addon", Eshop: 1001, InstallURL: "http://127.0.0.1:9090/install", WebhookURL: "http://127.0.0.1:9090/webhooks",
		HeaderPrefix: "Acme", Notes: []string{"2 API call(s) sent the token in Other-Access-Token and were answered 401: <b>this</b> run's sandbox speaks Acme."}, Writes: []string{"certify-429 round: 09:00:02.000 PATCH /api/orders/2025000025/status -> 200, token abc"},
		Triggers: []string{"order:create"}, Started: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), Duration: 12340 * time.Millisecond,
		Checks: rs.ordered("not run: the sample stops here"), AddonOutput: "listening on 127.0.0.1:9090\nrefused a webhook? no",
		Chaos: &Chaos{Rate: 0.25, Seed: 7, Coping: []scenario.ChaosCoping{{Fault: "chaos:locked", Injected: 2, Recovered: 1, Open: 1,
			Summary: "chaos:locked: 2 injected; 1 followed by a successful call of the same operation (or answered late but well), 1 not (yet)"}}}}
}

// TestViews: the report card, JUnit and the HTML page of a sample
// report, against golden files (go test -update rewrites them).
func TestViews(t *testing.T) {
	rep := sample()
	for _, v := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"card.txt", func(b *bytes.Buffer) error { rep.WriteText(b); return nil }},
		{"junit.xml", func(b *bytes.Buffer) error { return rep.WriteJUnit(b) }},
		{"report.html", func(b *bytes.Buffer) error { return rep.WriteHTML(b) }},
	} {
		t.Run(v.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := v.write(&b); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", v.file)
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Fatalf("%s differs from the golden file (go test -update rewrites it):\n%s", v.file, b.String())
			}
		})
	}
}

// TestHTMLIsSelfContained: the page fetches nothing (no script, no
// stylesheet link, no image or URL in an attribute) and escapes what the
// add-on sent.
func TestHTMLIsSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := sample().WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)<script`), regexp.MustCompile(`(?i)<link`), regexp.MustCompile(`(?i)<img`),
		regexp.MustCompile(`(?i)\s(src|href)=`), regexp.MustCompile(`(?i)url\(`), regexp.MustCompile(`(?i)@import`),
	} {
		if loc := bad.FindStringIndex(page); loc != nil {
			t.Errorf("the page contains %q", page[loc[0]:min(len(page), loc[1]+40)])
		}
	}
	if !bytes.Contains(b.Bytes(), []byte(`&lt;script&gt;alert(&#34;not run&#34;)&lt;/script&gt;`)) {
		t.Error("the evidence is not escaped")
	}
}

// TestOutcome: a failed check fails the run; a check not exercised does
// not, but leaves it INCOMPLETE rather than CERTIFIED; observations are
// no gap.
func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		name     string
		verdicts []Verdict
		want     string
	}{
		{"all passed", []Verdict{Passed, Passed}, OutcomeCertified},
		{"passed and observed", []Verdict{Passed, Observed}, OutcomeCertified},
		{"one not exercised", []Verdict{Passed, NotExercised, Observed}, OutcomeIncomplete},
		{"nothing exercised", []Verdict{NotExercised, NotExercised}, OutcomeIncomplete},
		{"one failed", []Verdict{Passed, NotExercised, Failed}, OutcomeFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{}
			for i, v := range tc.verdicts {
				r.Checks = append(r.Checks, Result{ID: Rules[i].ID, Verdict: v})
			}
			if got := r.Outcome(); got != tc.want {
				t.Fatalf("Outcome() = %s, want %s", got, tc.want)
			}
			if r.Failed() != (tc.want == OutcomeFailed) {
				t.Fatalf("Failed() = %v", r.Failed())
			}
		})
	}
}
