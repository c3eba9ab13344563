package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadResponse(t *testing.T) {
	const next = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	cases := []struct {
		name    string
		in      string
		status  int
		closing bool
		rest    string // what must be left unread: the next answer
		wantErr bool
	}{
		{name: "content-length", in: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"data\":{}}" + next, status: 200, rest: next},
		{name: "header names in any case", in: "HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabc" + next, status: 200, rest: next},
		{name: "chunked", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n" + next, status: 200, rest: next},
		{name: "chunked with trailer", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n" + next, status: 200, rest: next},
		{name: "404 with a body", in: "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found" + next, status: 404, rest: next},
		{name: "204 has no body", in: "HTTP/1.1 204 No Content\r\n\r\n" + next, status: 204, rest: next},
		{name: "100 continue skipped", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n" + next, status: 201, rest: next},
		{name: "bare LF line ends", in: "HTTP/1.1 200 OK\nContent-Length: 1\n\nx" + next, status: 200, rest: next},
		{name: "connection close", in: "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", status: 503, closing: true},
		{name: "HTTP/1.0 closes", in: "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", status: 200, closing: true},
		{name: "body to the end of the connection", in: "HTTP/1.1 200 OK\r\n\r\nall of this", status: 200, closing: true},
		{name: "short body", in: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", status: 200, wantErr: true},
		{name: "bad status line", in: "HTTP/1.1 2x0 OK\r\n\r\n", wantErr: true},
		{name: "not HTTP", in: "SSH-2.0-OpenSSH\r\n\r\n", wantErr: true},
		{name: "header without colon", in: "HTTP/1.1 200 OK\r\nnonsense\r\n\r\n", status: 200, wantErr: true},
		{name: "negative length", in: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", status: 200, wantErr: true},
		{name: "two lengths", in: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx", status: 200, wantErr: true},
		{name: "bad chunk size", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 200, wantErr: true},
		{name: "chunk without CRLF", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", status: 200, wantErr: true},
		{name: "truncated head", in: "HTTP/1.1 200 OK\r\nContent-Le", status: 200, wantErr: true},
		{name: "empty", in: "", wantErr: true},
	}
	for _, c := range cases {
		// Whole, and one byte per read: a response split across reads at
		// every possible point must read the same.
		for _, split := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/split=%v", c.name, split), func(t *testing.T) {
				var r io.Reader = strings.NewReader(c.in)
				if split {
					r = iotest.OneByteReader(r)
				}
				br := bufio.NewReaderSize(r, 64)
				status, closing, err := readResponse(br)
				if (err != nil) != c.wantErr {
					t.Fatalf("err = %v, want error: %v", err, c.wantErr)
				}
				if status != c.status {
					t.Errorf("status = %d, want %d", status, c.status)
				}
				if err != nil {
					return
				}
				if closing != c.closing {
					t.Errorf("closing = %v, want %v", closing, c.closing)
				}
				rest, _ := io.ReadAll(br)
				if string(rest) != c.rest {
					t.Errorf("left %q, want %q", rest, c.rest)
				}
			})
		}
	}
}

// A head line longer than the reader's buffer is an error, not a larger
// read.
func TestReadResponseLongLine(t *testing.T) {
	in := "HTTP/1.1 200 OK\r\nX-Long: " + strings.Repeat("a", 200) + "\r\nContent-Length: 0\r\n\r\n"
	if _, _, err := readResponse(bufio.NewReaderSize(strings.NewReader(in), 64)); err == nil {
		t.Fatal("no error for a header line longer than the buffer")
	}
}

// FuzzReadResponse feeds arbitrary bytes (which must never panic or read
// past what they hold), and builds a well-formed answer from the same
// input, framed by length or in chunks of the fuzzed sizes, which must
// read as exactly itself whatever way it is split across reads.
func FuzzReadResponse(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"), uint16(200), false, uint8(3))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"), uint16(404), true, uint8(1))
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\n\r\nbody"), uint16(503), true, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, code uint16, chunked bool, step uint8) {
		// Arbitrary input.
		br := bufio.NewReaderSize(bytes.NewReader(data), 64)
		_, _, _ = readResponse(br)

		// A well-formed answer around data as its body.
		status := 200 + int(code)%400
		var msg bytes.Buffer
		fmt.Fprintf(&msg, "HTTP/1.1 %d X\r\nContent-Type: application/json\r\n", status)
		if chunked {
			msg.WriteString("Transfer-Encoding: chunked\r\n\r\n")
			size := 1 + int(step)%17
			for rest := data; len(rest) > 0; {
				n := min(size, len(rest))
				fmt.Fprintf(&msg, "%x\r\n", n)
				msg.Write(rest[:n])
				msg.WriteString("\r\n")
				rest = rest[n:]
			}
			msg.WriteString("0\r\n\r\n")
		} else {
			fmt.Fprintf(&msg, "Content-Length: %d\r\n\r\n", len(data))
			msg.Write(data)
		}
		if status == 204 || status == 304 {
			msg.Reset()
			fmt.Fprintf(&msg, "HTTP/1.1 %d X\r\n\r\n", status)
		}
		msg.WriteString("NEXT")
		var r io.Reader = bytes.NewReader(msg.Bytes())
		if step%2 == 1 {
			r = iotest.OneByteReader(r)
		}
		br = bufio.NewReaderSize(r, 64)
		got, closing, err := readResponse(br)
		if err != nil || got != status || closing {
			t.Fatalf("readResponse = %d, %v, %v; want %d, false, nil for %q", got, closing, err, status, msg.Bytes())
		}
		if rest, _ := io.ReadAll(br); string(rest) != "NEXT" {
			t.Fatalf("left %q, want NEXT", rest)
		}
	})
}
