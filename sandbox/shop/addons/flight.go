package addons

import (
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// flight is an install under way: the sandbox has sent the install
// request and waits for the answer, while the OAuth server reports the
// add-on's code exchanges. The order of the two (exchange before answer)
// is what the handshake is judged on, so both are recorded under one
// lock; the sandbox clock may stand still, so time cannot decide it.
type flight struct {
	id       string
	clientID string

	mu       sync.Mutex
	answered bool
	closed   bool // the record is final; later exchanges go to the stored record
	attempts []Attempt
	late     chan struct{} // signalled by an exchange after the answer
}

func newFlight(id, clientID string) *flight {
	return &flight{id: id, clientID: clientID, late: make(chan struct{}, 1)}
}

// markAnswered notes that the add-on's answer (its status line) arrived.
func (f *flight) markAnswered() {
	f.mu.Lock()
	f.answered = true
	f.mu.Unlock()
}

// add records an exchange; false when the flight is already closed.
func (f *flight) add(ex oauth.Exchange) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.attempts = append(f.attempts, Attempt{Exchange: ex, AfterAnswer: f.answered, OtherCode: ex.InstallID != f.id})
	if f.answered {
		select {
		case f.late <- struct{}{}:
		default:
		}
	}
	return true
}

func (f *flight) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.attempts)
}

// flights indexes the installs under way.
type flights struct {
	mu   sync.Mutex
	byID map[string]*flight
	keys map[string]string // "<eshop>/<addon>" -> install id, one install at a time
}

func (fs *flights) start(key string, f *flight) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if _, busy := fs.keys[key]; busy {
		return false
	}
	fs.keys[key] = ""
	if f != nil {
		fs.byID[f.id] = f
		fs.keys[key] = f.id
	}
	return true
}

func (fs *flights) attach(key string, f *flight) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.byID[f.id] = f
	fs.keys[key] = f.id
}

func (fs *flights) end(key string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if id := fs.keys[key]; id != "" {
		delete(fs.byID, id)
	}
	delete(fs.keys, key)
}

// find returns the flight an exchange belongs to: the install that sent
// the code, or else an install under way of the same client (an add-on
// that sends an old or made-up code while being installed).
func (fs *flights) find(ex oauth.Exchange) *flight {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f, ok := fs.byID[ex.InstallID]; ok && ex.InstallID != "" {
		return f
	}
	if ex.ClientID == "" {
		return nil
	}
	for _, f := range fs.byID {
		if f.clientID == ex.ClientID {
			return f
		}
	}
	return nil
}
