package traffic

import (
	"io"
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

// replayBody serves a request body whose first bytes the recorder has
// already read (so a call refused before its body is read still shows
// it): the prefix first, then the rest of the connection, counted.
type replayBody struct {
	prefix []byte
	err    error // the error hit while reading the prefix, returned after it
	rest   io.ReadCloser
	buf    *capBuffer
}

// readPrefix reads up to buf.limit bytes of body into buf and returns the
// body to hand down in its place.
func readPrefix(body io.ReadCloser, buf *capBuffer) io.ReadCloser {
	head, err := io.ReadAll(io.LimitReader(body, int64(buf.limit)))
	buf.write(head)
	return &replayBody{prefix: head, err: err, rest: body, buf: buf}
}

// Read serves the prefix, then the rest of the body, counting it.
func (b *replayBody) Read(p []byte) (int, error) {
	if len(b.prefix) > 0 {
		n := copy(p, b.prefix)
		b.prefix = b.prefix[n:]
		return n, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.rest.Read(p)
	if n > 0 {
		b.buf.write(p[:n])
	}
	return n, err
}

// Close closes the underlying body.
func (b *replayBody) Close() error { return b.rest.Close() }

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
