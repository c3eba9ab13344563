package traffic

import (
	"bytes"
	"net/http"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// capture keeps the first limit bytes written and counts them all. Bytes
// the server marked as shared (a cached answer, see api.Call.Shared) are
// kept by reference; everything else is copied, as a handler may reuse
// its buffer after writing it.
type capture struct {
	limit int
	body  bus.Body
	total int64
	spare []byte // room for copies to come, reserved by reserve
}

func (c *capture) write(p []byte, shared bool) {
	c.total += int64(len(p))
	room := c.limit - c.body.Len()
	if room <= 0 || len(p) == 0 {
		return
	}
	if len(p) > room {
		p = p[:room]
	}
	if !shared {
		p = c.copyOf(p)
	}
	c.body.Append(p)
}

// reserve makes room for parts of the body, and for n bytes of copies,
// taken together.
func (c *capture) reserve(parts, n int) {
	c.body.Grow(parts)
	if room := c.limit - c.body.Len(); n > room {
		n = max(room, 0)
	}
	if n > cap(c.spare)-len(c.spare) {
		c.spare = make([]byte, 0, n)
	}
}

// copyOf copies p into the reserved room, or into a slice of its own.
func (c *capture) copyOf(p []byte) []byte {
	if len(p) > cap(c.spare)-len(c.spare) {
		return bytes.Clone(p)
	}
	start := len(c.spare)
	c.spare = append(c.spare, p...)
	return c.spare[start:len(c.spare):len(c.spare)]
}

func (c *capture) truncated() bool { return c.total > int64(c.body.Len()) }

// tappedWriter is the ResponseWriter the middleware hands down: it passes
// everything through and remembers the status, the headers as sent and
// the first bytes of the body.
//
// The headers as sent are the writer's own map, kept without a copy:
// once the status is written nothing the server runs changes it (a change
// would not reach the wire anyway), and net/http sends its own snapshot.
// Copying it cost three allocations and half a kilobyte per call. Should
// a handler ask for the map again after the status (see Header), or the
// call panic on its way to the recoverer (see Tap.observe), the record
// takes its copy first, so it still shows what was sent.
type tappedWriter struct {
	http.ResponseWriter
	status int
	header http.Header
	owned  bool // header is the tap's own copy
	body   capture
	call   *api.Call // the server's call, which marks shared bytes
}

// WriteHeader remembers the first final status and the headers sent with it.
func (w *tappedWriter) WriteHeader(code int) {
	if w.status == 0 && (code >= 200 || code == http.StatusSwitchingProtocols) {
		w.status = code
		w.header = w.ResponseWriter.Header()
	}
	w.ResponseWriter.WriteHeader(code)
}

// Header returns the writer's header map. Asked for after the status, it
// may be about to change: the record copies the headers as sent first.
func (w *tappedWriter) Header() http.Header {
	h := w.ResponseWriter.Header()
	if w.status != 0 {
		w.own()
	}
	return h
}

// own makes the recorded headers the tap's copy, once.
func (w *tappedWriter) own() {
	if !w.owned && w.header != nil {
		w.header, w.owned = w.header.Clone(), true
	}
}

// Write keeps the first bytes of the body and passes everything on.
func (w *tappedWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if before, shared, after, ok := w.call.SplitShared(p); ok {
		// A cached answer: the envelope's head and tail are copied
		// together, and the record's parts grow once.
		w.body.reserve(3, len(before)+len(after))
		w.body.write(before, false)
		w.body.write(shared, true)
		w.body.write(after, false)
	} else {
		w.body.write(p, false)
	}
	return w.ResponseWriter.Write(p)
}

// Flush keeps streaming handlers working through the tap.
func (w *tappedWriter) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *tappedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
