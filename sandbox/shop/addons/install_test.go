package addons_test

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// behaviour is what a deliberately broken test add-on does with the
// install request.
type behaviour func(c client, w http.ResponseWriter, code string)

// brokenAddon is a hand-written add-on whose install URL behaves as told.
type brokenAddon struct {
	mu    sync.Mutex
	c     client
	do    behaviour
	codes []string // codes received
	done  sync.WaitGroup
	s     *sandboxtest.Server // the sandbox installing it
}

func (b *brokenAddon) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	b.mu.Lock()
	b.codes = append(b.codes, code)
	c := b.c
	b.mu.Unlock()
	b.do(c, w, code)
}

// afterAnswering runs fn once the sandbox has the add-on's answer to the
// install request: its running install report shows the answer.
func (b *brokenAddon) afterAnswering(w http.ResponseWriter, fn func()) {
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	b.done.Add(1)
	go func() {
		defer b.done.Done()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			var v struct {
				Installs []addons.InstallReport `json:"installs"`
			}
			r := b.s.Do(sandboxtest.Call{Path: "/_sandbox/installs?addon=broken-addon"})
			if r.Status == http.StatusOK && json.Unmarshal(r.Body, &struct {
				Data any `json:"data"`
			}{&v}) == nil && len(v.Installs) > 0 {
				if last := v.Installs[len(v.Installs)-1]; last.Result == addons.Running && last.Answer != nil {
					break
				}
			}
		}
		fn()
	}()
}

type want struct {
	accepted, afterAnswer bool
	reason                string
}

// TestInstallHandshake drives the handshake against hand-written add-ons,
// a correct one and one broken in each way the issue names, and checks
// that each is reported with the right verdict and explanation.
func TestInstallHandshake(t *testing.T) {
	wrongSecret := func(b map[string]string) { b["client_secret"] = "guessed" }
	tests := []struct {
		name      string
		do        func(b *brokenAddon) behaviour
		passed    bool
		answer    int // 0: no answer
		exchanges []want
		problems  []string // each must appear in some problem
		status    string   // the add-on's status afterwards
	}{
		{name: "exchanges, then answers 200",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) { c.exchange(code, nil); w.WriteHeader(200) }
			},
			passed: true, answer: 200, exchanges: []want{{accepted: true}}, status: auth.StatusInstalled},
		{name: "answers 200 before exchanging",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) {
					b.afterAnswering(w, func() { c.exchange(code, nil) })
				}
			},
			answer: 200, exchanges: []want{{accepted: true, afterAnswer: true}}, problems: []string{"answered 200 before it exchanged the code"}, status: auth.StatusInstalled},
		{name: "answers 200 without exchanging",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) { w.WriteHeader(200) }
			},
			answer: 200, problems: []string{"answered 200 without exchanging the code", oauth.TokenPath}, status: auth.StatusConfigured},
		{name: "reuses the code",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) {
					c.exchange(code, nil)
					c.exchange(code, nil)
					w.WriteHeader(200)
				}
			},
			answer: 200, exchanges: []want{{accepted: true}, {reason: oauth.ReasonUsedCode}}, problems: []string{"reused the code", "single use"}, status: auth.StatusInstalled},
		{name: "sends a wrong secret and answers 502",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) {
					if st, _ := c.exchange(code, wrongSecret); st != 200 {
						w.WriteHeader(502)
						return
					}
					w.WriteHeader(200)
				}
			},
			answer: 502, exchanges: []want{{reason: oauth.ReasonClientSecret}}, problems: []string{"wrong client_secret", "invalid_client", "HTTP 502"}, status: auth.StatusConfigured},
		{name: "sends a wrong secret and answers 200 anyway",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) { c.exchange(code, wrongSecret); w.WriteHeader(200) }
			},
			answer: 200, exchanges: []want{{reason: oauth.ReasonClientSecret}}, problems: []string{"wrong client_secret", "holds no OAuth access token"}, status: auth.StatusConfigured},
		{name: "sends a wrong redirect URI",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) {
					c.exchange(code, func(m map[string]string) { m["redirect_uri"] += "/elsewhere" })
					w.WriteHeader(500)
				}
			},
			answer: 500, exchanges: []want{{reason: oauth.ReasonRedirectURI}}, problems: []string{"wrong redirect_uri", "HTTP 500"}, status: auth.StatusConfigured},
		{name: "exchanges, then answers 500",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) { c.exchange(code, nil); w.WriteHeader(500) }
			},
			answer: 500, exchanges: []want{{accepted: true}}, problems: []string{"HTTP 500", "did obtain an OAuth access token"}, status: auth.StatusInstalled},
		{name: "exchanges, then redirects",
			do: func(b *brokenAddon) behaviour {
				return func(c client, w http.ResponseWriter, code string) {
					c.exchange(code, nil)
					w.Header().Set("Location", "/settings")
					w.WriteHeader(http.StatusFound)
				}
			},
			answer: 302, exchanges: []want{{accepted: true}}, problems: []string{"HTTP 302", "redirected to /settings"}, status: auth.StatusInstalled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := start(t)
			b := &brokenAddon{s: s}
			b.do = tc.do(b)
			url := serve(t, b)
			v := configure(t, s, 1001, "broken-addon", map[string]any{"installUrl": url + "/install", "endpoints": []string{"GetListOfOrders"}})
			b.c = clientOf(v)
			rec := install(t, s, 1001, "broken-addon")
			b.done.Wait()

			if rec.Passed != tc.passed {
				t.Fatalf("passed=%v, want %v; problems %q", rec.Passed, tc.passed, rec.Problems)
			}
			if len(b.codes) != 1 || len(b.codes[0]) != oauth.CodeLength {
				t.Fatalf("the add-on got codes %d, want one of %d characters", len(b.codes), oauth.CodeLength)
			}
			if (rec.Answer == nil) != (tc.answer == 0) || (rec.Answer != nil && rec.Answer.Status != tc.answer) {
				t.Fatalf("answer %+v, want status %d", rec.Answer, tc.answer)
			}
			if len(rec.Exchanges) != len(tc.exchanges) {
				t.Fatalf("exchanges %+v, want %d", rec.Exchanges, len(tc.exchanges))
			}
			for i, w := range tc.exchanges {
				got := rec.Exchanges[i]
				if got.Accepted != w.accepted || got.AfterAnswer != w.afterAnswer || got.Reason != w.reason || got.InstallID != rec.ID {
					t.Fatalf("exchange %d: %+v, want %+v", i+1, got, w)
				}
			}
			for _, p := range tc.problems {
				if !hasProblem(rec, p) {
					t.Errorf("no problem mentions %q: %q", p, rec.Problems)
				}
			}
			if tc.passed != (len(rec.Problems) == 0) || rec.Summary == "" {
				t.Fatalf("problems %q, summary %q", rec.Problems, rec.Summary)
			}
			if rec.AddonStatus != tc.status {
				t.Fatalf("add-on status %q, want %q", rec.AddonStatus, tc.status)
			}
			// The stored report is the one returned.
			var stored addons.InstallReport
			s.Do(sandboxtest.Call{Path: "/_sandbox/installs/" + rec.ID}).Data(t, &stored)
			if stored.Result != rec.Result || len(stored.Exchanges) != len(rec.Exchanges) || stored.FinishedAt == "" {
				t.Fatalf("stored report %+v differs from %+v", stored, rec)
			}
		})
	}
}

// TestInstallUnreachable reports an add-on that is not listening.
func TestInstallUnreachable(t *testing.T) {
	s, _ := start(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	configure(t, s, 1001, "gone-addon", map[string]any{"installUrl": url + "/install"})
	rec := install(t, s, 1001, "gone-addon")
	if rec.Passed || rec.Answer != nil || !hasProblem(rec, "could not reach the add-on's install URL "+url+"/install: connection refused") {
		t.Fatalf("report %+v", rec)
	}
	if strings.Contains(rec.Unreachable, "code=") {
		t.Fatalf("the report quotes the code: %q", rec.Unreachable)
	}
}

// TestLateReuseReopensReport: an add-on that passed and later reuses the
// code gets the refused exchange added to its report, which then fails.
func TestLateReuseReopensReport(t *testing.T) {
	s, _ := start(t)
	b := &brokenAddon{}
	b.do = func(c client, w http.ResponseWriter, code string) { c.exchange(code, nil); w.WriteHeader(200) }
	v := configure(t, s, 1001, "late-addon", map[string]any{"installUrl": serve(t, b) + "/install"})
	b.c = clientOf(v)
	rec := install(t, s, 1001, "late-addon")
	if !rec.Passed {
		t.Fatalf("first report %+v", rec)
	}
	if st, _ := b.c.exchange(b.codes[0], nil); st != 400 {
		t.Fatalf("late reuse answered %d", st)
	}
	var stored addons.InstallReport
	s.Do(sandboxtest.Call{Path: "/_sandbox/installs/" + rec.ID}).Data(t, &stored)
	if stored.Passed || len(stored.Exchanges) != 2 || !stored.Exchanges[1].AfterAnswer || !hasProblem(stored, "reused the code") {
		t.Fatalf("report after the late reuse: %+v", stored)
	}
}

// TestSixthToken: a greedy add-on asks for an API token six times during
// its install; the OAuth server gives five and refuses the sixth with the
// reference's maximum_tokens_reached.
func TestSixthToken(t *testing.T) {
	s, _ := start(t)
	b := &brokenAddon{}
	var statuses []int
	var errs []string
	b.do = func(c client, w http.ResponseWriter, code string) {
		_, tok := c.exchange(code, nil)
		for i := 0; i < oauth.MaxAPITokens+1; i++ {
			st, _, e := c.accessToken(tok)
			statuses, errs = append(statuses, st), append(errs, e)
		}
		w.WriteHeader(200)
	}
	v := configure(t, s, 1001, "greedy-addon", map[string]any{"installUrl": serve(t, b) + "/install"})
	b.c = clientOf(v)
	if rec := install(t, s, 1001, "greedy-addon"); !rec.Passed {
		t.Fatalf("handshake: %q", rec.Problems)
	}
	for i := 0; i < oauth.MaxAPITokens; i++ {
		if statuses[i] != 200 || errs[i] != "" {
			t.Fatalf("token %d: %d %q", i+1, statuses[i], errs[i])
		}
	}
	if statuses[oauth.MaxAPITokens] != 429 || errs[oauth.MaxAPITokens] != "maximum_tokens_reached" {
		t.Fatalf("6th token: %d %q", statuses[oauth.MaxAPITokens], errs[oauth.MaxAPITokens])
	}
	var got addons.View
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1001/addons/greedy-addon"}).Data(t, &got)
	if got.ValidAPITokens != oauth.MaxAPITokens {
		t.Fatalf("control plane shows %d valid tokens", got.ValidAPITokens)
	}
}

// TestInstallRefusals: installs that cannot start answer an error
// envelope, not a report.
func TestInstallRefusals(t *testing.T) {
	s, _ := start(t)
	configure(t, s, 1001, "paused-addon", map[string]any{"installUrl": "http://127.0.0.1:1/install"})
	tests := []struct {
		name   string
		path   string
		body   any
		status int
		inst   string
	}{
		{"unknown e-shop", "/_sandbox/eshops/9999/install", map[string]string{"addon": "example-addon"}, 404, "9999"},
		{"unknown add-on", "/_sandbox/eshops/1002/install", map[string]string{"addon": "no-such-addon"}, 404, "no-such-addon"},
		{"no body", "/_sandbox/eshops/1001/install", nil, 422, "addon"},
		{"unknown field", "/_sandbox/eshops/1001/install", map[string]string{"addon": "x", "eshop": "1"}, 422, "body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(sandboxtest.Call{Method: "POST", Path: tc.path, Body: tc.body})
			if r.Status != tc.status || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != tc.inst || r.Env.Errors[0].Message == "" {
				t.Fatalf("%d %s, want %d instance %q", r.Status, r.Body, tc.status, tc.inst)
			}
		})
	}
}

// TestInstallRunsOneAtATime: a second install of the same add-on into
// the same e-shop while one runs answers 409.
func TestInstallRunsOneAtATime(t *testing.T) {
	s, _ := start(t)
	arrived, release := make(chan struct{}), make(chan struct{})
	b := &brokenAddon{}
	b.do = func(c client, w http.ResponseWriter, code string) {
		close(arrived)
		<-release
		c.exchange(code, nil)
		w.WriteHeader(200)
	}
	v := configure(t, s, 1001, "slow-addon", map[string]any{"installUrl": serve(t, b) + "/install"})
	b.c = clientOf(v)
	first := make(chan addons.InstallReport)
	go func() { first <- install(t, s, 1001, "slow-addon") }()
	<-arrived
	r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/install", Body: map[string]string{"addon": "slow-addon"}})
	close(release)
	if r.Status != 409 || !strings.Contains(r.Env.Errors[0].Message, "already running") {
		t.Fatalf("second install: %d %s", r.Status, r.Body)
	}
	if rec := <-first; !rec.Passed {
		t.Fatalf("first install: %q", rec.Problems)
	}
}

// TestInstallsList lists reports, filtered by e-shop and add-on.
func TestInstallsList(t *testing.T) {
	s, _ := start(t)
	b := &brokenAddon{}
	b.do = func(c client, w http.ResponseWriter, code string) { c.exchange(code, nil); w.WriteHeader(200) }
	url := serve(t, b)
	v := configure(t, s, 1001, "listed-addon", map[string]any{"installUrl": url + "/install"})
	b.c = clientOf(v)
	install(t, s, 1001, "listed-addon")
	install(t, s, 1002, "listed-addon") // copied from e-shop 1001
	list := func(q string) []addons.InstallReport {
		var out struct {
			Installs []addons.InstallReport `json:"installs"`
		}
		r := s.Do(sandboxtest.Call{Path: "/_sandbox/installs" + q})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", q, r.Status, r.Body)
		}
		r.Data(t, &out)
		return out.Installs
	}
	if all := list(""); len(all) != 2 || all[0].EshopID != 1001 || all[1].EshopID != 1002 || !all[0].Passed || !all[1].Passed {
		t.Fatalf("all installs: %+v", all)
	}
	if l := list("?eshop=1002"); len(l) != 1 || l[0].EshopID != 1002 {
		t.Fatalf("e-shop 1002: %+v", l)
	}
	if l := list("?addon=other"); len(l) != 0 {
		t.Fatalf("other add-on: %+v", l)
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/installs?eshop=x"}); r.Status != 400 {
		t.Fatalf("bad filter: %d", r.Status)
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/installs/999"}); r.Status != 404 {
		t.Fatalf("unknown install: %d", r.Status)
	}
}
