package exampleaddon_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/exampleaddon"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// startWithSandbox runs the example add-on on a free loopback port next
// to a sandbox, registered there as example-addon (the fixtures' add-on).
func startWithSandbox(t *testing.T) (*exampleaddon.Addon, *sandboxtest.Server, *sandbox.Clock) {
	t.Helper()
	clock := sandbox.NewFrozenClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	s := sandboxtest.New(t, sandbox.Config{Clock: clock})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a, err := exampleaddon.New(exampleaddon.Config{Name: "example-addon", APIURL: s.URL, OAuthURL: s.URL + "/eshops/1001" + oauth.TokenPath,
		PublicURL: "http://" + ln.Addr().String(), Events: []string{"order:create"}}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: a.Handler()}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	ctx := context.Background()
	if err := a.FetchCredentials(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Register(ctx); err != nil {
		t.Fatal(err)
	}
	return a, s, clock
}

// TestAgainstSandbox drives the example add-on through the sandbox's
// install handshake and the token life: the handshake passes, the add-on
// calls the API, and when the sandbox clock passes its token's expiry it
// gets a new token on expired-token without the caller noticing.
func TestAgainstSandbox(t *testing.T) {
	a, s, clock := startWithSandbox(t)
	ctx := context.Background()
	rep, err := a.RequestInstall(ctx, 1001)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Passed || rep.Result != "passed" || len(rep.Problems) != 0 {
		t.Fatalf("install report %+v", rep)
	}
	if !a.Installation(1001) {
		t.Fatal("the add-on does not know it is installed in e-shop 1001")
	}
	var orders struct {
		Orders []struct {
			Code string `json:"code"`
		} `json:"orders"`
	}
	if err := a.API(ctx, 1001, "GET", "/api/orders", nil, &orders); err != nil || len(orders.Orders) == 0 {
		t.Fatalf("orders: %v %+v", err, orders)
	}
	// Past the token's lifetime on the sandbox clock: the add-on's own
	// clock still believes in the token, the API says expired-token.
	clock.Advance(oauth.DefaultTokenLifetime + time.Minute)
	if err := a.API(ctx, 1001, "GET", "/api/orders/"+orders.Orders[0].Code, nil, nil); err != nil {
		t.Fatalf("call after the token expired: %v", err)
	}

	// Suspended, the add-on's calls are refused with the sandbox's code.
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/example-addon/suspend"}); r.Status != 200 {
		t.Fatalf("suspend: %d", r.Status)
	}
	var apiErr *exampleaddon.APIError
	if err := a.API(ctx, 1001, "GET", "/api/orders", nil, nil); !errors.As(err, &apiErr) || apiErr.Status != 403 || apiErr.Code() != "addon-suspended" {
		t.Fatalf("call while suspended: %v", err)
	}
}

// TestInstallIntoSecondEshop: the add-on configured in e-shop 1001 can be
// installed into 1002 as well; its OAuth token there is bound to 1002.
func TestInstallIntoSecondEshop(t *testing.T) {
	a, s, _ := startWithSandbox(t)
	rep, err := a.RequestInstall(context.Background(), 1002)
	if err != nil || !rep.Passed {
		t.Fatalf("install into 1002: %v %+v", err, rep)
	}
	// Its endpoints start pending there; the set-up could not learn the
	// e-shop yet. Once approved, a new install binds it.
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1002/addons/example-addon/approve"}); r.Status != 200 {
		t.Fatalf("approve: %d %s", r.Status, r.Body)
	}
	if rep, err := a.RequestInstall(context.Background(), 1002); err != nil || !rep.Passed {
		t.Fatalf("second install into 1002: %v %+v", err, rep)
	}
	var info struct {
		ContactInformation struct {
			EshopID int `json:"eshopId"`
		} `json:"contactInformation"`
	}
	if err := a.API(context.Background(), 1002, "GET", "/api/eshop", nil, &info); err != nil || info.ContactInformation.EshopID != 1002 {
		t.Fatalf("API in e-shop 1002: %v %+v", err, info)
	}
}

// waitEvent waits (real time: deliveries are real HTTP) until the add-on
// has processed a notification whose result contains want.
func waitEvent(t *testing.T, a *exampleaddon.Addon, event, want string) exampleaddon.Received {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		a.Wait()
		for _, ev := range a.Status().Events {
			if ev.Event == event && strings.Contains(ev.Result, want) {
				return ev
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %s processed with %q; events %+v", event, want, a.Status().Events)
	return exampleaddon.Received{}
}

// TestWebhooksFromSandbox: the signature key the add-on obtains at
// install verifies the sandbox's deliveries, order events lead to the
// order being fetched, and the life-cycle system events reach the
// add-on's webhook URL.
func TestWebhooksFromSandbox(t *testing.T) {
	a, s, _ := startWithSandbox(t)
	ctx := context.Background()
	if rep, err := a.RequestInstall(ctx, 1001); err != nil || !rep.Passed {
		t.Fatalf("install: %v %+v", err, rep)
	}
	st := a.Status()
	if len(st.Installations) != 1 || !st.Installations[0].HasSignatureKey {
		t.Fatalf("after install: %+v", st.Installations)
	}
	var orders struct {
		Orders []struct {
			Code string `json:"code"`
		} `json:"orders"`
	}
	if err := a.API(ctx, 1001, "GET", "/api/orders", nil, &orders); err != nil || len(orders.Orders) == 0 {
		t.Fatalf("orders: %v", err)
	}
	code := orders.Orders[0].Code
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/events", Body: map[string]any{"eshop": 1001, "event": "order:create", "instance": code}}); r.Status != 200 {
		t.Fatalf("emit: %d %s", r.Status, r.Body)
	}
	if ev := waitEvent(t, a, "order:create", "fetched order "+code); !ev.Verified {
		t.Fatalf("order:create not verified: %+v", ev)
	}
	for _, step := range []struct{ action, event, result string }{
		{"suspend", "addon:suspend", "suspended"},
		{"resume", "addon:approve", "resumed"},
		{"uninstall", "addon:uninstall", "forgot the installation"},
	} {
		if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/example-addon/" + step.action}); r.Status != 200 {
			t.Fatalf("%s: %d %s", step.action, r.Status, r.Body)
		}
		waitEvent(t, a, step.event, step.result)
	}
	if a.Installation(1001) {
		t.Fatal("the add-on still holds its installation after addon:uninstall")
	}
}

// TestCustomerImportUsesASnapshot: a customer:import makes the add-on
// register job:finished (once, before its first asynchronous call),
// request the customer snapshot, and on job:finished download the
// result and count every customer of the e-shop. A job the add-on did not
// start is only noted.
func TestCustomerImportUsesASnapshot(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	s := sandboxtest.New(t, sandbox.Config{Clock: clock})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	public := "http://" + ln.Addr().String()
	a, err := exampleaddon.New(exampleaddon.Config{Name: "example-addon", APIURL: s.URL, OAuthURL: s.URL + "/eshops/1001" + oauth.TokenPath,
		PublicURL: public, Events: []string{"customer:import"}}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: a.Handler()}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	// The fixtures' example-addon may not read customers or jobs: this
	// test approves every endpoint, as a partner would request them.
	if r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/addons/example-addon",
		Body: map[string]any{"installUrl": public + "/install", "redirectUri": public + "/install", "webhookUrl": public + "/webhooks", "endpoints": "all", "approved": true}}); r.Status != 200 {
		t.Fatalf("configure: %d %s", r.Status, r.Body)
	}
	ctx := context.Background()
	if err := a.FetchCredentials(ctx); err != nil {
		t.Fatal(err)
	}
	if rep, err := a.RequestInstall(ctx, 1001); err != nil || !rep.Passed {
		t.Fatalf("install: %v %+v", err, rep)
	}
	tok := sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
	customers := len(gjson.Parse(sandboxtest.Fixture(t, 1001, "customers", "@this")).Array())
	if customers == 0 {
		t.Fatal("the fixtures have no customers")
	}
	emit := func(event, instance string) {
		t.Helper()
		if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/events", Body: map[string]any{"eshop": 1001, "event": event, "instance": instance}}); r.Status != 200 {
			t.Fatalf("emit %s: %d %s", event, r.Status, r.Body)
		}
	}
	emit("customer:import", "customers")
	ev := waitEvent(t, a, "customer:import", "requested a customer snapshot, job ")
	job := strings.TrimPrefix(ev.Result, "requested a customer snapshot, job ")
	_, hooks := s.JSON("GET", "/api/webhooks", tok, "")
	if n := len(hooks.Get(`data.webhooks.#(event=="job:finished")#`).Array()); n != 1 {
		t.Fatalf("job:finished registered %d times: %s", n, hooks.Raw)
	}

	clock.Advance(10 * time.Second) // the job runs its course on the sandbox clock
	waitEvent(t, a, "job:finished", fmt.Sprintf("job %s (/api/customers/snapshot) completed: %d items", job, customers))

	// A second import reuses the registration; another's job is noted.
	emit("customer:import", "customers")
	waitEvent(t, a, "customer:import", "requested a customer snapshot, job ")
	if _, hooks := s.JSON("GET", "/api/webhooks", tok, ""); len(hooks.Get(`data.webhooks.#(event=="job:finished")#`).Array()) != 1 {
		t.Fatalf("job:finished registered again: %s", hooks.Raw)
	}
	emit("job:finished", "not-a-job-of-the-addon")
	waitEvent(t, a, "job:finished", "noted: job not-a-job-of-the-addon was not started by this add-on")
}
