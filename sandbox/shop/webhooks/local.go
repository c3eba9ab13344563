package webhooks

import (
	"fmt"
	"net/http"
)

// local returns the in-process handler of a receiver URL, nil when the
// URL is an ordinary one to POST to over the network.
func (d *Dispatcher) local(url string) http.Handler {
	if d.Local == nil {
		return nil
	}
	return d.Local(url)
}

// serveLocal hands a delivery to an in-process receiver and reads its
// answer as an HTTP attempt would: the status and the first
// maxResponseBody bytes. The request is the one post built (same body,
// headers, signature and timeout context), so the attempt's records do
// not tell the two paths apart except by their speed.
func serveLocal(h http.Handler, req *http.Request) (status int, body string) {
	req.RequestURI = req.URL.RequestURI()
	req.RemoteAddr = "127.0.0.1:0"
	w := &localAnswer{header: http.Header{}}
	defer func() {
		if v := recover(); v != nil { // a receiver's bug fails the attempt, not the sandbox
			status, body = http.StatusInternalServerError, fmt.Sprintf("in-process receiver failed: %v", v)
		}
	}()
	h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.status, string(w.body)
}

// localAnswer is the ResponseWriter of an in-process delivery.
type localAnswer struct {
	header http.Header
	status int
	body   []byte
}

func (w *localAnswer) Header() http.Header { return w.header }

func (w *localAnswer) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *localAnswer) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if room := maxResponseBody - len(w.body); room > 0 {
		w.body = append(w.body, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
