package app_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestNoRequestToItself: the URLs the sandbox calls on a caller's behalf
// (webhooks, sourceUrl, add-on addresses) are refused with 400 naming
// the field when they point at the sandbox itself, and a receiver that
// redirects into the sandbox gets no request through: e-shop 1001 cannot
// reset e-shop 1002 with a webhook.
func TestNoRequestToItself(t *testing.T) {
	f := loadFacts(t)
	// A receiver on another port that redirects into the control plane,
	// and a page that is not an image; downloads reach them because they
	// are allowed (--allow-download), webhooks without that.
	var s *sandboxtest.Server
	var received atomic.Int32
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received.Add(1)
		http.Redirect(w, r, s.URL+"/_sandbox/reset", http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	text := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("secret internal status page"))
	}))
	defer text.Close()
	s = sandboxtest.New(t, sandbox.Config{AllowDownload: []string{redirect.Listener.Addr().String(), text.Listener.Addr().String()}})
	port := s.URL[strings.LastIndexByte(s.URL, ':')+1:]
	// A brand in e-shop 1002 shows whether anything reset the sandbox.
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/brands", PrivateToken: f.OtherToken, Body: `{"data":{"name":"Survivor"}}`}); r.Status != 201 {
		t.Fatalf("brand in 1002: %d %s", r.Status, r.Body)
	}
	survives := func() bool {
		return s.Do(sandboxtest.Call{Path: "/api/brands/survivor", PrivateToken: f.OtherToken}).Status == 200
	}
	for _, u := range []string{
		"http://localhost:" + port + "/_sandbox/reset",
		"http://127.0.0.1:" + port + "/_sandbox/reset",
		"http://[::1]:" + port + "/_sandbox/reset",
		"http://127.0.0.2:" + port + "/api/eshop",
	} {
		r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/webhooks", PrivateToken: f.FullToken,
			Body: `{"data":[{"event":"order:create","url":"http://127.0.0.1:1/ok"},{"event":"brand:create","url":"` + u + `"}]}`})
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "data[1].url" || !strings.Contains(r.Env.Errors[0].Message, "sandbox itself") {
			t.Errorf("webhook to %s: %d %s", u, r.Status, r.Body)
		}
	}
	// Changing a webhook's URL to the sandbox is refused too.
	r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/webhooks", PrivateToken: f.FullToken, Body: `{"data":[{"event":"brand:update","url":"http://127.0.0.1:1/ok"}]}`})
	if r.Status != 201 {
		t.Fatalf("webhook to another port: %d %s", r.Status, r.Body)
	}
	var created struct {
		Webhooks []struct {
			ID int `json:"id"`
		} `json:"webhooks"`
	}
	r.Data(t, &created)
	if r := s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/webhooks/" + jsonText(created.Webhooks[0].ID), PrivateToken: f.FullToken,
		Body: `{"data":{"url":"http://localhost:` + port + `/_sandbox/reset"}}`}); r.Status != 400 || r.Env.Errors[0].Instance != "data.url" {
		t.Errorf("webhook URL changed to the sandbox: %d %s", r.Status, r.Body)
	}

	// The redirecting receiver as a webhook.
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/webhooks", PrivateToken: f.FullToken,
		Body: `{"data":[{"event":"brand:create","url":"` + redirect.URL + `/hook"}]}`}); r.Status != 201 {
		t.Fatalf("webhook to a redirecting receiver: %d %s", r.Status, r.Body)
	}
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/brands", PrivateToken: f.FullToken, Body: `{"data":{"name":"Trigger"}}`}); r.Status != 201 {
		t.Fatalf("brand:create: %d %s", r.Status, r.Body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for received.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if received.Load() == 0 {
		t.Fatal("the redirecting receiver was never called")
	}
	// The attempt is recorded once the dispatcher has followed (or
	// refused) the redirect: by then a reset it caused would have run.
	for {
		var ds struct {
			Deliveries []struct {
				Attempts []struct{ Error string } `json:"attempts"`
			} `json:"deliveries"`
		}
		s.Do(sandboxtest.Call{Path: "/_sandbox/deliveries?event=brand:create"}).Data(t, &ds)
		if len(ds.Deliveries) > 0 && len(ds.Deliveries[0].Attempts) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the attempt to the redirecting receiver was never recorded")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !survives() {
		t.Fatal("a webhook redirected into the control plane reset the sandbox")
	}

	// Uploads: the sandbox's own address, a redirect into it, a non-image.
	for _, tc := range []struct{ url, want string }{
		{"http://localhost:" + port + "/_sandbox/eshops", "sandbox itself"},
		{redirect.URL + "/image.png", "sandbox itself"},
		{text.URL + "/image.png", "not an image"},
	} {
		r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/system/file", PrivateToken: f.FullToken, Body: `{"data":{"sourceUrl":"` + tc.url + `"}}`})
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "data.sourceUrl" || !strings.Contains(r.Env.Errors[0].Message, tc.want) {
			t.Errorf("upload from %s: %d %s", tc.url, r.Status, r.Body)
			continue
		}
		msg := r.Env.Errors[0].Message
		for _, leak := range []string{f.FullToken, "text/plain", "secret", "eshopUrl"} {
			if strings.Contains(msg, leak) {
				t.Errorf("upload from %s: the message describes what was found: %s", tc.url, msg)
			}
		}
	}

	// Asynchronous jobs: refused when asked for, naming the field.
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/webhooks", PrivateToken: f.FullToken,
		Body: `{"data":[{"event":"job:finished","url":"http://127.0.0.1:1/jobs"}]}`}); r.Status != 201 {
		t.Fatalf("job:finished webhook: %d %s", r.Status, r.Body)
	}
	for _, tc := range []struct{ method, path, body, field string }{
		{"POST", "/api/brands/batch", `{"data":{"batchFileUrlPath":"http://localhost:` + port + `/_sandbox/eshops"}}`, "data.batchFileUrlPath"},
		{"POST", "/api/system/files", `{"data":[{"sourceUrl":"http://127.0.0.1:` + port + `/_sandbox/eshops"}]}`, "data[0].sourceUrl"},
	} {
		r := s.Do(sandboxtest.Call{Method: tc.method, Path: tc.path, PrivateToken: f.FullToken, Body: tc.body})
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != tc.field || !strings.Contains(r.Env.Errors[0].Message, "sandbox itself") {
			t.Errorf("%s %s at the sandbox: %d %s", tc.method, tc.path, r.Status, r.Body)
		}
	}

	// Add-on addresses the sandbox calls.
	for _, field := range []string{"installUrl", "webhookUrl"} {
		r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/addons/example-addon",
			Body: `{"` + field + `":"http://localhost:` + port + `/_sandbox/reset"}`})
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != field {
			t.Errorf("add-on %s at the sandbox: %d %s", field, r.Status, r.Body)
		}
	}
	if !survives() {
		t.Fatal("the sandbox was reset")
	}
}

// TestUploadsRefuseOtherLoopbackPorts: a download (sourceUrl) from a
// loopback port that sandbox up --allow-download does not name is
// refused with one text whether something listens there or not, and a
// redirect's target is never echoed (a closed port said "connection
// refused", an open one answered, and a redirect to file:///etc/passwd
// was quoted back).
func TestUploadsRefuseOtherLoopbackPorts(t *testing.T) {
	f := loadFacts(t)
	open := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("local admin page"))
	}))
	defer open.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := map[string]string{"/to-file": "file:///etc/passwd", "/to-open": open.URL + "/secret-path"}[r.URL.Path]
		w.Header().Set("Location", target)
		w.WriteHeader(http.StatusFound)
	}))
	defer redirect.Close()
	s := sandboxtest.New(t, sandbox.Config{AllowDownload: []string{redirect.Listener.Addr().String()}})

	upload := func(u string) string {
		t.Helper()
		r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/system/file", PrivateToken: f.FullToken, Body: `{"data":{"sourceUrl":"` + u + `"}}`})
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "data.sourceUrl" {
			t.Fatalf("upload from %s: %d %s", u, r.Status, r.Body)
		}
		return strings.ReplaceAll(r.Env.Errors[0].Message, u, "URL")
	}
	openMsg, closedMsg := upload(open.URL+"/x.png"), upload(closedURL+"/x.png")
	if openMsg != closedMsg || !strings.Contains(openMsg, "--allow-download") {
		t.Errorf("an open and a closed loopback port answer differently:\n open:   %s\n closed: %s", openMsg, closedMsg)
	}
	if upload("http://localhost:"+open.URL[strings.LastIndexByte(open.URL, ':')+1:]+"/x.png") != openMsg {
		t.Error("localhost answers unlike 127.0.0.1")
	}
	for _, path := range []string{"/to-file", "/to-open"} {
		msg := upload(redirect.URL + path)
		for _, leak := range []string{"file:", "passwd", "secret-path", open.URL} {
			if strings.Contains(msg, leak) {
				t.Errorf("redirect %s: the message echoes its target: %s", path, msg)
			}
		}
	}
}
