package main

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"
)

// healthClients is how many keep-alive clients load the sandbox while
// health is probed (issue: "health stays under 1 s with 500 keep-alive
// clients").
const healthClients = 500

// healthUnderLoad measures how long /_sandbox/health takes, each probe on
// a new connection every 100 ms, while healthClients keep-alive clients
// read a product as fast as they can (limits off, as a load test runs
// them). It reports the slowest probe and how many took over a second.
func (b *bench) healthUnderLoad(p *proc, productPath string) row {
	what := fmt.Sprintf("GET /_sandbox/health under %d keep-alive clients", healthClients)
	var (
		probes []time.Duration
		failed int
		wg     sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			t0 := time.Now()
			resp, err := client.Get(p.base + "/_sandbox/health")
			if err != nil {
				failed++
				continue
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				failed++
				continue
			}
			probes = append(probes, time.Since(t0))
		}
	}()
	res := load(healthClients, b.duration+3*time.Second, get(p.base+productPath, token))
	close(done)
	wg.Wait()
	if len(probes) == 0 {
		return row{what, "not measured", "< 1 s", fmt.Sprintf("%d probes failed", failed)}
	}
	sort.Slice(probes, func(i, j int) bool { return probes[i] < probes[j] })
	slow := 0
	for _, d := range probes {
		if d > time.Second {
			slow++
		}
	}
	return row{what, "slowest " + ms(probes[len(probes)-1]), "< 1 s",
		fmt.Sprintf("%d probes: p50 %s, p99 %s, %d over 1 s, %d failed; the load: %.0f req/s, %d errors",
			len(probes), ms(probes[len(probes)/2]), ms(probes[min(len(probes)-1, len(probes)*99/100)]), slow, failed, res.rps, res.errors)}
}

// healthOnly starts a sandbox and measures health under load alone
// (-health-only).
func (b *bench) healthOnly() ([]row, error) {
	p, err := start(b.bin)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	guid, err := firstProduct(p.base)
	if err != nil {
		return nil, err
	}
	return []row{b.healthUnderLoad(p, "/api/products/"+guid)}, nil
}

// firstProduct is the GUID of the first product the sandbox lists.
func firstProduct(base string) (string, error) {
	var list struct {
		Products []struct {
			GUID string `json:"guid"`
		} `json:"products"`
	}
	if _, err := fetch(base, "/api/products?itemsPerPage=1", &list); err != nil || len(list.Products) == 0 {
		return "", fmt.Errorf("no product to read: %v", err)
	}
	return list.Products[0].GUID, nil
}
