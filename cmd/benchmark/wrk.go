package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// The read comparison (issue: "product detail >= 0.75x bare net/http in a
// side-by-side run measured with wrk (-t2 -c8, 5 s, after a warm-up, the
// same bytes), and the order list of 100 >= 0.5x bare"). Each read is
// measured against a bare net/http process sending the bytes the sandbox
// sent, first with this program's lean generator and then with wrk, the
// bare server and the sandbox one after the other in the same run, each
// after a warm-up of its own; so a reader sees both ratios side by side
// and by how much they differ.

const (
	readConc    = 8 // wrk -c8, and the lean generator's connections
	wrkThreads  = 2 // wrk -t2
	readWarmup  = time.Second
	listOfOrder = 100 // the order list of 100
)

// readCase is one read of the comparison.
type readCase struct {
	what   string // as the table names it
	path   string // what both servers are asked for
	answer bareAnswer
	target ratioTarget
}

// reads runs the read comparison against the running sandbox p.
func (b *bench) reads(p *proc) ([]row, error) {
	guid, err := firstProduct(p.base)
	if err != nil {
		return nil, err
	}
	var rows []row
	// The default fixtures hold fewer than 100 orders: write the rest, so
	// the list of 100 holds 100.
	have, err := ensureOrders(p.base, listOfOrder)
	if err != nil {
		rows = append(rows, row{"orders for the list of 100", fmt.Sprintf("%d", have), "", "could not write more: " + firstLine(err.Error())})
	}
	cases := []readCase{
		{what: "GET /api/products/{guid}", path: "/api/products/" + guid, target: productTarget},
		{what: fmt.Sprintf("GET /api/orders?itemsPerPage=%d", listOfOrder), path: fmt.Sprintf("/api/orders?itemsPerPage=%d", listOfOrder), target: orderListTarget},
	}
	var answers []bareAnswer
	for i := range cases {
		a, err := sandboxAnswer(p.base, cases[i].path)
		if err != nil {
			return rows, err
		}
		cases[i].answer = a
		answers = append(answers, a)
	}
	cases[1].what += fmt.Sprintf(" (%d orders)", min(have, listOfOrder))
	bareURL, stopBare, err := bare(answers...)
	if err != nil {
		return rows, err
	}
	defer stopBare()

	wrk, wrkErr := exec.LookPath("wrk")
	secs := wrkSeconds(b.wrkDuration)
	rounds := max(1, b.readRounds)
	for _, c := range cases {
		label := fmt.Sprintf("%s, %d bytes, c=%d", c.what, len(c.answer.Body), readConc)
		// Per round: bare, then the sandbox, with the own generator and
		// then with wrk; each server warmed up by each tool in the first.
		var own, byWrk sides
		var wrkFail error
		for r := range rounds {
			for _, base := range []string{bareURL, p.base} {
				if r == 0 {
					rawLoad(readConc, readWarmup, base, rawGet(base, c.path, token))
				}
				own.add(base == bareURL, rawLoad(readConc, time.Duration(secs)*time.Second, base, rawGet(base, c.path, token)))
			}
			for _, base := range []string{bareURL, p.base} {
				if wrkErr != nil || wrkFail != nil {
					break
				}
				if r == 0 {
					if _, wrkFail = runWrk(wrk, base+c.path, 1); wrkFail != nil {
						break
					}
				}
				var w wrkResult
				if w, wrkFail = runWrk(wrk, base+c.path, secs); wrkFail == nil {
					byWrk.add(base == bareURL, result{requests: w.requests, errors: w.errors, rps: w.rps, p50: w.p50, p99: w.p99})
				}
			}
		}
		how := fmt.Sprintf("%d s after a %s warm-up", secs, readWarmup)
		if rounds > 1 {
			how = fmt.Sprintf("%d rounds of %d s after a %s warm-up, mean", rounds, secs, readWarmup)
		}
		ownRatio := own.ratio()
		rows = append(rows, row{label + ", own generator", own.value(), c.target.String(),
			fmt.Sprintf("%s; %s; %s", c.target.met(ownRatio), own.note(), how)})
		what := fmt.Sprintf("%s, wrk -t%d -c%d -d%ds", label, wrkThreads, readConc, secs)
		switch {
		case wrkErr != nil:
			rows = append(rows, row{what, "not measured: wrk not installed", c.target.String(), ""})
		case wrkFail != nil:
			rows = append(rows, row{what, "not measured", c.target.String(), firstLine(wrkFail.Error())})
		default:
			ratio := byWrk.ratio()
			rows = append(rows, row{what, byWrk.value(), c.target.String(),
				fmt.Sprintf("%s; %s; %s; ratio by wrk %.2f, by the own generator %.2f: %.2f apart",
					c.target.met(ratio), byWrk.note(), how, ratio, ownRatio, math.Abs(ratio-ownRatio))})
		}
	}
	return rows, nil
}

// sides collects the rounds of one read measured by one tool: the bare
// server's and the sandbox's, in the order they ran.
type sides struct{ bare, sandbox []result }

func (s *sides) add(bare bool, r result) {
	if bare {
		s.bare = append(s.bare, r)
	} else {
		s.sandbox = append(s.sandbox, r)
	}
}

// mean is the rounds' mean rate, their errors, and the slowest p50 and
// p99 of any round.
func mean(rs []result) result {
	var m result
	for _, r := range rs {
		m.rps += r.rps / float64(len(rs))
		m.requests += r.requests
		m.errors += r.errors
		m.p50, m.p99 = max(m.p50, r.p50), max(m.p99, r.p99)
	}
	return m
}

func (s *sides) ratio() float64 { return mean(s.sandbox).rps / mean(s.bare).rps }

func (s *sides) value() string {
	return fmt.Sprintf("%.0f req/s (%.2f of bare %.0f)", mean(s.sandbox).rps, s.ratio(), mean(s.bare).rps)
}

// note gives the latencies and errors of both, and with more than one
// round each round's ratio.
func (s *sides) note() string {
	sb, b := mean(s.sandbox), mean(s.bare)
	note := fmt.Sprintf("p50 %s p99 %s (bare %s, %s), %d errors (bare %d)", ms(sb.p50), ms(sb.p99), ms(b.p50), ms(b.p99), sb.errors, b.errors)
	if len(s.bare) > 1 {
		note += ", per round"
		for i := range s.bare {
			note += fmt.Sprintf(" %.2f", s.sandbox[i].rps/s.bare[i].rps)
		}
	}
	return note
}

// readsOnly starts a sandbox and runs the read comparison alone
// (-reads-only).
func (b *bench) readsOnly() ([]row, error) {
	p, err := start(b.bin)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	return b.reads(p)
}

// ensureOrders writes orders until the sandbox holds at least n and
// returns how many it holds.
func ensureOrders(base string, n int) (int, error) {
	var list struct {
		Paginator struct{ TotalCount int } `json:"paginator"`
	}
	if _, err := fetch(base, "/api/orders?itemsPerPage=1", &list); err != nil {
		return 0, err
	}
	have := list.Paginator.TotalCount
	if have >= n {
		return have, nil
	}
	body, err := orderBody(base)
	if err != nil {
		return have, err
	}
	for ; have < n; have++ {
		if _, err := send("POST", base+"/api/orders", body); err != nil {
			return have, err
		}
	}
	return have, nil
}

// wrkSeconds is d in whole seconds (wrk's -d), at least 1.
func wrkSeconds(d time.Duration) int { return max(1, int(d.Round(time.Second)/time.Second)) }

// wrkResult is what a wrk run printed.
type wrkResult struct {
	rps      float64
	requests int
	errors   int // non-2xx/3xx answers and socket errors
	avg, max time.Duration
	p50, p99 time.Duration
}

// runWrk runs wrk -t2 -c8 for secs seconds against url with the API
// headers, the same the lean generator sends.
func runWrk(wrk, url string, secs int) (wrkResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, wrk, fmt.Sprintf("-t%d", wrkThreads), fmt.Sprintf("-c%d", readConc), fmt.Sprintf("-d%ds", secs),
		"--latency", "-H", "Content-Type: application/json", "-H", "Service-Private-API-Token: "+token, url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %v: %s", err, firstLine(string(out)))
	}
	return parseWrk(string(out))
}

// runWrkPost is runWrk for POSTs of body (a Lua script sets the method
// and the body, the same bytes the lean generator sends), at conc
// connections.
func runWrkPost(wrk, url string, body []byte, conc, secs int) (wrkResult, error) {
	f, err := os.CreateTemp("", "bench-post-*.lua")
	if err != nil {
		return wrkResult{}, err
	}
	defer os.Remove(f.Name())
	// A Lua long string takes the bytes as they are, without escapes.
	if bytes.Contains(body, []byte("]==]")) {
		return wrkResult{}, errors.New("the body holds the end of a Lua long string")
	}
	if _, err := fmt.Fprintf(f, "wrk.method = \"POST\"\nwrk.body = [==[%s]==]\n", body); err != nil {
		f.Close()
		return wrkResult{}, err
	}
	if err := f.Close(); err != nil {
		return wrkResult{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, wrk, fmt.Sprintf("-t%d", min(wrkThreads, conc)), fmt.Sprintf("-c%d", conc), fmt.Sprintf("-d%ds", secs),
		"--latency", "-s", f.Name(), "-H", "Content-Type: application/json", "-H", "Service-Private-API-Token: "+token, url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %v: %s", err, firstLine(string(out)))
	}
	return parseWrk(string(out))
}

// parseWrk reads wrk's report: "Requests/sec:", the thread stats'
// Latency line, the latency distribution (--latency), the request count
// and any "Non-2xx or 3xx responses" and "Socket errors".
func parseWrk(out string) (wrkResult, error) {
	var r wrkResult
	seenRPS, inDist := false, false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "Requests/sec:" && len(f) == 2:
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return r, fmt.Errorf("wrk Requests/sec %q: %w", f[1], err)
			}
			r.rps, seenRPS = v, true
		case f[0] == "Latency" && len(f) >= 4 && !inDist:
			var err error
			if r.avg, err = wrkDuration(f[1]); err == nil {
				r.max, err = wrkDuration(f[3])
			}
			if err != nil {
				return r, err
			}
		case f[0] == "Latency" && len(f) == 2 && f[1] == "Distribution":
			inDist = true
		case inDist && len(f) == 2 && strings.HasSuffix(f[0], "%"):
			d, err := wrkDuration(f[1])
			if err != nil {
				return r, err
			}
			switch f[0] {
			case "50%":
				r.p50 = d
			case "99%":
				r.p99 = d
			}
		case len(f) >= 3 && f[1] == "requests" && f[2] == "in":
			inDist = false
			n, err := strconv.Atoi(f[0])
			if err != nil {
				return r, fmt.Errorf("wrk request count %q: %w", f[0], err)
			}
			r.requests = n
		case f[0] == "Non-2xx" && len(f) == 5:
			n, err := strconv.Atoi(f[len(f)-1])
			if err != nil {
				return r, fmt.Errorf("wrk non-2xx count %q: %w", f[len(f)-1], err)
			}
			r.errors += n
		case f[0] == "Socket" && len(f) > 2 && f[1] == "errors:":
			// "Socket errors: connect 0, read 0, write 0, timeout 0"
			for i := 3; i < len(f); i += 2 {
				n, err := strconv.Atoi(strings.TrimSuffix(f[i], ","))
				if err != nil {
					return r, fmt.Errorf("wrk socket errors %q: %w", sc.Text(), err)
				}
				r.errors += n
			}
		}
	}
	if !seenRPS {
		return r, errors.New("wrk printed no Requests/sec: " + firstLine(out))
	}
	return r, nil
}

// wrkDuration parses wrk's durations: "245.12us", "1.03ms", "2.00s",
// "1.50m", "1.00h".
func wrkDuration(s string) (time.Duration, error) {
	units := []struct {
		suffix string
		unit   time.Duration
	}{{"us", time.Microsecond}, {"ms", time.Millisecond}, {"m", time.Minute}, {"h", time.Hour}, {"s", time.Second}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil || v < 0 {
				break
			}
			return time.Duration(v * float64(u.unit)), nil
		}
	}
	return 0, fmt.Errorf("wrk duration %q", s)
}
