// Command benchmark measures the sandbox the way CI and add-on test
// suites use it and prints one table: start-up time to the first healthy
// answer, throughput and latency of the main reads and writes at several
// concurrency levels against a bare net/http baseline measured in the
// same run, list latency deep into a large collection, webhook delivery
// latency, and peak memory; first, the scenario folder through sandbox
// test one at a time and in parallel. It only ever talks to 127.0.0.1, and every
// load run stops by itself after -duration.
//
// Reads are loaded by a lean generator of its own (rawload.go: raw
// keep-alive connections, requests built once), writes by net/http's
// client. The read comparison (wrk.go) measures the product GET and the
// order list of 100 against a bare net/http process sending the same
// bytes, with that generator and with wrk (-t2 -c8, -wrk-duration, after
// a warm-up) when wrk is installed, so the two measures can be compared;
// -reads-only runs it alone.
//
//	go build -o bin/sandbox ./cmd/sandbox && go run ./cmd/benchmark -sandbox bin/sandbox
//	go run ./cmd/benchmark -sandbox bin/sandbox -reads-only
//
// `make bench` does exactly that (plus the Go micro-benchmarks).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

func main() {
	if path := os.Getenv(bareEnv); path != "" {
		serveBare(path)
		return
	}
	var (
		bin      = flag.String("sandbox", "bin/sandbox", "sandbox binary to measure")
		large    = flag.String("large", "", "fixture folder with a large generated set (e.g. 100,000 products and orders); generated into a temp dir when empty and -large-n > 0")
		largeN   = flag.Int("large-n", 100000, "products and orders to generate for the large set (0 skips the large-set figures)")
		duration = flag.Duration("duration", 2*time.Second, "length of each load run")
		levels   = flag.String("concurrency", "1,8,64", "concurrency levels of the load runs")
		runs     = flag.Int("startups", 5, "start-ups to time (the median is reported)")
		scen     = flag.String("scenarios", "scenarios", "scenario folder to time with sandbox test one at a time and in parallel (empty skips it)")
		only     = flag.Bool("scenarios-only", false, "time only the scenario folder")
		health   = flag.Bool("health-only", false, "measure only health under 500 keep-alive clients")
		reads    = flag.Bool("reads-only", false, "run only the read comparison: the product GET and the order list of 100 against bare net/http, with the own generator and with wrk")
		rounds   = flag.Int("read-rounds", 1, "times the read comparison alternates bare and sandbox (the mean is reported, and each round's ratio)")
		largeOne = flag.Bool("large-only", false, "measure only the large set (generated unless -large names one): generation, start, memory after packing, deep pages")
		writes   = flag.Bool("writes-only", false, "measure only POST /api/orders at each -concurrency level")
		wrkDur   = flag.Duration("wrk-duration", 5*time.Second, "length of each run of the read comparison, wrk's -d (whole seconds) and the own generator's alike")
	)
	flag.Parse()
	var conc []int
	for _, s := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 256 {
			fmt.Fprintf(os.Stderr, "bad -concurrency %q\n", *levels)
			os.Exit(2)
		}
		conc = append(conc, n)
	}
	b := &bench{bin: *bin, duration: *duration, wrkDuration: *wrkDur, readRounds: *rounds, conc: conc, startups: *runs}
	var rows []row
	var err error
	if *health || *reads || *largeOne || *writes {
		switch {
		case *health:
			rows, err = b.healthOnly()
		case *reads:
			rows, err = b.readsOnly()
		case *largeOne:
			rows, err = b.large(*large, *largeN)
		default:
			rows, err = b.writesOnly()
		}
		printTable(rows)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchmark:", err)
			os.Exit(1)
		}
		return
	}
	if *scen != "" {
		rows, err = b.scenarios(*scen)
	}
	if err == nil && !*only {
		var more []row
		more, err = b.run(*large, *largeN)
		rows = append(rows, more...)
	}
	printTable(rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchmark:", err)
		os.Exit(1)
	}
}

// row is one line of the result table.
type row struct {
	What   string
	Value  string
	Target string
	Note   string
}

func printTable(rows []row) {
	host, _ := os.Hostname()
	fmt.Printf("sandbox benchmark on %s (%s)\n\n", host, machine())
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\tresult\ttarget\tnote")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.What, r.Value, r.Target, r.Note)
	}
	_ = tw.Flush()
}

func machine() string {
	cpus := "?"
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		n := strings.Count(string(raw), "\nprocessor")
		if strings.HasPrefix(string(raw), "processor") {
			n++
		}
		model := ""
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(line, "model name") {
				model = strings.TrimSpace(strings.SplitN(line, ":", 2)[1])
				break
			}
		}
		cpus = fmt.Sprintf("%d cores, %s", n, model)
	}
	return cpus
}
