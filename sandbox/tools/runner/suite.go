package runner

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// Job is one run of a scenario file in a suite.
type Job struct {
	File string
	// Run and Of number the runs of one file under --count (Of > 1 adds
	// " (run R of N)" to the scenario's name).
	Run, Of int
}

// SuiteOptions tune how a suite's jobs are scheduled.
type SuiteOptions struct {
	// Parallel is how many jobs run at once (< 1: DefaultParallel()).
	Parallel int
	// FailFast starts no job after one failed; the running ones finish.
	FailFast bool
}

// DefaultParallel is how many scenarios `sandbox test` runs at once: four
// per CPU core, at most 16. A scenario run spends nearly all its time
// waiting (an add-on's back-off, latency faults, wait steps, the sandbox
// clock) and uses a few percent of a core, so a small CI machine keeps
// several per core busy without them slowing each other; the cap keeps the
// memory of that many in-process sandboxes and add-on processes modest on
// a big machine.
func DefaultParallel() int {
	n := 4 * runtime.NumCPU()
	if n > 16 {
		n = 16
	}
	return n
}

// RunSuite runs the jobs, up to sopts.Parallel at once, each on a fresh
// sandbox of its own (RunFile), and hands every result to report whole and
// in the jobs' order, as soon as it and all the jobs before it are done, so
// a report printed from it reads as a serial run's would. With FailFast no
// job starts after a result failed; a job that never started is neither
// reported nor returned. An ended ctx likewise starts no new job. The
// results are returned in the jobs' order.
func RunSuite(ctx context.Context, jobs []Job, opts Options, sopts SuiteOptions, report func(*Result)) []*Result {
	par := sopts.Parallel
	if par < 1 {
		par = DefaultParallel()
	}
	results := make([]*Result, len(jobs))
	done := make([]chan struct{}, len(jobs))
	for i := range done {
		done[i] = make(chan struct{})
	}
	var failed atomic.Bool
	slots := make(chan struct{}, par)
	go func() {
		for i, j := range jobs {
			slots <- struct{}{}
			if ctx.Err() != nil || (sopts.FailFast && failed.Load()) {
				<-slots
				for k := i; k < len(jobs); k++ {
					close(done[k])
				}
				return
			}
			go func(i int, j Job) {
				defer func() { <-slots }()
				res := RunFile(ctx, j.File, opts)
				if j.Of > 1 {
					res.Name += fmt.Sprintf(" (run %d of %d)", j.Run, j.Of)
				}
				if !res.Passed {
					failed.Store(true)
				}
				results[i] = res
				close(done[i])
			}(i, j)
		}
	}()
	var out []*Result
	for i := range jobs {
		<-done[i]
		if results[i] == nil {
			continue
		}
		if report != nil {
			report(results[i])
		}
		out = append(out, results[i])
	}
	return out
}

// ports are the add-on ports handed out to runs still going, process-wide:
// a port is closed again as soon as it is found free, so two runs at the
// same time could otherwise be told the same one.
var ports = struct {
	sync.Mutex
	taken map[int]bool
}{taken: map[int]bool{}}

// freePort finds a free loopback port no other run of this process holds,
// and holds it until releasePort.
func freePort() (int, error) {
	for try := 0; try < 100; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		p := l.Addr().(*net.TCPAddr).Port
		ports.Lock()
		if !ports.taken[p] {
			ports.taken[p] = true
			ports.Unlock()
			_ = l.Close()
			return p, nil
		}
		ports.Unlock()
		_ = l.Close()
	}
	return 0, fmt.Errorf("no free port for the add-on")
}

func releasePort(p string) {
	n, err := strconv.Atoi(p)
	if err != nil {
		return
	}
	ports.Lock()
	delete(ports.taken, n)
	ports.Unlock()
}
