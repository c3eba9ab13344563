package tui

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
)

// RemoteSource feeds the UI from another sandbox's live traffic stream
// (`sandbox tui`). It reconnects after a failure and resumes after
// the last event it saw. When the UI falls behind, events are dropped here
// (counted) so the stream keeps flowing; the server counts what it had to
// drop for this reader and says so.
type RemoteSource struct {
	items   chan Item
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	server  atomic.Int64 // dropped as the server last reported
	local   atomic.Int64 // dropped here
	closeMu sync.Once
}

// remoteBuffer is how many items wait for the UI before new ones are
// dropped.
const remoteBuffer = 4096

// NewRemoteSource follows the sandbox at baseURL (http://host:port).
func NewRemoteSource(baseURL string, client *http.Client) *RemoteSource {
	if client == nil {
		client = &http.Client{} // no timeout: the stream is long-lived
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &RemoteSource{items: make(chan Item, remoteBuffer), cancel: cancel}
	s.wg.Add(1)
	go s.run(ctx, baseURL, client)
	return s
}

func (s *RemoteSource) run(ctx context.Context, baseURL string, client *http.Client) {
	defer s.wg.Done()
	defer close(s.items)
	var last int64
	var boot string
	backoff := 250 * time.Millisecond
	for ctx.Err() == nil {
		got, restarted := false, false
		conn, cancel := context.WithCancel(ctx)
		var err error
		last, err = traffic.Follow(conn, client, baseURL, last, func(m traffic.StreamMessage) {
			if restarted {
				return
			}
			got = true
			switch {
			case m.Info != nil && boot != "" && m.Info.Boot != boot && last > 0:
				// another run of the sandbox: its seqs start over, so
				// resuming after ours would skip its first events
				restarted = true
				boot = m.Info.Boot
				cancel()
			case m.Info != nil:
				boot = m.Info.Boot
				s.server.Store(m.Info.Dropped)
				s.offer(ctx, Item{Info: m.Info}, true)
			case m.Dropped != nil:
				s.server.Store(*m.Dropped)
			case m.Event != nil:
				s.offer(ctx, Item{Event: m.Event}, false)
			}
		})
		cancel()
		if ctx.Err() != nil {
			return
		}
		if restarted {
			last = 0
			continue
		}
		if err == nil {
			err = errStreamEnded
		}
		s.offer(ctx, Item{Err: err}, true)
		if got {
			backoff = 250 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff): // wall time: network retry, not sandbox time
		}
		if backoff < 4*time.Second {
			backoff *= 2
		}
	}
}

// offer queues an item; events are dropped when the UI is behind, while
// info and connection news wait for room (they are rare and matter).
func (s *RemoteSource) offer(ctx context.Context, it Item, mustSend bool) {
	if mustSend {
		select {
		case s.items <- it:
		case <-ctx.Done():
		}
		return
	}
	select {
	case s.items <- it:
	default:
		s.local.Add(1)
	}
}

// Items implements Source.
func (s *RemoteSource) Items() <-chan Item { return s.items }

// Dropped implements Source.
func (s *RemoteSource) Dropped() int64 { return s.server.Load() + s.local.Load() }

// Close implements Source.
func (s *RemoteSource) Close() error {
	s.closeMu.Do(s.cancel)
	s.wg.Wait()
	return nil
}

type streamEnded struct{}

// Error implements error.
func (streamEnded) Error() string { return "the sandbox closed the traffic stream" }

var errStreamEnded error = streamEnded{}
