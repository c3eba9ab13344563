package certify

import (
	"context"
	"encoding/xml"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The suite is tested end to end: real add-on programs on loopback, a
// real sandbox, real faults. The example add-on must pass every check;
// each deliberately broken add-on (testdata/brokenaddon) must fail
// exactly the check of the rule it breaks and no other.

// testTiming keeps a run short: waits a loaded CI machine still meets,
// and a one-second maintenance window.
var testTiming = Timing{Start: 30 * time.Second, Webhook: 3 * time.Second, Quiet: 250 * time.Millisecond, Settle: 6 * time.Second,
	RetryAfter: time.Second, Maintenance: time.Second, Latency: 200 * time.Millisecond, Burst: 6, Stop: 5 * time.Second}

// binDir holds the add-on programs the tests build.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "certify-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var programs struct {
	once   sync.Once
	failed string
}

// build compiles the example add-on and the broken one once per test
// binary (the go command's cache makes a rebuild cheap).
func build(t *testing.T) (example, broken string) {
	t.Helper()
	programs.once.Do(func() {
		root, err := filepath.Abs(filepath.Join("..", "..", ".."))
		if err != nil {
			programs.failed = err.Error()
			return
		}
		for _, p := range []struct{ pkg, bin string }{{"./cmd/example-addon", "example-addon"}, {"./sandbox/tools/certify/testdata/brokenaddon", "brokenaddon"}} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, p.bin), p.pkg)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				programs.failed = fmt.Sprintf("go build %s: %v\n%s", p.pkg, err, out)
				return
			}
		}
	})
	if programs.failed != "" {
		t.Fatal(programs.failed)
	}
	return filepath.Join(binDir, "example-addon"), filepath.Join(binDir, "brokenaddon")
}

// handedOut are the addresses freeAddr gave: the runs start at once, and
// the kernel may offer a port it just freed again.
var handedOut = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// freeAddr is a loopback address nobody listens on now, and no other run
// of this test binary was given.
func freeAddr(t *testing.T) string {
	t.Helper()
	handedOut.Lock()
	defer handedOut.Unlock()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		if !handedOut.m[addr] {
			handedOut.m[addr] = true
			return addr
		}
	}
}

// runs are the certifications the end-to-end tests judge: the example
// add-on, each broken add-on, and an add-on certified without triggers.
// They run at once (each mostly waits for its add-on), and each test
// judges its own.
var runs struct {
	once    sync.Once
	reports map[string]*Report
	errs    map[string]error
}

// brokenRules pairs each breakage of testdata/brokenaddon with the check
// it must fail.
var brokenRules = []struct{ brk, check string }{
	{"answer-early", CheckInstall},
	{"ignore-signature", CheckSignature},
	{"retry-422", CheckNoRetry},
	{"ignore-retry-after", CheckRetryAfter},
	{"keep-expired-token", CheckExpiredToken},
	{"retry-503", CheckMaintenance},
}

// run is one certification of the end-to-end tests.
type run struct {
	name, addon, command string
	triggers             []string
	chaos                float64
	prefix               string  // Options.HeaderPrefix
	timing               *Timing // nil: testTiming
}

// report returns the report of one of the runs, running them all the
// first time.
func report(t *testing.T, name string) *Report {
	t.Helper()
	example, broken := build(t)
	runs.once.Do(func() {
		var all []run
		addr := freeAddr(t)
		all = append(all, run{name: "example", addon: "example-addon", command: example + " --listen " + addr + " --quiet --events order:create,order:update,customer:import",
			triggers: []string{"order:create", "customer:import"}})
		for _, b := range brokenRules {
			all = append(all, run{name: b.brk, addon: "broken-addon", command: broken + " --break " + b.brk, triggers: []string{"order:create"}})
		}
		all = append(all, run{name: "no-triggers", addon: "quiet-addon", command: broken})
		all = append(all, run{name: "chaos", addon: "example-addon", command: example + " --quiet --events order:create,order:update", triggers: []string{"order:create"}, chaos: 0.5})
		// An add-on whose client library speaks another brand word, with
		// it and without; the first also writes what its environment
		// said the word was.
		acme := example + " --header-prefix Acme --quiet --events order:create,order:update"
		all = append(all, run{name: "acme", addon: "example-addon", command: `echo "$SANDBOX_HEADER_PREFIX" >` + filepath.Join(binDir, "acme-env") + "; exec " + acme,
			triggers: []string{"order:create"}, prefix: "Acme"})
		all = append(all, run{name: "acme-unset", addon: "example-addon", command: acme, triggers: []string{"order:create"}})
		// An add-on that moves new orders on, one that refuses every
		// webhook, and one that makes no API call at all (with the
		// default --settle, to show it is not waited for round by round).
		all = append(all, run{name: "writer", addon: "writer-addon", command: broken + " --process-orders", triggers: []string{"order:create"}})
		all = append(all, run{name: "refuse-webhooks", addon: "broken-addon", command: broken + " --break refuse-webhooks", triggers: []string{"order:create"}})
		slow := testTiming
		slow.Settle = DefaultTiming.Settle
		all = append(all, run{name: "silent", addon: "broken-addon", command: broken + " --break silent", triggers: []string{"order:create"}, timing: &slow})
		runs.reports, runs.errs = map[string]*Report{}, map[string]error{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i, r := range all {
			if i > 0 {
				addr = freeAddr(t)
				r.command += " --listen " + addr
			}
			wg.Add(1)
			// The run's sandbox listens on an address from the same
			// list: bound to :0, it could get a port just handed out
			// to an add-on, which the sandbox then refuses to call.
			sandboxAddr := freeAddr(t)
			go func(r run, addr string) {
				defer wg.Done()
				rep, err := certifyRun(sandboxAddr, addr, r)
				mu.Lock()
				runs.reports[r.name], runs.errs[r.name] = rep, err
				mu.Unlock()
			}(r, addr)
		}
		wg.Wait()
	})
	if err := runs.errs[name]; err != nil {
		t.Fatal(err)
	}
	rep := runs.reports[name]
	if rep == nil {
		t.Fatalf("no run %q", name)
	}
	if len(rep.Checks) != len(Rules) {
		t.Fatalf("%d checks reported, want %d", len(rep.Checks), len(Rules))
	}
	return rep
}

// certifyRun certifies the add-on a command starts at addr.
func certifyRun(sandboxAddr, addr string, r run) (*Report, error) {
	o := Options{Addr: sandboxAddr, Addon: r.addon, InstallURL: "http://" + addr + "/install", Command: r.command, Timing: testTiming,
		ChaosRate: r.chaos, ChaosSeed: 11, HeaderPrefix: r.prefix}
	if r.timing != nil {
		o.Timing = *r.timing
	}
	for _, tr := range r.triggers {
		x, err := ParseTrigger(tr)
		if err != nil {
			return nil, err
		}
		o.Triggers = append(o.Triggers, x)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return Run(ctx, o)
}

// card is the report card, for failure messages.
func card(r *Report) string {
	var b strings.Builder
	r.WriteText(&b)
	return b.String()
}

// TestChaosInACertification: with --chaos, half of the example add-on's
// calls get a platform fault besides the rounds' own, and the card says,
// per kind drawn, how the add-on coped (whether every check still passes
// is the add-on's business: chaos is there to find out).
func TestChaosInACertification(t *testing.T) {
	rep := report(t, "chaos")
	if rep.Chaos == nil || rep.Chaos.Rate != 0.5 || rep.Chaos.Seed != 11 {
		t.Fatalf("chaos section: %+v\n%s", rep.Chaos, card(rep))
	}
	injected := 0
	for _, c := range rep.Chaos.Coping {
		injected += c.Injected
		if c.Recovered+c.Open != c.Injected || !strings.HasPrefix(c.Fault, "chaos:") {
			t.Errorf("coping %+v", c)
		}
	}
	if injected == 0 {
		t.Fatalf("no fault drawn for half of the add-on's calls:\n%s", card(rep))
	}
	if !strings.Contains(card(rep), "chaos: 50% of the add-on's calls, seed 11 (--seed 11 repeats them)") {
		t.Fatalf("card:\n%s", card(rep))
	}
}

// TestExampleAddonIsCertified: cmd/example-addon, with the events that
// make it call (an order, and a customer import it reads through an
// asynchronous snapshot), passes every check; the two observations are
// reported as such. The JUnit and HTML forms of its report hold every
// check.
func TestExampleAddonIsCertified(t *testing.T) {
	rep := report(t, "example")
	observations := map[string]bool{CheckDuplicate: true, CheckOutOfOrder: true}
	for _, c := range rep.Checks {
		want := Passed
		if observations[c.ID] {
			want = Observed
		}
		if c.Verdict != want {
			t.Errorf("%s: %s, want %s: %s", c.ID, c.Verdict, want, c.Summary)
		}
		if len(c.Evidence) == 0 && c.ID != CheckContentType {
			t.Errorf("%s: no evidence", c.ID)
		}
	}
	if rep.Failed() || rep.Outcome() != "CERTIFIED" {
		t.Errorf("outcome %s", rep.Outcome())
	}
	if t.Failed() {
		t.Fatalf("report card:\n%s", card(rep))
	}

	var junit strings.Builder
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suite    struct {
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(junit.String()), &doc); err != nil {
		t.Fatalf("JUnit: %v\n%s", err, junit.String())
	}
	if doc.Tests != len(Rules) || doc.Failures != 0 || len(doc.Suite.Cases) != len(Rules) {
		t.Fatalf("JUnit: %d tests, %d failures, %d cases\n%s", doc.Tests, doc.Failures, len(doc.Suite.Cases), junit.String())
	}
	var page strings.Builder
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules {
		if !strings.Contains(page.String(), `id="`+r.ID+`"`) {
			t.Errorf("the HTML page has no row for %s", r.ID)
		}
	}
}

// TestBrokenAddonsFailTheirCheck: an add-on that breaks one rule fails
// that rule's check and no other. Without an asynchronous call, the
// job:finished check is not exercised.
func TestBrokenAddonsFailTheirCheck(t *testing.T) {
	for _, tc := range brokenRules {
		t.Run(tc.brk, func(t *testing.T) {
			rep := report(t, tc.brk)
			var failed []string
			for _, c := range rep.Checks {
				if c.Verdict == Failed {
					failed = append(failed, c.ID)
				}
			}
			if len(failed) != 1 || failed[0] != tc.check {
				t.Fatalf("failed checks %v, want exactly [%s]\n%s", failed, tc.check, card(rep))
			}
			if c := rep.Check(tc.check); len(c.Evidence) == 0 || c.Summary == "" {
				t.Fatalf("%s failed without saying why: %+v", tc.check, c)
			}
			if want := "breaking \"" + tc.brk + "\""; !strings.Contains(rep.AddonOutput, want) {
				t.Fatalf("the report of a failed run shows the add-on's output %q, without %q", rep.AddonOutput, want)
			}
			if j := rep.Check(CheckJobFinished); j.Verdict != NotExercised {
				t.Fatalf("job-finished: %s, want not exercised (the broken add-on starts no job)", j.Verdict)
			}
		})
	}
}

// TestWithoutTriggers: with no trigger event the add-on still calls the
// API while it installs and handles webhooks, so the checks over the
// whole run are judged; the fault rounds meet no call and say so, as
// "not exercised", never "passed"; so does the concurrency check, with
// never more calls to make than the limit.
func TestWithoutTriggers(t *testing.T) {
	rep := report(t, "no-triggers")
	want := map[string]Verdict{
		CheckContentType: Passed, CheckConcurrency: NotExercised, CheckWebhookAck: Passed, CheckSignature: Passed,
		CheckRetryAfter: NotExercised, CheckMaintenance: NotExercised, CheckNoRetry: NotExercised,
		CheckExpiredToken: NotExercised, CheckJobFinished: NotExercised,
	}
	var got []string
	for _, c := range rep.Checks {
		if v, ok := want[c.ID]; ok && c.Verdict != v {
			got = append(got, c.ID+": "+string(c.Verdict)+", want "+string(v))
		}
		if c.Verdict == Failed {
			got = append(got, c.ID+" failed")
		}
	}
	sort.Strings(got)
	if len(got) > 0 {
		t.Fatalf("%s\n%s", strings.Join(got, "\n"), card(rep))
	}
	if !strings.Contains(rep.Check(CheckRetryAfter).Summary, "no call met the 429") {
		t.Fatalf("retry-after says %q", rep.Check(CheckRetryAfter).Summary)
	}
}

// TestHeaderPrefix: an add-on that speaks only another brand word (the
// example add-on with --header-prefix Acme, as a client library that
// hard-codes its word) is certified with --header-prefix Acme: its
// calls, the webhooks certify signs and the system events all use the
// word, the add-on's environment names it, and the card says which it
// was. Without it, the same add-on cannot even install.
func TestHeaderPrefix(t *testing.T) {
	rep := report(t, "acme")
	if rep.Failed() || rep.HeaderPrefix != "Acme" {
		t.Fatalf("outcome %s, header prefix %q\n%s", rep.Outcome(), rep.HeaderPrefix, card(rep))
	}
	for _, id := range []string{CheckInstall, CheckWebhookAck, CheckSignature, CheckContentType, CheckRetryAfter, CheckExpiredToken, CheckSuspend} {
		if c := rep.Check(id); c.Verdict != Passed {
			t.Errorf("%s: %s, want passed: %s", id, c.Verdict, c.Summary)
		}
	}
	if want := "  header prefix: Acme (Acme-Access-Token, application/vnd.acme.v1.0, Acme-Webhook-Signature)\n"; !strings.Contains(card(rep), want) {
		t.Errorf("the card does not say %q", want)
	}
	if t.Failed() {
		t.Fatalf("report card:\n%s", card(rep))
	}
	env, err := os.ReadFile(filepath.Join(binDir, "acme-env"))
	if err != nil || strings.TrimSpace(string(env)) != "Acme" {
		t.Errorf("the add-on's environment said SANDBOX_HEADER_PREFIX=%q (%v), want Acme", env, err)
	}

	// Without it the add-on's calls are refused (its set-up fails, so it
	// never gets a signature key and refuses the system events), and the
	// card says which word its calls spoke.
	unset := report(t, "acme-unset")
	want := "sent the token in Acme-Access-Token and were answered 401: this run's sandbox speaks Service (Service-Access-Token). Certify the add-on with --header-prefix Acme."
	if !unset.Failed() || unset.HeaderPrefix != "Service" || !strings.Contains(card(unset), want) {
		t.Fatalf("without --header-prefix: %s, header prefix %q, want a note %q\n%s", unset.Outcome(), unset.HeaderPrefix, want, card(unset))
	}
}

// TestWritesUnderTheRounds: with --trigger order:create each round
// creates a fresh order, in the e-shop's default status as a buyer's
// order comes in, so an add-on that moves new orders on (and only reads
// the others) writes while the faults are in force, and the card shows
// those writes.
func TestWritesUnderTheRounds(t *testing.T) {
	rep := report(t, "writer")
	if rep.Failed() {
		t.Fatalf("the order-processing add-on failed:\n%s", card(rep))
	}
	status := regexp.MustCompile(`^(certify-[a-z0-9-]+)(?: \(burst\))? round: \S+ PATCH /api/orders/(\d+)/status -> 200`)
	rounds, orders := map[string]bool{}, map[string]bool{}
	for _, w := range rep.Writes {
		if m := status.FindStringSubmatch(w); m != nil {
			rounds[m[1]], orders[m[2]] = true, true
		}
	}
	// The rounds after which the add-on carries on (the others answer
	// its read with an error it does not retry).
	for _, r := range []string{"certify-429", "certify-423", "certify-slow", "certify-expired-token"} {
		if !rounds[r] {
			t.Errorf("no status change under the %s round", r)
		}
	}
	if len(orders) < testTiming.Burst+3 {
		t.Errorf("status changes of %d orders, want one a fresh order: at least %d", len(orders), testTiming.Burst+3)
	}
	if t.Failed() {
		t.Fatalf("writes: %q\n%s", rep.Writes, card(rep))
	}
	if !strings.Contains(card(rep), "writes under the fault rounds (the add-on's calls that change data):\n  certify-429 round: ") {
		t.Fatalf("the card does not list the writes:\n%s", card(rep))
	}
	if example := report(t, "example"); !example.OnlyRead() || !strings.Contains(card(example), "writes under the fault rounds: none (the add-on changed nothing") {
		t.Fatalf("the example add-on, which only reads orders, shows writes %q", example.Writes)
	}
}

// TestNothingPassesUnseen: a check without evidence is not exercised,
// never passed. An add-on that makes no API call at all has no
// Content-Type and no concurrency to judge, and the rounds after the
// first are not played (the run does not wait --settle for each); one
// that refuses every webhook, signed or not, shows no signature check.
func TestNothingPassesUnseen(t *testing.T) {
	silent := report(t, "silent")
	for _, id := range []string{CheckContentType, CheckConcurrency, CheckSignature, CheckWebhookAck, CheckJobFinished,
		CheckRetryAfter, CheckMaintenance, CheckNoRetry, CheckExpiredToken} {
		if c := silent.Check(id); c.Verdict != NotExercised {
			t.Errorf("silent add-on, %s: %s, want not exercised: %s", id, c.Verdict, c.Summary)
		}
	}
	if c := silent.Check(CheckMaintenance); !strings.Contains(c.Summary, "not played: the add-on made no API call within 10s (--settle)") {
		t.Errorf("maintenance says %q", c.Summary)
	}
	// The rounds after the first are not played, so the run waits
	// --settle once rather than once per round (about 14 s with the
	// default timing on an idle machine, down from about 70 s); the
	// verdicts say so, the wall time is only logged (a loaded CI machine
	// stretches it).
	for _, id := range []string{CheckMaintenance, CheckNoRetry, CheckExpiredToken} {
		if c := silent.Check(id); !strings.Contains(c.Summary, "not played:") {
			t.Errorf("silent add-on, %s was played: %s", id, c.Summary)
		}
	}
	t.Logf("the run of an add-on that makes no call took %s", silent.Duration)
	if !strings.Contains(card(silent), "\nnot exercised, so neither passed nor failed: webhook-ack, webhook-signature, ") {
		t.Errorf("the card does not list what was not exercised")
	}
	if t.Failed() {
		t.Fatalf("report card:\n%s", card(silent))
	}

	refusing := report(t, "refuse-webhooks")
	if c := refusing.Check(CheckSignature); c.Verdict != NotExercised || !strings.Contains(c.Summary, "so was the correctly signed one (401)") {
		t.Errorf("an add-on refusing every webhook: signature %s: %s", c.Verdict, c.Summary)
	}
	if c := refusing.Check(CheckWebhookAck); c.Verdict != Failed {
		t.Errorf("an add-on refusing every webhook: ack %s", c.Verdict)
	}
	if t.Failed() {
		t.Fatalf("report card:\n%s", card(refusing))
	}
}

// TestRunCannotStart: an add-on that never listens, or exits at once, is
// an error saying so (with the add-on's output), not a report.
func TestRunCannotStart(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	quick := testTiming
	quick.Start = 500 * time.Millisecond
	for _, tc := range []struct {
		name, command string
		trigger       Trigger
		want          string
	}{
		{"nothing listens", "", Trigger{}, "nothing listened at " + addr},
		{"the command exits", "echo no config found; exit 3", Trigger{}, "the add-on exited before it listened at " + addr + ": exit status 3; output:\nno config found"},
		{"a trigger without a known instance", "", Trigger{Event: "brand:create"}, "--trigger brand:create: the instance of a brand event is not known to certify; give it: --trigger brand:create=ID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Its sandbox's address comes from the same list as the
			// parallel runs' add-on addresses (see freeAddr).
			o := Options{Addr: freeAddr(t), Addon: "gone", InstallURL: "http://" + addr + "/install", Command: tc.command, Timing: quick}
			if tc.trigger.Event != "" {
				o.Triggers = []Trigger{tc.trigger}
			}
			_, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// TestOptions: defaults and refusals, before anything starts.
func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		o       Options
		webhook string
		err     string
	}{
		{"webhook URL at the install URL's origin", Options{Addon: "a", InstallURL: "http://127.0.0.1:9090/addon/install"}, "http://127.0.0.1:9090/webhooks", ""},
		{"webhook URL given", Options{Addon: "a", InstallURL: "http://127.0.0.1:9090/install", WebhookURL: "http://127.0.0.1:9090/hooks"}, "http://127.0.0.1:9090/hooks", ""},
		{"no name", Options{InstallURL: "http://127.0.0.1:9090/install"}, "", "name the add-on"},
		{"name with a slash", Options{Addon: "a/b", InstallURL: "http://127.0.0.1:9090/install"}, "", "name the add-on"},
		{"not a URL", Options{Addon: "a", InstallURL: "127.0.0.1:9090"}, "", "is not an http(s) URL"},
		{"half the credentials", Options{Addon: "a", InstallURL: "http://127.0.0.1:9090/install", ClientID: "x"}, "", "client id and secret together"},
		{"a header prefix that makes no header name", Options{Addon: "a", InstallURL: "http://127.0.0.1:9090/install", HeaderPrefix: "Ac me"}, "", "header prefix \"Ac me\" is not a word"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			err := o.check()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.WebhookURL != tc.webhook || o.RedirectURI != o.InstallURL || o.Eshop != 1001 || o.Addr != "127.0.0.1:0" || o.Timing != DefaultTiming || o.HeaderPrefix != "Service" {
				t.Fatalf("defaults: %+v", o)
			}
		})
	}
}

// TestParseTrigger reads EVENT and EVENT=INSTANCE.
func TestParseTrigger(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Trigger
		err  bool
	}{
		{"order:create", Trigger{Event: "order:create"}, false},
		{"order:create=2025000001", Trigger{Event: "order:create", Instance: "2025000001"}, false},
		{" customer:import ", Trigger{Event: "customer:import"}, false},
		{"order", Trigger{}, true},
		{"order: create", Trigger{}, true},
	} {
		got, err := ParseTrigger(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseTrigger(%q) = %+v, %v", tc.in, got, err)
		}
		if err == nil && got.String() != strings.TrimSpace(tc.in) {
			t.Errorf("String() = %q, want %q", got.String(), strings.TrimSpace(tc.in))
		}
	}
}
