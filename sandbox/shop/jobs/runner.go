package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/files"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/system"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// Service accepts asynchronous requests and runs their jobs.
type Service struct {
	Store     *store.Store
	Clock     *sandbox.Clock
	Bus       *bus.Bus
	Site      *eshop.Site
	Registry  *registry.Registry
	Catalogue *system.Catalogue
	Schemas   *schemas.Set
	IDs       *sandbox.IDs
	Fetcher   *files.Fetcher
	Files     *files.Service
	Log       *slog.Logger
	// Engine is the generic write path batch lines and image uploads go
	// through: the app's one engine, the one its endpoints write with.
	// Without it, Check builds one on Registry.
	Engine *crud.Engine

	settle sync.Mutex   // one settling pass at a time
	engine *crud.Engine // Engine, or the one Check built

	mu      sync.Mutex
	faults  []Fault
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	started bool // guarded by mu
}

// Fault makes a coming job fail or stall (POST /_sandbox/jobs/fail-next).
type Fault struct {
	Eshop int    `json:"eshop,omitempty"` // 0: the next job of any e-shop
	Mode  string `json:"mode"`            // fail or stall
	Log   string `json:"log"`             // the job's log on failure
}

// Result is what a job's work produced.
type Result struct {
	File []byte // gzip JSON Lines served at resultUrl; nil for none
	Log  string // the job's log
}

func (s *Service) init() {
	s.once.Do(func() {
		s.wake = make(chan struct{}, 1)
		s.stop = make(chan struct{})
		s.done = make(chan struct{})
		if s.Log == nil {
			s.Log = slog.Default()
		}
	})
}

// Hook wakes the runner when the clock moves; it never blocks.
func (s *Service) Hook(m bus.Message) {
	if m.Topic == bus.TopicClock {
		s.Wake()
	}
}

// Wake makes the runner look for due transitions now.
func (s *Service) Wake() {
	s.init()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Start runs the job runner in the background.
func (s *Service) Start() {
	s.init()
	s.mu.Lock()
	s.started = true
	s.mu.Unlock()
	go s.run()
}

// Stop ends the runner.
func (s *Service) Stop(ctx context.Context) error {
	s.init()
	select {
	case <-s.stop:
		return nil
	default:
		close(s.stop)
	}
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if !started { // Open failed before the runner started
		return nil
	}
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Reset forgets armed faults after the store was re-seeded.
func (s *Service) Reset() {
	s.mu.Lock()
	s.faults = nil
	s.mu.Unlock()
}

// Arm queues a fault for a coming job.
func (s *Service) Arm(f Fault) {
	s.mu.Lock()
	s.faults = append(s.faults, f)
	s.mu.Unlock()
}

// takeFault pops the first armed fault that applies to the e-shop.
func (s *Service) takeFault(eshopID int) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.faults {
		if f.Eshop == 0 || f.Eshop == eshopID {
			s.faults = append(s.faults[:i], s.faults[i+1:]...)
			return &f
		}
	}
	return nil
}

func (s *Service) run() {
	defer close(s.done)
	for {
		next := s.Settle()
		var timer *time.Timer
		var due <-chan time.Time
		if !next.IsZero() {
			// A running clock reaches the due time by itself; a moved
			// clock wakes the runner through the bus.
			wait := min(max(next.Sub(s.Clock.Now()), 10*time.Millisecond), time.Second)
			timer = time.NewTimer(wait)
			due = timer.C
		}
		select {
		case <-s.stop:
			return
		case <-s.wake:
		case <-due:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// Settle applies every transition that is due on the sandbox clock and
// returns when the next one is due (zero when none is). The job
// endpoints call it before answering, so a job read right after a clock
// move already shows its new state.
func (s *Service) Settle() time.Time {
	s.init()
	s.settle.Lock()
	defer s.settle.Unlock()
	open, err := s.openJobs()
	if err != nil {
		s.Log.Error("jobs: list open jobs", "err", err)
		return time.Time{}
	}
	now := s.Clock.Now()
	var next time.Time
	for _, j := range open {
		if err := s.step(j, now); err != nil {
			s.Log.Error("jobs: step", "job", j.ID, "err", err)
		}
		if d := j.NextDue(); !d.IsZero() && (next.IsZero() || d.Before(next)) {
			next = d
		}
	}
	return next
}

func (s *Service) openJobs() ([]*Job, error) {
	var open []*Job
	err := s.Store.View(func(tx *store.Tx) error {
		metas, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range metas {
			err := tx.Scan(m.ID, Collection, func(_ string, doc []byte) bool {
				var j Job
				if json.Unmarshal(doc, &j) == nil && j.Open() {
					open = append(open, &j)
				}
				return true
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	sort.SliceStable(open, func(i, k int) bool { return open[i].Created.Before(open[k].Created) })
	return open, err
}

// step moves one job through every transition due by now.
func (s *Service) step(j *Job, now time.Time) error {
	if j.Status == Pending && !now.Before(j.RunningAt()) {
		j.Status = Running
		if err := s.commit(j, j.RunningAt(), false); err != nil {
			return err
		}
	}
	if j.Status != Running {
		return nil
	}
	if j.Fault == FaultStall {
		at := j.Created.Add(AutoFail)
		if now.Before(at) {
			return nil
		}
		j.Status, j.Completed = Failed, &at
		j.Log = "The job did not finish within 3 hours and failed automatically."
		if j.FaultLog != "" {
			j.Log = j.FaultLog + " " + j.Log
		}
		return s.commit(j, at, false) // no job:finished for the automatic failure
	}
	at := j.DoneAt()
	if now.Before(at) {
		return nil
	}
	res, err := s.work(j)
	j.Completed = &at
	if err != nil {
		j.Status, j.Log = Failed, err.Error()
	} else {
		j.Status, j.Log = Completed, res.Log
		if res.File != nil {
			until := at.Add(ResultValidity)
			if err := s.saveResult(j, res.File, until); err != nil {
				return err
			}
			j.ResultURL, j.ValidUntil = s.resultURL(j), &until
		}
	}
	return s.commit(j, at, true)
}

// work runs the job's operation, turning a panic into a failure.
func (s *Service) work(j *Job) (res Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.Log.Error("jobs: work panicked", "job", j.ID, "operation", j.Operation, "panic", v)
			err = fmt.Errorf("The job failed because of an error in the sandbox (logged).")
		}
	}()
	if j.Fault == FaultFail {
		msg := j.FaultLog
		if msg == "" {
			msg = "The job failed (a failure armed with POST /_sandbox/jobs/fail-next)."
		}
		return Result{}, fmt.Errorf("%s", msg)
	}
	w := s.workFor(j.Operation)
	if w == nil {
		return Result{}, fmt.Errorf("The sandbox has no work for %s.", j.Operation)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return w(ctx, j)
}

// commit stores a transition at sandbox time at, tells the terminal UI
// and, when finished is set, emits job:finished in the same write.
func (s *Service) commit(j *Job, at time.Time, finished bool) error {
	err := s.Store.Update(func(tx *store.Tx) error {
		if !tx.Exists(j.EshopID, Collection, j.ID) {
			return nil // reset meanwhile
		}
		if finished {
			tx.Emit(sandbox.Event{EshopID: j.EshopID, Kind: webhooks.JobFinished, Instance: j.ID, Time: at})
		}
		return save(tx, j)
	})
	if err == nil && s.Bus != nil {
		s.Bus.Emit(bus.TopicJob, bus.JobChange{Eshop: j.EshopID, JobID: j.ID, Endpoint: j.Endpoint, Status: j.Status, Time: at})
	}
	return err
}
