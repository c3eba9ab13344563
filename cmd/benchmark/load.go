package main

import (
	"bytes"
	"io"
	"net/http"
	"sort"
	"sync"
	"time"
)

// request builds one request of a load run; i numbers the requests.
type request func(i int) (*http.Request, error)

// result of one load run.
type result struct {
	requests int
	errors   int
	rps      float64
	p50, p99 time.Duration
}

// load sends requests from conc workers for d and measures them. A
// non-2xx answer counts as an error.
func load(conc int, d time.Duration, mk request) result {
	tr := &http.Transport{MaxIdleConns: conc * 2, MaxIdleConnsPerHost: conc * 2, DisableCompression: true}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	defer tr.CloseIdleConnections()
	var (
		mu      sync.Mutex
		lat     []time.Duration
		errs    int
		counter int
		wg      sync.WaitGroup
	)
	deadline := time.Now().Add(d)
	t0 := time.Now()
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, 4096)
			localErr := 0
			for time.Now().Before(deadline) {
				mu.Lock()
				i := counter
				counter++
				mu.Unlock()
				req, err := mk(i)
				if err != nil {
					localErr++
					continue
				}
				s := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					localErr++
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				local = append(local, time.Since(s))
				if resp.StatusCode/100 != 2 {
					localErr++
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

// summarize turns the latencies of a load run into its result.
func summarize(lat []time.Duration, errs int, elapsed time.Duration) result {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := result{requests: len(lat), errors: errs}
	if len(lat) > 0 {
		r.rps = float64(len(lat)) / elapsed.Seconds()
		r.p50 = lat[len(lat)/2]
		r.p99 = lat[min(len(lat)-1, len(lat)*99/100)]
	}
	return r
}

// get returns a request builder for a GET with the API headers.
func get(url, token string) request {
	return func(int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Service-Private-API-Token", token)
		}
		return req, nil
	}
}

// post returns a request builder for a POST of body(i).
func post(url, token string, body func(i int) []byte) request {
	return func(i int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body(i)))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Service-Private-API-Token", token)
		return req, nil
	}
}
