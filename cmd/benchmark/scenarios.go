package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"
)

// scenarioTarget is issue 29's: the built-in scenarios at the default
// parallelism in at most a quarter of the time one at a time takes.
const scenarioTarget = 0.25

// scenarios times `sandbox test` over the folder one at a time
// (--parallel 1) and at the default parallelism, in the same run, and
// fails when the parallel run takes more than scenarioTarget of the
// serial one (or a scenario fails).
func (b *bench) scenarios(dir string) ([]row, error) {
	serial, longest, n, err := timeSuite(b.bin, dir, "--parallel", "1")
	if err != nil {
		return nil, err
	}
	parallel, _, _, err := timeSuite(b.bin, dir)
	if err != nil {
		return nil, err
	}
	ratio := parallel.Seconds() / serial.Seconds()
	rows := []row{
		{fmt.Sprintf("sandbox test %s, one at a time", dir), fmt.Sprintf("%.1f s", serial.Seconds()), "", fmt.Sprintf("%d scenarios, the longest %.1f s", n, longest.Seconds())},
		{fmt.Sprintf("sandbox test %s, default --parallel", dir), fmt.Sprintf("%.1f s", parallel.Seconds()), fmt.Sprintf("<= %.0f%% of one at a time", scenarioTarget*100), fmt.Sprintf("%.0f%%", ratio*100)},
	}
	if ratio > scenarioTarget {
		return rows, fmt.Errorf("scenarios in parallel took %.0f%% of one at a time, target %.0f%%", ratio*100, scenarioTarget*100)
	}
	return rows, nil
}

// timeSuite runs sandbox test --json over dir and returns its wall time,
// the longest scenario's and how many ran; a failing scenario is an error.
func timeSuite(bin, dir string, flags ...string) (wall, longest time.Duration, n int, err error) {
	cmd := exec.Command(bin, append(append([]string{"test", "--json"}, flags...), dir)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	began := time.Now()
	err = cmd.Run()
	wall = time.Since(began)
	if err != nil {
		return wall, 0, 0, fmt.Errorf("sandbox test %v %s: %v\n%s", flags, dir, err, errOut.String())
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct {
			Scenario, Step string
			Elapsed        *float64
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Scenario == "" || ev.Step != "" || ev.Elapsed == nil {
			continue
		}
		n++
		if d := time.Duration(*ev.Elapsed * float64(time.Second)); d > longest {
			longest = d
		}
	}
	return wall, longest, n, nil
}
