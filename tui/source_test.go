package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

func nextItem(t *testing.T, s Source) Item {
	t.Helper()
	select {
	case it, ok := <-s.Items():
		if !ok {
			t.Fatal("source closed")
		}
		return it
	case <-time.After(5 * time.Second):
		t.Fatal("no item within 5s")
	}
	return Item{}
}

// TestRemoteSourceFollowsASandbox attaches to a real sandbox's stream:
// the info, then a call made afterwards, with the request id the client
// saw; the clock move comes through too.
func TestRemoteSourceFollowsASandbox(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	src := NewRemoteSource(s.URL, nil)
	defer src.Close()
	if it := nextItem(t, src); it.Info == nil || it.Info.BaseURL != s.URL || len(it.Info.Eshops) != 2 {
		t.Fatalf("first item %+v", it)
	}
	r := s.Do(sandboxtest.Call{Path: "/api/eshop"})
	it := nextItem(t, src)
	if it.Event == nil || it.Event.Call == nil || it.Event.Call.ID != r.Header.Get("X-Request-ID") || it.Event.Call.Status != 401 {
		t.Fatalf("call item %+v", it)
	}
	s.App.Bus.Emit(bus.TopicClock, bus.ClockMove{Offset: time.Hour})
	if it := nextItem(t, src); it.Event == nil || it.Event.Clock == nil || it.Event.Clock.Offset != time.Hour {
		t.Fatalf("clock item %+v", it)
	}
}

// TestRemoteSourceReconnects serves a stream that breaks after one event
// and checks the source reports it, reconnects, and resumes after the
// last event it saw (no duplicates, nothing missed).
func TestRemoteSourceReconnects(t *testing.T) {
	var mu sync.Mutex
	var sinces []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != traffic.HistoryPath || r.URL.Query().Get("follow") != "1" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		sinces = append(sinces, r.URL.Query().Get("since"))
		n := len(sinces)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		info, _ := json.Marshal(traffic.Info{BaseURL: "http://x", Dropped: int64(10 * n)})
		fmt.Fprintf(w, "event: info\ndata: %s\n\n", info)
		ev, _ := json.Marshal(traffic.Event{Seq: int64(n), Type: traffic.TypeCall, Call: &bus.Call{ID: fmt.Sprint("call-", n)}})
		fmt.Fprintf(w, "id: %d\nevent: call\ndata: %s\n\n", n, ev)
		fmt.Fprintf(w, "event: dropped\ndata: {\"dropped\":%d}\n\n", 10*n+1)
		if n >= 2 {
			w.(http.Flusher).Flush()
			<-r.Context().Done() // stay connected
		}
	}))
	defer srv.Close()
	src := NewRemoteSource(srv.URL, nil)
	defer src.Close()
	want := []string{"info", "call-1", "err", "info", "call-2"}
	for i, w := range want {
		it := nextItem(t, src)
		got := "?"
		switch {
		case it.Info != nil:
			got = "info"
		case it.Event != nil:
			got = it.Event.Call.ID
		case it.Err != nil:
			got = "err"
		}
		if got != w {
			t.Fatalf("item %d is %s, want %s", i, got, w)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for src.Dropped() != 21 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if src.Dropped() != 21 {
		t.Fatalf("dropped %d, want the server's 21", src.Dropped())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sinces) != 2 || sinces[0] != "" || sinces[1] != "1" {
		t.Fatalf("since per connection: %q", sinces)
	}
}

// TestHTTPControl checks each action's request against the control-plane
// contract, and that a refusal carries the sandbox's own message.
func TestHTTPControl(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = append(got, strings.TrimSpace(r.Method+" "+r.URL.Path+" "+string(body)))
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/_sandbox/maintenance":
			fmt.Fprint(w, `{"data":{"on":true,"message":""},"errors":null,"metadata":{"requestId":"x"}}`)
		case "/_sandbox/deliveries/nope/replay":
			w.WriteHeader(404)
			fmt.Fprint(w, `{"data":null,"errors":[{"errorCode":"not-found","message":"Delivery nope does not exist.","instance":"nope"}],"metadata":{"requestId":"x"}}`)
		default:
			fmt.Fprint(w, `{"data":{},"errors":null,"metadata":{"requestId":"x"}}`)
		}
	}))
	defer srv.Close()
	c := NewHTTPControl(srv.URL + "/")
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.ReplayDelivery(ctx, "dlv 1"))
	must(c.EmitEvent(ctx, 1001, "order:create", "2025000001"))
	must(c.AdvanceClock(ctx, "1h"))
	must(c.ApproveAddon(ctx, 1001, "example-addon"))
	on, err := c.SetMaintenance(ctx, true)
	must(err)
	if !on {
		t.Fatal("maintenance state not read from the answer")
	}
	on, err = c.Maintenance(ctx)
	must(err)
	if !on {
		t.Fatal("maintenance state not read")
	}
	want := []string{
		"POST /_sandbox/deliveries/dlv 1/replay",
		`POST /_sandbox/events {"eshop":1001,"eshopId":1001,"event":"order:create","instance":"2025000001"}`,
		`POST /_sandbox/clock {"advance":"1h"}`,
		"POST /_sandbox/eshops/1001/addons/example-addon/approve",
		`POST /_sandbox/maintenance {"on":true}`,
		"GET /_sandbox/maintenance",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	err = c.ReplayDelivery(ctx, "nope")
	if err == nil || err.Error() != "POST /_sandbox/deliveries/nope/replay: 404 Delivery nope does not exist." {
		t.Fatalf("error %v", err)
	}
}

// TestRemoteSourceStartsOverAfterARestart checks that resuming against
// another run of the sandbox (a new boot id) starts from its beginning:
// its seqs restart at 1, so "after our last seq" would skip its events.
func TestRemoteSourceStartsOverAfterARestart(t *testing.T) {
	var mu sync.Mutex
	var sinces []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sinces = append(sinces, r.URL.Query().Get("since"))
		n := len(sinces)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		boot, seq, id := "run-2", int64(1), "new-1"
		if n == 1 {
			boot, seq, id = "run-1", 5, "old-5"
		}
		info, _ := json.Marshal(traffic.Info{Boot: boot})
		fmt.Fprintf(w, "event: info\ndata: %s\n\n", info)
		if n == 2 {
			// a server that does not clamp since: it sends nothing older
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		ev, _ := json.Marshal(traffic.Event{Seq: seq, Type: traffic.TypeCall, Call: &bus.Call{ID: id}})
		fmt.Fprintf(w, "id: %d\nevent: call\ndata: %s\n\n", seq, ev)
		if n >= 3 {
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}
	}))
	defer srv.Close()
	src := NewRemoteSource(srv.URL, nil)
	defer src.Close()
	var got []string
	for len(got) < 5 {
		it := nextItem(t, src)
		switch {
		case it.Info != nil:
			got = append(got, "info "+it.Info.Boot)
		case it.Event != nil:
			got = append(got, it.Event.Call.ID)
		case it.Err != nil:
			got = append(got, "err")
		}
	}
	if strings.Join(got, ",") != "info run-1,old-5,err,info run-2,new-1" {
		t.Fatalf("items %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(sinces, ",") != ",5," {
		t.Fatalf("since per connection: %q", sinces)
	}
}

// TestRefusedCallsShowTheirCaller attaches to a real sandbox and makes
// calls it refuses with a token it knows (the wrong header, no
// Content-Type): their rows name the e-shop and the token kind, like
// the calls it answers.
func TestRefusedCallsShowTheirCaller(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	var data struct {
		Eshops []struct {
			PrivateTokens []struct{ Token string } `json:"privateTokens"`
		} `json:"eshops"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"}).Data(t, &data)
	token := data.Eshops[0].PrivateTokens[0].Token
	src := NewRemoteSource(s.URL, nil)
	defer src.Close()
	m := New(Options{Source: src, Now: func() time.Time { return t0 }, Renderer: plainRenderer()})
	m.Update(sizeMsg(120, 40))
	s.Do(sandboxtest.Call{Path: "/api/eshop?wrong-header", AccessToken: token})
	s.Do(sandboxtest.Call{Path: "/api/eshop?no-content-type", PrivateToken: token, ContentType: "-"})
	for m.hist.calls.len() < 3 { // the e-shops lookup, then the two calls
		m.Update(itemsMsg{items: []Item{nextItem(t, src)}})
	}
	m.Update(tickMsg(t0))
	for _, want := range []string{"1001  private GET    /api/eshop?wrong-header", "1001  private GET    /api/eshop?no-content-type"} {
		if !strings.Contains(m.View(), want) {
			t.Fatalf("no %q in\n%s", want, m.View())
		}
	}
	for _, r := range m.callRows() {
		if r.c.Status != 401 && r.c.Status != 422 {
			t.Fatalf("unexpected row %d %s", r.c.Status, r.c.Path)
		}
	}
}
