package api

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sort"
	"sync"
	"syscall"
	"time"
)

// ConnGuard keeps the sandbox answering while clients hold connections
// open without using them. Each connection costs a file descriptor; once
// the process runs out, it cannot accept anything (accept4: too many open
// files), not even a health check. The guard caps the open connections
// below the process's limit, and when a new connection arrives at the
// cap it closes the one that has waited longest without progress: an idle
// keep-alive connection, one whose request headers have not arrived, or
// one whose request body is stalled. A connection whose request is being
// processed is never closed.
//
// Use it as the listener wrapper (Listen), and as the http.Server's
// ConnState and ConnContext hooks.
type ConnGuard struct {
	max int

	mu    sync.Mutex
	conns map[net.Conn]*connEntry
	// Evicted counts the connections closed to make room.
	evicted int
}

// connEntry is what the guard knows of one connection.
type connEntry struct {
	conn    net.Conn
	state   http.ConnState
	since   time.Time // when it entered its state, or started waiting for a body
	waiting bool      // a request body is being read
	g       *ConnGuard
}

// NewConnGuard caps open connections at n (at least 1).
func NewConnGuard(n int) *ConnGuard {
	return &ConnGuard{max: max(n, 1), conns: map[net.Conn]*connEntry{}}
}

// Max is the cap on open connections.
func (g *ConnGuard) Max() int { return g.max }

// Evicted is how many connections the guard closed to make room.
func (g *ConnGuard) Evicted() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.evicted
}

// Listen wraps a listener so that every accepted connection is tracked.
func (g *ConnGuard) Listen(l net.Listener) net.Listener { return &guardedListener{Listener: l, g: g} }

type guardedListener struct {
	net.Listener
	g *ConnGuard
}

// Accept takes the next connection, making room for it first when the
// cap is reached. When accept fails for lack of file descriptors (the cap
// is above what the process can open, or other files took them), idle
// and half-open connections are closed at once and accept is tried
// again, instead of net/http backing off while a flood holds every
// descriptor until its header timeout.
func (l *guardedListener) Accept() (net.Conn, error) {
	for tries := 0; ; tries++ {
		c, err := l.Listener.Accept()
		if err == nil {
			l.g.add(c)
			return c, nil
		}
		if tries >= 3 || !(errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)) || l.g.shed() == 0 {
			return nil, err
		}
	}
}

func (g *ConnGuard) add(c net.Conn) {
	g.mu.Lock()
	var victim *connEntry
	if len(g.conns) >= g.max {
		now := time.Now()
		for _, e := range g.conns {
			if !e.evictable(now) {
				continue
			}
			if victim == nil || e.since.Before(victim.since) {
				victim = e
			}
		}
		if victim == nil {
			// A burst of new connections, none past its grace: the one
			// that connected first and still sent nothing goes. A client
			// that sends its request at once (a health check) is past
			// StateNew long before a burst catches up with it.
			victim = g.oldestNew()
		}
		if victim != nil {
			delete(g.conns, victim.conn)
			g.evicted++
		}
	}
	g.conns[c] = &connEntry{conn: c, state: http.StateNew, since: time.Now(), g: g}
	g.mu.Unlock()
	if victim != nil {
		_ = victim.conn.Close()
	}
}

// oldestNew is the connection that has waited longest for its first
// request; callers hold the lock.
func (g *ConnGuard) oldestNew() *connEntry {
	var old *connEntry
	for _, e := range g.conns {
		if e.state == http.StateNew && (old == nil || e.since.Before(old.since)) {
			old = e
		}
	}
	return old
}

// shed closes connections to free descriptors when accept ran out of
// them: every evictable one, or else the oldest eighth of those that sent
// nothing yet. It returns how many it closed.
func (g *ConnGuard) shed() int {
	g.mu.Lock()
	now := time.Now()
	var victims []*connEntry
	for _, e := range g.conns {
		if e.evictable(now) {
			victims = append(victims, e)
		}
	}
	if len(victims) == 0 {
		for _, e := range g.conns {
			if e.state == http.StateNew {
				victims = append(victims, e)
			}
		}
		sort.Slice(victims, func(i, j int) bool { return victims[i].since.Before(victims[j].since) })
		victims = victims[:min(len(victims), max(len(victims)/8, 1))]
	}
	for _, e := range victims {
		delete(g.conns, e.conn)
	}
	g.evicted += len(victims)
	g.mu.Unlock()
	for _, e := range victims {
		_ = e.conn.Close()
	}
	return len(victims)
}

// headerGrace is how long a new connection may take to send its first
// request before the guard may close it to make room: a client that just
// connected (a health check) is never the one closed.
const headerGrace = 2 * time.Second

// evictable reports whether closing the connection loses no work in
// progress: an idle keep-alive connection, a request whose body is
// stalled, or a connection that has not sent a request for a while.
// Callers hold the guard's lock.
func (e *connEntry) evictable(now time.Time) bool {
	switch e.state {
	case http.StateIdle:
		return true
	case http.StateNew:
		return now.Sub(e.since) > headerGrace
	case http.StateActive:
		return e.waiting
	}
	return false
}

// ConnState tracks the connection's state (the http.Server hook).
func (g *ConnGuard) ConnState(c net.Conn, s http.ConnState) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch s {
	case http.StateClosed, http.StateHijacked:
		delete(g.conns, c)
		return
	}
	if e := g.conns[c]; e != nil {
		e.state, e.since, e.waiting = s, time.Now(), false
	}
}

// CloseUnused closes every connection that has not sent a request yet.
// http.Server.Shutdown counts such a connection as busy for 5 seconds,
// so a client that opened one and never used it would hold a shutdown
// up; a sandbox that is shutting down would refuse its request anyway.
func (g *ConnGuard) CloseUnused() {
	g.mu.Lock()
	var unused []net.Conn
	for c, e := range g.conns {
		if e.state == http.StateNew {
			unused = append(unused, c)
		}
	}
	g.mu.Unlock()
	for _, c := range unused {
		_ = c.Close()
	}
}

type connKey struct{}

// ConnContext lets a request find its connection's entry (the http.Server
// hook), so reading a body can mark the connection as waiting.
func (g *ConnGuard) ConnContext(ctx context.Context, c net.Conn) context.Context {
	g.mu.Lock()
	e := g.conns[c]
	g.mu.Unlock()
	if e == nil {
		return ctx
	}
	return context.WithValue(ctx, connKey{}, e)
}

// waitingForBody marks the request's connection as waiting for its body
// (evictable) or not.
func waitingForBody(ctx context.Context, on bool) {
	e, _ := ctx.Value(connKey{}).(*connEntry)
	if e == nil {
		return
	}
	e.g.mu.Lock()
	defer e.g.mu.Unlock()
	if e.state == http.StateActive {
		e.waiting, e.since = on, time.Now()
	}
}

// connsFor is the connection cap for an open-file limit: a quarter of it
// (at least 64 files, at most 1024) stays free for everything else.
func connsFor(files uint64) int {
	if files > 1<<20 {
		files = 1 << 20
	}
	reserve := min(max(files/4, 64), 1024)
	if files <= reserve+16 {
		return 16
	}
	return int(files - reserve)
}
