package traffic

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Stream message names besides the event types.
const (
	StreamInfo    = "info"    // data: Info; always the first message
	StreamDropped = "dropped" // data: {"dropped": N}, the total this reader lost so far
)

// keepAlive is how often an idle stream sends a comment so proxies and
// clients see the connection is alive (wall time: a network matter).
const keepAlive = 15 * time.Second

// Dropped is the data of a "dropped" stream message.
type Dropped struct {
	Dropped int64 `json:"dropped"`
}

// serveStream answers GET /_sandbox/traffic?follow=1: the info, the
// retained history (after since / Last-Event-ID, newest limit), then live
// events until the client leaves or the server stops. A reader too slow
// for the traffic loses events rather than slowing anything down, and is
// told how many in "dropped" messages.
func (r *Tap) serveStream(w http.ResponseWriter, req *http.Request, q query) {
	r.endOnShutdown(req)
	past, s := r.hist.watch(r.o.StreamBuffer, q.since, q.limit)
	defer r.hist.unwatch(s)

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	out := bufio.NewWriterSize(w, 32<<10)

	var sentDropped int64
	flush := func() bool {
		if lost := r.Dropped() + s.dropped.Load(); lost != sentDropped {
			sentDropped = lost
			if writeMessage(out, StreamDropped, 0, Dropped{Dropped: lost}) != nil {
				return false
			}
		}
		return out.Flush() == nil && rc.Flush() == nil
	}
	if writeMessage(out, StreamInfo, 0, r.Info()) != nil {
		return
	}
	sentDropped = r.Dropped()
	for _, ev := range past {
		if writeMessage(out, ev.Type, ev.Seq, ev) != nil {
			return
		}
	}
	if !flush() {
		return
	}
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	for {
		select {
		case <-req.Context().Done():
			return
		case <-s.done:
			return
		case <-ping.C:
			if _, err := out.WriteString(": keep-alive\n\n"); err != nil || !flush() {
				return
			}
		case ev := <-s.ch:
			if writeMessage(out, ev.Type, ev.Seq, ev) != nil {
				return
			}
			for more := true; more; { // send what queued up in one flush
				select {
				case ev := <-s.ch:
					if writeMessage(out, ev.Type, ev.Seq, ev) != nil {
						return
					}
				default:
					more = false
				}
			}
			if !flush() {
				return
			}
		}
	}
}

// writeMessage writes one SSE message; JSON never contains a raw newline,
// so the data fits one data: line.
func writeMessage(w *bufio.Writer, name string, id int64, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if id > 0 {
		w.WriteString("id: " + strconv.FormatInt(id, 10) + "\n")
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	return err
}

// endOnShutdown makes the HTTP server's graceful shutdown end the streams
// first: Shutdown waits for active requests, and a stream never finishes
// on its own.
func (r *Tap) endOnShutdown(req *http.Request) {
	srv, ok := req.Context().Value(http.ServerContextKey).(*http.Server)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.shutdowns[srv] {
		r.shutdowns[srv] = true
		srv.RegisterOnShutdown(r.hist.closeStreams)
	}
}
