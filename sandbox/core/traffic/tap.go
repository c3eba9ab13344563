package traffic

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Paths of the traffic endpoints on the control plane.
const (
	HistoryPath = "/_sandbox/traffic"     // JSON history; ?follow=1 streams
	HARPath     = "/_sandbox/traffic.har" // HAR 1.2 export
)

// UnrecordedHeader on a GET of the control plane keeps that read out of
// the history: the terminal UI refreshes its views with it, so a view
// left open does not push the add-on's calls out of the history. Only
// control-plane reads honour it; every API call and every state change
// is recorded.
const UnrecordedHeader = "Sandbox-Unrecorded"

// Defaults of Options.
const (
	DefaultHistory      = 1000
	DefaultBodyLimit    = 64 << 10
	DefaultBuffer       = 4096
	DefaultStreamBuffer = 1024
)

// Options size the tap. Zero fields take the defaults.
type Options struct {
	// History is how many calls, and separately how many delivery
	// attempts, are kept for the history, the stream and the HAR export.
	History int
	// BodyLimit caps each recorded body; longer bodies are kept cut and
	// the call is marked Truncated.
	BodyLimit int
	// Buffer is the bus subscription feeding the history; when the feed
	// falls this far behind, the oldest messages are dropped (counted).
	Buffer int
	// StreamBuffer is each stream reader's queue; a reader that falls
	// this far behind loses events (counted, and told so).
	StreamBuffer int
	// Version names the sandbox build in the HAR creator.
	Version string
}

func (o Options) withDefaults() Options {
	if o.History <= 0 {
		o.History = DefaultHistory
	}
	if o.BodyLimit <= 0 {
		o.BodyLimit = DefaultBodyLimit
	}
	if o.Buffer <= 0 {
		o.Buffer = DefaultBuffer
	}
	if o.StreamBuffer <= 0 {
		o.StreamBuffer = DefaultStreamBuffer
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	return o
}

// Deps are what the tap reads.
type Deps struct {
	Bus     *bus.Bus
	Clock   *sandbox.Clock
	Store   *store.Store // e-shops and tokens for Info
	Site    *eshop.Site  // base URL, read per request
	Headers sandbox.Headers
	Log     *slog.Logger
}

// Tap records calls and keeps the traffic history. Create it with
// New, install Middleware outermost, serve Routes, and call Start and
// Stop around serving.
type Tap struct {
	d    Deps
	o    Options
	hist *history

	boot string // random id of this run, see Info.Boot

	mu        sync.Mutex
	sub       *bus.Subscription
	fed       chan struct{}
	shutdowns map[*http.Server]bool
}

// New builds a tap; it records from the start but fills its history
// only once started.
func New(d Deps, o Options) *Tap {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Site == nil {
		d.Site = &eshop.Site{}
	}
	o = o.withDefaults()
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &Tap{d: d, o: o, hist: newHistory(o.History), shutdowns: map[*http.Server]bool{}, boot: hex.EncodeToString(b[:])}
}

// Start subscribes to the bus and feeds the history until Stop.
func (r *Tap) Start(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sub != nil {
		return nil
	}
	r.sub = r.d.Bus.Subscribe(r.o.Buffer)
	r.fed = make(chan struct{})
	go r.feed(r.sub, r.fed)
	return nil
}

func (r *Tap) feed(sub *bus.Subscription, done chan<- struct{}) {
	defer close(done)
	tr := NewTranslator()
	for m := range sub.C() {
		if ev, ok := tr.Translate(m); ok {
			r.hist.add(ev)
		}
	}
}

// Stop ends every stream and the history feed.
func (r *Tap) Stop(context.Context) error {
	r.hist.closeStreams()
	r.mu.Lock()
	sub, fed := r.sub, r.fed
	r.mu.Unlock()
	if sub != nil {
		sub.Close()
		<-fed
	}
	return nil
}

// Dropped counts the messages the history feed lost by falling behind.
func (r *Tap) Dropped() int64 {
	r.mu.Lock()
	sub := r.sub
	r.mu.Unlock()
	if sub == nil {
		return 0
	}
	return sub.Dropped()
}

// Info describes the sandbox now, for the status bar of a traffic viewer.
func (r *Tap) Info() Info {
	info := InfoOf(r.d.Store, r.d.Site, r.d.Clock, r.d.Headers)
	info.Boot = r.boot
	info.Dropped = r.Dropped()
	info.History = r.o.History
	return info
}

// Snapshot returns the retained events after since (all when 0), at most
// limit of the newest (all when 0), in order.
func (r *Tap) Snapshot(since int64, limit int) []Event {
	return r.hist.snapshot(since, limit)
}

// Decorator is the tap's place in the server's pipeline: outermost,
// so it sees every answer as sent, refusals included.
func (r *Tap) Decorator() api.Decorator {
	return api.Decorator{Stage: api.StageObserve, Name: "traffic", Wrap: r.Middleware,
		What: "record every call and its answer as sent (history, stream, HAR, terminal UI)"}
}

// Middleware records every request except the traffic endpoints' own,
// and serves the live stream (which must own its connection).
func (r *Tap) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c := api.CallOf(req)
		if c == nil { // outside the server (tests of the tap alone)
			c = &api.Call{}
			req = api.WithCall(req, c)
		}
		switch c.Operation() {
		case opHistory:
			if q, err := parseQuery(req); err == nil && q.follow {
				r.serveStream(w, req, q)
				return
			}
			next.ServeHTTP(w, req) // the route answers, or explains what is wrong
			return
		case opHAR:
			next.ServeHTTP(w, req)
			return
		}
		if controlRead(c, req.Method) && req.Header.Get(UnrecordedHeader) != "" {
			next.ServeHTTP(w, req)
			return
		}
		r.observe(next, w, req)
	})
}

// Operations of the traffic routes (see Routes): the middleware knows its
// own endpoints by the operation the server resolved, not by their paths.
const (
	opHistory = "sandbox.traffic"
	opHAR     = "sandbox.traffic.har"
)

// controlRead reports whether a call reads a control-plane route (a path
// no route matches, an unclean one included, is not one).
func controlRead(c *api.Call, method string) bool {
	return method == http.MethodGet && c.Area == api.AreaControl && c.Route() != nil
}

func (r *Tap) observe(next http.Handler, w http.ResponseWriter, req *http.Request) {
	began := time.Now() // wall time: a duration, not sandbox time
	at := r.d.Clock.Now()
	info := api.CallOf(req)
	if info == nil { // outside the server (tests of the tap alone)
		info = &api.Call{}
		req = api.WithCall(req, info)
	}
	// The request's own header map: nothing changes it once the request
	// has been read, so it is recorded without a copy, with Host added
	// back as the client sent it (net/http keeps Host apart).
	reqHeader := req.Header
	if req.Host != "" && reqHeader != nil && len(reqHeader["Host"]) == 0 {
		reqHeader["Host"] = info.HeaderValue(req.Host)
	}
	rec := &tappedWriter{ResponseWriter: w, body: capture{limit: r.o.BodyLimit}, call: info}
	finished := false
	defer func() {
		if !finished { // the recoverer writes into the map next
			rec.own()
		}
		status, header := rec.status, rec.header
		if status == 0 {
			status, header = http.StatusOK, w.Header().Clone()
			if !finished { // a panic on its way to the server's recoverer
				status = http.StatusInternalServerError
			}
		}
		// The body as the server read it, once the call was admitted; a
		// call refused before that shows none (only its announced size).
		// (The call's body belongs to the request and never changes: it
		// is kept by reference.)
		reqBody := info.Body()
		reqSize := int64(len(reqBody))
		if len(reqBody) > r.o.BodyLimit {
			reqBody = reqBody[:r.o.BodyLimit]
		}
		if req.ContentLength > reqSize {
			reqSize = req.ContentLength
		}
		eshopID, kind := info.Caller() // refused calls too, when the token is known
		if eshopID == 0 {
			eshopID = info.EshopID() // a control or e-shop page route names its e-shop in the path
		}
		tok, _ := info.Token()
		var params map[string]string
		if len(info.Vars) > 0 {
			params = info.Vars
		}
		r.d.Bus.Emit(bus.TopicCall, &bus.Call{
			ID:           api.RequestIDOf(req),
			Time:         at,
			Duration:     time.Since(began),
			Eshop:        eshopID,
			TokenKind:    kind,
			Method:       req.Method,
			Path:         req.URL.RequestURI(),
			Operation:    info.Operation(),
			Area:         info.Area.String(),
			Route:        info.Template(),
			Params:       params,
			Token:        tok,
			TokenHeader:  info.TokenHeader(),
			AccessMode:   info.TokenHeaderKind(),
			Addon:        info.Addon(),
			Fault:        info.Fault,
			Status:       status,
			ReqHeader:    reqHeader,
			ReqBody:      reqBody,
			RespHeader:   header,
			RespBody:     rec.body.body,
			RemoteAddr:   req.RemoteAddr,
			Received:     began,
			ReqBodySize:  reqSize,
			RespBodySize: rec.body.total,
			Truncated:    reqSize > int64(len(reqBody)) || rec.body.truncated(),
		})
	}()
	next.ServeHTTP(rec, req)
	finished = true
}

// Routes are the traffic endpoints of the control plane. The stream
// (?follow=1) is served by the middleware; its route answers the plain
// history and explains bad parameters.
func (r *Tap) Routes() []api.Route {
	return []api.Route{
		{Operation: opHistory, Method: http.MethodGet, Path: HistoryPath, Handler: r.getHistory,
			Summary: "Recorded calls and webhook attempts as JSON (?limit=N); ?follow=1 streams them as Server-Sent Events", Public: true, NoContentType: true, Answer: Snapshot{}},
		{Operation: opHAR, Method: http.MethodGet, Path: HARPath, Handler: r.getHAR,
			Summary: "Recorded calls and webhook attempts as HAR 1.2, for a browser's developer tools", Public: true, NoContentType: true},
	}
}
