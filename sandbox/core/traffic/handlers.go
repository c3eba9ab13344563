package traffic

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// query is what GET /_sandbox/traffic accepts.
type query struct {
	follow bool  // stream live (Server-Sent Events)
	since  int64 // only events after this seq; Last-Event-ID sets it for a stream
	limit  int   // only the newest limit events of the history
}

// parseQuery reads follow, since and limit; a stream's Last-Event-ID
// header stands in for since, as the SSE reconnection rule wants.
func parseQuery(r *http.Request) (query, error) {
	var q query
	v := r.URL.Query()
	switch strings.ToLower(v.Get("follow")) {
	case "", "0", "false":
	case "1", "true":
		q.follow = true
	default:
		return q, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "follow",
			"Query parameter follow must be 1 (stream live events) or 0, not %q.", clip(v.Get("follow")))
	}
	since := v.Get("since")
	if since == "" && q.follow {
		since = strings.TrimSpace(r.Header.Get("Last-Event-ID"))
	}
	if since != "" {
		n, err := strconv.ParseInt(since, 10, 64)
		if err != nil || n < 0 {
			return q, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "since",
				"Query parameter since must be an event seq (a whole number, 0 or more), not %q.", clip(since))
		}
		q.since = n
	}
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 1_000_000 {
			return q, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "limit",
				"Query parameter limit must be a whole number from 1 to 1000000, not %q.", clip(l))
		}
		q.limit = n
	}
	return q, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Snapshot is the data of GET /_sandbox/traffic: the sandbox and the
// retained events, oldest first.
type Snapshot struct {
	Info   Info    `json:"info"`   // the sandbox the history comes from
	Events []Event `json:"events"` // the recorded events, oldest first
}

func (r *Tap) getHistory(req *api.Request) (any, error) {
	q, err := parseQuery(req.Request)
	if err != nil {
		return nil, err
	}
	return Snapshot{Info: r.Info(), Events: r.hist.snapshot(q.since, q.limit)}, nil
}

func (r *Tap) getHAR(req *api.Request) (any, error) {
	q, err := parseQuery(req.Request)
	if err != nil {
		return nil, err
	}
	doc := BuildHAR(r.hist.snapshot(q.since, q.limit), HAROptions{BaseURL: r.d.Site.BaseURL, Version: r.o.Version, Headers: r.d.Headers})
	body, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return &api.Raw{ContentType: "application/json", Body: append(body, '\n')}, nil
}
