package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
)

// The lean load generator reads answers with this minimal HTTP/1.1
// response reader instead of net/http's client: it allocates nothing per
// answer and discards bodies as it frames them, so the generator spends
// about as little CPU per request as wrk does and leaves the two shared
// cores to the servers being compared.

var errResponse = errors.New("malformed HTTP response")

// maxChunkLine bounds a chunk-size line, as it bounds a header line: a
// line longer than the reader's buffer is an error, not a read into memory.
const maxChunkLine = 4096

// readResponse reads one HTTP/1.1 response from br, discarding its body,
// and returns its status code and whether the server will close the
// connection after it. A body is framed by Content-Length or chunked
// transfer encoding; an answer with neither (not 1xx, 204 or 304) runs to
// the end of the connection. Informational (1xx) answers are skipped.
// Every line of the head must fit in br's buffer.
func readResponse(br *bufio.Reader) (status int, closing bool, err error) {
	for {
		status, closing, err = readOne(br)
		if err != nil || status >= 200 {
			return status, closing, err
		}
	}
}

func readOne(br *bufio.Reader) (status int, closing bool, err error) {
	line, err := readLine(br)
	if err != nil {
		return 0, false, err
	}
	// "HTTP/1.1 200 OK": the version, a space, three digits, then a space
	// or the end of the line.
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' || (len(line) > 12 && line[12] != ' ') {
		return 0, false, fmt.Errorf("%w: status line %q", errResponse, line)
	}
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return 0, false, fmt.Errorf("%w: status line %q", errResponse, line)
		}
		status = status*10 + int(c-'0')
	}
	closing = line[7] == '0' // HTTP/1.0 closes unless told otherwise
	length, chunked := int64(-1), false
	for {
		h, err := readLine(br)
		if err != nil {
			return status, closing, err
		}
		if len(h) == 0 {
			break
		}
		colon := bytes.IndexByte(h, ':')
		if colon <= 0 {
			return status, closing, fmt.Errorf("%w: header %q", errResponse, h)
		}
		name, value := h[:colon], bytes.TrimSpace(h[colon+1:])
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, ok := parseUint(value, 10)
			if !ok || (length >= 0 && n != length) {
				return status, closing, fmt.Errorf("%w: Content-Length %q", errResponse, value)
			}
			length = n
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			// Only chunked is ever sent to this client; it must come last.
			chunked = bytes.HasSuffix(bytes.ToLower(value), []byte("chunked"))
			if !chunked {
				return status, closing, fmt.Errorf("%w: Transfer-Encoding %q", errResponse, value)
			}
		case bytes.EqualFold(name, []byte("Connection")):
			if bytes.EqualFold(value, []byte("close")) {
				closing = true
			} else if bytes.EqualFold(value, []byte("keep-alive")) {
				closing = false
			}
		}
	}
	switch {
	case status < 200 || status == 204 || status == 304:
		return status, closing, nil
	case chunked:
		return status, closing, discardChunked(br)
	case length >= 0:
		return status, closing, discard(br, length)
	}
	// Neither framing: the body ends with the connection.
	for {
		if _, err := br.Discard(br.Buffered()); err != nil {
			return status, true, err
		}
		if _, err := br.Peek(1); err != nil {
			return status, true, nil
		}
	}
}

// readLine returns the next line without its CRLF (or LF); the slice is
// valid until the next read.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("%w: line longer than %d bytes", errResponse, br.Size())
		}
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

func discard(br *bufio.Reader, n int64) error {
	for n > 0 {
		step := int(min(n, 1<<30))
		got, err := br.Discard(step)
		n -= int64(got)
		if err != nil {
			return err
		}
	}
	return nil
}

// discardChunked discards a chunked body and its trailer.
func discardChunked(br *bufio.Reader) error {
	for {
		line, err := readLine(br)
		if err != nil {
			return err
		}
		if len(line) > maxChunkLine {
			return fmt.Errorf("%w: chunk line too long", errResponse)
		}
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		n, ok := parseUint(bytes.TrimSpace(line), 16)
		if !ok {
			return fmt.Errorf("%w: chunk size %q", errResponse, line)
		}
		if n == 0 {
			for { // the trailer, up to its empty line
				t, err := readLine(br)
				if err != nil {
					return err
				}
				if len(t) == 0 {
					return nil
				}
			}
		}
		if err := discard(br, n); err != nil {
			return err
		}
		end, err := readLine(br)
		if err != nil {
			return err
		}
		if len(end) != 0 {
			return fmt.Errorf("%w: chunk not followed by CRLF", errResponse)
		}
	}
}

// parseUint parses a non-empty unsigned number in base 10 or 16 that fits
// in 62 bits.
func parseUint(b []byte, base int64) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		var d int64
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = int64(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = int64(c-'A') + 10
		default:
			return 0, false
		}
		n = n*base + d
	}
	return n, true
}
