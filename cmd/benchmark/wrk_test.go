package main

import (
	"testing"
	"time"
)

const wrkReport = `Running 5s test @ http://127.0.0.1:40123/api/products/x
  2 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   245.12us  123.45us   5.67ms   89.12%
    Req/Sec    16.23k     1.23k   18.90k    70.00%
  Latency Distribution
     50%  220.00us
     75%  280.00us
     90%  350.00us
     99%    1.02ms
  161234 requests in 5.00s, 210.12MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 12
Requests/sec:  32246.80
Transfer/sec:     42.02MB
`

func TestParseWrk(t *testing.T) {
	r, err := parseWrk(wrkReport)
	if err != nil {
		t.Fatal(err)
	}
	want := wrkResult{rps: 32246.80, requests: 161234, errors: 15,
		avg: 245120 * time.Nanosecond, max: 5670 * time.Microsecond,
		p50: 220 * time.Microsecond, p99: 1020 * time.Microsecond}
	if r != want {
		t.Errorf("parseWrk = %+v\nwant      %+v", r, want)
	}
	if _, err := parseWrk("unable to connect to 127.0.0.1:1 Connection refused\n"); err == nil {
		t.Error("no error for a report without Requests/sec")
	}
}

func TestWrkDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"245.12us": 245120 * time.Nanosecond, "1.03ms": 1030 * time.Microsecond,
		"2.00s": 2 * time.Second, "1.50m": 90 * time.Second, "1.00h": time.Hour,
	} {
		if got, err := wrkDuration(in); err != nil || got != want {
			t.Errorf("wrkDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "us", "12", "-1ms", "1.0x"} {
		if _, err := wrkDuration(in); err == nil {
			t.Errorf("wrkDuration(%q): no error", in)
		}
	}
}
