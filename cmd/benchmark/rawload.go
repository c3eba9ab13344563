package main

import (
	"bufio"
	"fmt"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// rawRequest returns the bytes of request i, which the caller only
// reads (a fixed request is built once and returned every time).
type rawRequest func(i int) []byte

// rawGet returns a GET of path with the API headers, built once: the
// same request line and headers wrk sends with -H.
func rawGet(base, path, token string) rawRequest {
	req := rawGetBytes(base, path, token)
	return func(int) []byte { return req }
}

func rawGetBytes(base, path, token string) []byte {
	u, err := url.Parse(base)
	if err != nil {
		panic(err)
	}
	req := fmt.Appendf(nil, "GET %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", path, u.Host)
	if token != "" {
		req = fmt.Appendf(req, "Service-Private-API-Token: %s\r\n", token)
	}
	return append(req, "\r\n"...)
}

// rawPost returns a POST of body to path with the API headers, built
// once (what wrk sends with the post script, see runWrkPost).
func rawPost(base, path, token string, body []byte) rawRequest {
	u, err := url.Parse(base)
	if err != nil {
		panic(err)
	}
	req := fmt.Appendf(nil, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", path, u.Host, len(body))
	if token != "" {
		req = fmt.Appendf(req, "Service-Private-API-Token: %s\r\n", token)
	}
	req = append(append(req, "\r\n"...), body...)
	return func(int) []byte { return req }
}

// rawGets cycles through a GET per path (request i asks for
// paths[i%len(paths)]), each built once.
func rawGets(base, token string, paths []string) rawRequest {
	reqs := make([][]byte, len(paths))
	for i, p := range paths {
		reqs[i] = rawGetBytes(base, p, token)
	}
	return func(i int) []byte { return reqs[i%len(reqs)] }
}

// recvBuf is the size of each read from a connection: wrk's (RECVBUF,
// 8 KiB), so a large answer costs both clients as many reads (the order
// list of 100, 93 KB, takes twelve); with a larger buffer the generator
// spent less per answer than wrk and measured the bare server, which it
// then keeps the busier, higher than wrk did.
const recvBuf = 8 << 10

// rawLoad is the lean load generator for reads: conc keep-alive TCP
// connections to base's host, each sending one request and reading its
// answer with readResponse, for d. Like wrk it does no more per request
// than write the bytes, frame the answer and take the time, so it leaves
// the two servers it compares as much CPU as wrk does. A non-2xx answer
// counts as an error; so does a connection failure (after which the
// worker reconnects).
func rawLoad(conc int, d time.Duration, base string, mk rawRequest) result {
	u, err := url.Parse(base)
	if err != nil {
		return result{errors: 1}
	}
	addr := u.Host
	var (
		mu      sync.Mutex
		lat     []time.Duration
		errs    int
		counter atomic.Int64
		wg      sync.WaitGroup
	)
	deadline := time.Now().Add(d)
	t0 := time.Now()
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, 1<<16)
			localErr := 0
			var (
				conn net.Conn
				br   *bufio.Reader
			)
			drop := func() {
				if conn != nil {
					_ = conn.Close()
					conn = nil
				}
			}
			defer drop()
			for time.Now().Before(deadline) {
				if conn == nil {
					c, err := net.DialTimeout("tcp", addr, 5*time.Second)
					if err != nil {
						localErr++
						time.Sleep(time.Millisecond)
						continue
					}
					// One deadline for the whole run: a stuck server
					// ends the worker instead of hanging the benchmark.
					_ = c.SetDeadline(deadline.Add(30 * time.Second))
					conn = c
					if br == nil {
						br = bufio.NewReaderSize(c, recvBuf)
					} else {
						br.Reset(c)
					}
				}
				req := mk(int(counter.Add(1) - 1))
				s := time.Now()
				if _, err := conn.Write(req); err != nil {
					localErr++
					drop()
					continue
				}
				status, closing, err := readResponse(br)
				if err != nil {
					localErr++
					drop()
					continue
				}
				local = append(local, time.Since(s))
				if status/100 != 2 {
					localErr++
				}
				if closing {
					drop()
				}
			}
			mu.Lock()
			lat = append(lat, local...)
			errs += localErr
			mu.Unlock()
		}()
	}
	wg.Wait()
	return summarize(lat, errs, time.Since(t0))
}
