package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// chaosFlags are --chaos and --seed, shared by up and test: the share of
// the add-on's API calls that get a platform fault, and the seed that
// makes the same calls get the same faults again.
type chaosFlags struct {
	rate string
	seed uint64
}

func (c *chaosFlags) add(f *pflag.FlagSet) {
	f.StringVar(&c.rate, "chaos", "", "share of the add-on's API calls that get a platform fault (423, 429, 503, 500, expired-token, latency, a closed connection): 0.1 or 10%"+envHelp("chaos"))
	f.Uint64Var(&c.seed, "seed", 0, "seed of --chaos: the same seed gives the same faults on the same calls (random when 0, and printed)"+envHelp("seed"))
}

// parse returns the rate (0 without --chaos) and the seed to use, drawing
// one when none was given.
func (c *chaosFlags) parse() (float64, uint64, error) {
	s := strings.TrimSpace(c.rate)
	if s == "" {
		return 0, 0, nil
	}
	pct := strings.HasSuffix(s, "%")
	r, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if pct {
		r /= 100
	}
	if err != nil || !(r > 0 && r <= 1) {
		return 0, 0, fmt.Errorf("--chaos %q: give a share above 0 and at most 1, as 0.1 or 10%%", c.rate)
	}
	seed := c.seed
	for seed == 0 {
		seed = rand.Uint64() % 1_000_000
	}
	return r, seed, nil
}

// printChaos tells what chaos does and how to repeat it.
func printChaos(w io.Writer, rate float64, seed uint64) {
	if rate == 0 {
		return
	}
	fmt.Fprintf(w, "chaos: %s of the add-on's API calls get a platform fault; seed %d (--seed %d repeats them); the contract report (GET /_sandbox/report) says how the add-on coped\n",
		strconv.FormatFloat(rate*100, 'f', -1, 64)+"%", seed, seed)
}
