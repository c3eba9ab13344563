package payments_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/storefront"
)

// ChromiumPath is where Debian's chromium package puts the browser.
const ChromiumPath = "/usr/bin/chromium"

// browser starts a headless Chromium for one test, on a fresh profile,
// with everything that would reach beyond loopback switched off.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		t.Fatalf("the payment-flow test drives a real browser, and %s is missing (%v): install Debian's chromium with `apt-get update && apt-get install -y chromium`", ChromiumPath, err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(ChromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// loopback only: every other host name fails to resolve
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", ChromiumPath, err)
	}
	return ctx
}

// gatewayStub is the payment add-on's gateway, on loopback: when the
// buyer arrives it reads the payment (step 4), checks the order (step
// 5), reports the result and sets the status (step 6), and sends the
// buyer back to the return address (step 8).
type gatewayStub struct {
	*httptest.Server
	mu     sync.Mutex
	hits   []url.Values
	at     time.Time
	errs   []string
	result string
}

func newGateway(t *testing.T, e *env) *gatewayStub {
	g := &gatewayStub{result: "paid"}
	api := func(method, path string, body any) (int, map[string]any) {
		var rd *strings.Reader
		if body != nil {
			raw, _ := json.Marshal(body)
			rd = strings.NewReader(string(raw))
		} else {
			rd = strings.NewReader("")
		}
		req, _ := http.NewRequest(method, e.URL+path, rd)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(e.Headers.AccessToken, e.f.AddonToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil
		}
		defer resp.Body.Close()
		var env struct{ Data map[string]any }
		_ = json.NewDecoder(resp.Body).Decode(&env)
		return resp.StatusCode, env.Data
	}
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		defer g.mu.Unlock()
		q := r.URL.Query()
		g.hits = append(g.hits, q)
		g.at = time.Now()
		fail := func(format string, args ...any) {
			g.errs = append(g.errs, fmt.Sprintf(format, args...))
			http.Error(w, "gateway stub failed", http.StatusInternalServerError)
		}
		code := q.Get("code")
		status, info := api("GET", "/api/payment-status/"+url.PathEscape(code), nil)
		if status != 200 {
			fail("GET payment-status: %v", status)
			return
		}
		orderCode, _ := info["orderCode"].(string)
		returnURL, _ := info["returnUrl"].(string)
		status, order := api("GET", "/api/orders/"+url.PathEscape(orderCode), nil)
		if status != 200 {
			fail("GET order: %v", status)
			return
		}
		if o, _ := order["order"].(map[string]any); o["paid"] == true {
			fail("order %v already paid: escalate", orderCode)
			return
		}
		if status, _ := api("PATCH", "/api/payment-status/"+url.PathEscape(code), map[string]any{"data": map[string]any{"status": g.result, "message": "stub"}}); status != 200 {
			fail("PATCH payment-status: %v", status)
			return
		}
		if status, _ := api("PATCH", "/orders/"+url.PathEscape(orderCode)+"/status", map[string]any{"data": map[string]any{"statusId": e.f.Results[g.result]}}); status != 200 {
			fail("PATCH status: %v", status)
			return
		}
		http.Redirect(w, r, returnURL, http.StatusFound)
	}))
	t.Cleanup(g.Close)
	return g
}

// TestPaymentFlowInBrowser is the spec's payment-gateway flow in a real
// headless browser: the buyer lands on the order-confirmed page, is sent
// to the gateway after about 5 seconds with the placeholders filled in,
// the gateway reads and settles the payment through the API and sends
// the buyer back to the thank-you page, which shows the order paid.
func TestPaymentFlowInBrowser(t *testing.T) {
	e := start(t)
	ctx := browser(t)
	gw := newGateway(t, e)
	tpl := gw.URL + "/pay?code=#PAYMENT_CODE#&eshop=#ESHOP_ID#&lang=#LANGUAGE#&shop=#ESHOP_URL#"
	if r := e.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/payment-gateways/" + e.f.Addon, Body: map[string]any{"url": tpl}}); r.Status != 200 {
		t.Fatalf("register the gateway: %d %s", r.Status, r.Body)
	}
	o, code := e.newOrder(t, e.f.Card)
	orderCode := o["code"].(string)
	confirmed := e.URL + "/eshops/1001/order/" + orderCode + "/confirmed"

	if err := chromedp.Do(ctx, chromedp.Navigate(confirmed)); err != nil {
		t.Fatalf("open the confirmed page: %v", err)
	}
	landed := time.Now()
	button, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("pay-online"), "href"))
	if err != nil {
		t.Fatalf("the online payment button: %v", err)
	}
	if !strings.HasPrefix(button.Value, gw.URL+"/pay?code="+code) {
		t.Errorf("the online payment button leads to %q", button.Value)
	}
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.ID("thank-you"))); err != nil {
		t.Fatalf("wait for the thank-you page: %v", err)
	}
	location, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	state, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("payment-status"), "data-status"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#thank-you h1")))
	if err != nil {
		t.Fatal(err)
	}
	gw.mu.Lock()
	defer gw.mu.Unlock()
	if len(gw.errs) > 0 {
		t.Fatalf("the gateway stub failed: %v", gw.errs)
	}
	if len(gw.hits) != 1 {
		t.Fatalf("the gateway was reached %d times", len(gw.hits))
	}
	q := gw.hits[0]
	if q.Get("code") != code || q.Get("eshop") != "1001" || q.Get("lang") != "en" || q.Get("shop") != e.URL+"/eshops/1001" {
		t.Errorf("placeholders: %v (payment code %s)", q, code)
	}
	delay := gw.at.Sub(landed)
	t.Logf("the buyer reached the gateway %v after the confirmed page loaded", delay)
	if delay < storefront.RedirectDelay-500*time.Millisecond || delay > storefront.RedirectDelay+10*time.Second {
		t.Errorf("the buyer reached the gateway %v after the page loaded, want about %v", delay, storefront.RedirectDelay)
	}
	if !strings.HasPrefix(location, e.URL+"/eshops/1001/order/"+orderCode+"/thank-you?paymentCode=") || state.Value != "paid" || text == "" {
		t.Errorf("final page %s: status %q, heading %q", location, state.Value, text)
	}
	var d struct{ Order map[string]any }
	e.Do(e.private("GET", "/api/orders/"+orderCode, nil)).Data(t, &d)
	if d.Order["paid"] != true {
		t.Errorf("the order is not paid after the flow")
	}
}
