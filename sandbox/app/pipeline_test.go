package app_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks/webhookstest"
)

// TestPutSentAsPostIsThePut: the client library sends PUT endpoints as
// POST. Such a call is the PUT's route everywhere, not a rewrite: it
// carries the PUT's deprecation headers, a fault aimed at the PUT's
// operation hits it, and its traffic row names the PUT. A POST with the
// POST's own body stays the POST.
func TestPutSentAsPostIsThePut(t *testing.T) {
	f := loadFacts(t)
	sc := []byte(`name: put as post
faults:
  - name: put-locked
    match: {operation: SetAlternativeProducts, header: {X-Probe: "1"}}
    respond: {status: 423}
`)
	s := sandboxtest.New(t, sandbox.Config{Scenario: sc, ScenarioName: "put-as-post.yaml"})
	guid := f.Products[0]["guid"].(string)
	other := f.Products[1]["guid"].(string)
	path := "/api/products/" + guid + "/alternativeProducts"
	sunset := "2027-01-01T00:00:00+0000"
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/deprecations", Body: `{"operation":"SetAlternativeProducts","sunset":"` + sunset + `"}`}); r.Status != 200 {
		t.Fatalf("deprecate: %d %s", r.Status, r.Body)
	}
	put := `{"data":{"alternativeProducts":[{"guid":"` + other + `"}]}}`
	want, _ := time.Parse("2006-01-02T15:04:05-0700", sunset)
	for _, method := range []string{"PUT", "POST"} {
		r := s.Do(sandboxtest.Call{Method: method, Path: path, PrivateToken: f.FullToken, Body: put})
		if r.Status != 200 || r.Operation != "SetAlternativeProducts" {
			t.Fatalf("%s as the PUT: %d %s %s", method, r.Status, r.Operation, r.Body)
		}
		if r.Header.Get("X-Service-Deprecated") != "true" || r.Header.Get("Sunset") != want.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT") {
			t.Errorf("%s as the PUT: no deprecation headers: %v", method, r.Header)
		}
	}
	r := s.Do(sandboxtest.Call{Method: "POST", Path: path, PrivateToken: f.FullToken, Body: `{"data":{"alternativeProduct":{"guid":"` + other + `"}}}`})
	if r.Operation != "AddAlternativeProduct" || r.Header.Get("X-Service-Deprecated") != "" {
		t.Errorf("the POST's own body: %s %v", r.Operation, r.Header)
	}
	probe := map[string]string{"X-Probe": "1"}
	r = s.Do(sandboxtest.Call{Method: "POST", Path: path, PrivateToken: f.FullToken, Body: put, Header: probe})
	if r.Status != 423 {
		t.Errorf("fault matching the PUT, sent as POST: %d %s", r.Status, r.Body)
	}
	r = s.Do(sandboxtest.Call{Method: "POST", Path: path, PrivateToken: f.FullToken, Body: `{"data":{"alternativeProduct":{"guid":"` + other + `"}}}`, Header: probe})
	if r.Status == 423 {
		t.Errorf("fault matching the PUT hit the POST: %d %s", r.Status, r.Body)
	}
	// The traffic row of the POST names the PUT.
	deadline := time.Now().Add(5 * time.Second)
	for {
		var snap traffic.Snapshot
		s.Do(sandboxtest.Call{Path: "/_sandbox/traffic?limit=50"}).Data(t, &snap)
		found := false
		for _, e := range snap.Events {
			if c := e.Call; c != nil && c.Method == "POST" && c.Fault == "put-locked" && c.Operation == "SetAlternativeProducts" {
				found = true
			}
		}
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no traffic row names the PUT for the POST: %+v", snap.Events)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWebhooksArriveInCommitOrder: brands created by concurrent clients
// reach one receiver in the order the writes committed, which is the
// order the brands list in.
func TestWebhooksArriveInCommitOrder(t *testing.T) {
	f := loadFacts(t)
	// Limits off: identical concurrent POSTs would otherwise meet the 423 lock.
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	rc := webhookstest.New(t, s.Headers.WebhookSig)
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/webhooks", PrivateToken: f.FullToken,
		Body: `{"data":[{"event":"brand:create","url":"` + rc.URL + `"}]}`}); r.Status != 201 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	const clients, each = 6, 15
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				name := fmt.Sprintf("Order Probe %d-%d", c, i)
				// Calls outside the test goroutine: plain HTTP, no t.Fatal.
				req, _ := http.NewRequest("POST", s.URL+"/api/brands", strings.NewReader(`{"data":{"name":"`+name+`"}}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set(s.Headers.PrivateToken, f.FullToken)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != 201 {
					t.Errorf("create %s: %d", name, resp.StatusCode)
				}
			}
		}()
	}
	wg.Wait()
	rc.Wait("every brand:create", func() bool { return len(rc.Find("brand:create")) >= clients*each })
	var delivered []string
	for _, n := range rc.Find("brand:create") {
		delivered = append(delivered, n.Payload.EventInstance)
	}
	var listed []string
	for page := 1; ; page++ {
		var d struct {
			Brands []struct {
				IndexName string `json:"indexName"`
			} `json:"brands"`
			Paginator struct {
				PageCount int `json:"pageCount"`
			} `json:"paginator"`
		}
		s.Do(sandboxtest.Call{Path: fmt.Sprintf("/api/brands?itemsPerPage=100&page=%d", page), PrivateToken: f.FullToken}).Data(t, &d)
		for _, b := range d.Brands {
			if strings.HasPrefix(b.IndexName, "order-probe-") {
				listed = append(listed, b.IndexName)
			}
		}
		if page >= d.Paginator.PageCount {
			break
		}
	}
	if strings.Join(delivered, " ") != strings.Join(listed, " ") {
		t.Fatalf("deliveries are not in commit order:\ndelivered %v\ncommitted %v", delivered, listed)
	}
}
