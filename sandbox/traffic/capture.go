package traffic

import (
	"net/http"
)

// capBuffer keeps the first limit bytes written to it and counts them all.
type capBuffer struct {
	limit int
	buf   []byte
	total int64
}

func (b *capBuffer) write(p []byte) {
	b.total += int64(len(p))
	if room := b.limit - len(b.buf); room > 0 {
		if len(p) > room {
			p = p[:room]
		}
		b.buf = append(b.buf, p...)
	}
}

func (b *capBuffer) truncated() bool { return b.total > int64(len(b.buf)) }

// recorder is the ResponseWriter the middleware hands down: it passes
// everything through and remembers the status, the headers as sent and
// the first bytes of the body.
type recorder struct {
	http.ResponseWriter
	status int
	header http.Header
	body   capBuffer
}

// WriteHeader remembers the first final status and the headers sent with it.
func (w *recorder) WriteHeader(code int) {
	if w.status == 0 && (code >= 200 || code == http.StatusSwitchingProtocols) {
		w.status = code
		w.header = w.ResponseWriter.Header().Clone()
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write keeps the first bytes of the body and passes everything on.
func (w *recorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.body.write(p)
	return w.ResponseWriter.Write(p)
}

// Flush keeps streaming handlers working through the recorder.
func (w *recorder) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
