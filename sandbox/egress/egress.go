// Package egress guards the requests the sandbox sends on a caller's
// behalf: webhook deliveries, system events and install calls to add-ons,
// downloads of sourceUrl and batch files. None of them may reach the
// sandbox itself. A webhook registered at http://localhost:<port>/_sandbox/reset
// would otherwise let one e-shop reset every e-shop, and a download that
// follows a redirect into /_sandbox/ would read the control plane.
//
// Add-ons and receivers on other loopback ports stay allowed: that is how
// add-ons run next to a sandbox on a laptop.
package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrSelf is the error of a URL or connection that points at the sandbox's
// own listener.
var ErrSelf = errors.New("it points at the sandbox itself; the sandbox never sends requests to its own address (use your receiver's or add-on's own address, on another port)")

// Guard knows the sandbox's own addresses. The zero value guards nothing
// until Bind is called; it is safe for concurrent use.
type Guard struct {
	mu         sync.RWMutex
	port       int    // the listener's port (0: not bound yet)
	anyLocal   bool   // the listener is on an unspecified address (0.0.0.0, [::])
	listenIP   net.IP // the listener's IP otherwise
	publicHost string // lower-case host of --public-url ("" for none)
	publicPort string

	// Internal, when set, names URLs the sandbox serves in-process without
	// a request (the webhook inbox); Check lets them through.
	Internal func(u *url.URL) bool
}

// Bind records the listener's address and the public URL.
func (g *Guard) Bind(listen net.Addr, publicURL string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ta, ok := listen.(*net.TCPAddr); ok {
		g.port = ta.Port
		g.anyLocal = ta.IP == nil || ta.IP.IsUnspecified()
		g.listenIP = ta.IP
	}
	g.publicHost, g.publicPort = "", ""
	if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
		g.publicHost = strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
		g.publicPort = u.Port()
		if g.publicPort == "" {
			g.publicPort = map[string]string{"https": "443"}[u.Scheme]
			if g.publicPort == "" {
				g.publicPort = "80"
			}
		}
	}
}

// isSelfIP reports whether a connection to ip:port would reach the
// sandbox's own listener: any loopback or unspecified address with its
// port, its own IP, and, when it listens on every interface, any address
// of this machine.
func (g *Guard) isSelfIP(ip net.IP, port int) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.port == 0 || port != g.port {
		return false
	}
	if ip.IsLoopback() || ip.IsUnspecified() || (g.listenIP != nil && ip.Equal(g.listenIP)) {
		return true
	}
	if !g.anyLocal {
		return false
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return true // cannot tell: refuse rather than risk it
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// isPublic reports whether host:port is the public URL's.
func (g *Guard) isPublic(host, port string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.publicHost != "" && strings.EqualFold(strings.TrimSuffix(host, "."), g.publicHost) && port == g.publicPort
}

// Check reports whether the sandbox may send a request to rawURL: nil, or
// an error wrapping ErrSelf when the URL (its host resolved) points at the
// sandbox's own listener or public URL. Other problems with the URL are
// left to the caller's own checks.
func (g *Guard) Check(ctx context.Context, rawURL string) error {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Host == "" {
		return nil
	}
	if g.Internal != nil && g.Internal(u) {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	if g.isPublic(u.Hostname(), port) {
		return fmt.Errorf("%s: %w", u.Host, ErrSelf)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil
	}
	ips, err := resolve(ctx, u.Hostname())
	if err != nil {
		return nil // an unresolvable host reaches nothing, the sandbox least
	}
	for _, ip := range ips {
		if g.isSelfIP(ip, p) {
			return fmt.Errorf("%s: %w", u.Host, ErrSelf)
		}
	}
	return nil
}

func resolve(ctx context.Context, host string) ([]net.IP, error) {
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return []net.IP{ip}, nil
	}
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, err
	}
	out := make([]net.IP, len(addrs))
	for i, a := range addrs {
		out[i] = a.IP
	}
	return out, nil
}

// Client returns an HTTP client whose every connection, redirects
// included, is refused when it would reach the sandbox itself (checked
// after name resolution, so a name resolving to the sandbox is caught
// too). follow says whether redirects are followed at all; timeout bounds
// each request.
func (g *Guard) Client(timeout time.Duration, follow bool) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			host, port, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			p, _ := strconv.Atoi(port)
			if ip := net.ParseIP(host); ip != nil && g.isSelfIP(ip, p) {
				return fmt.Errorf("%s: %w", address, ErrSelf)
			}
			return nil
		}}
	tr := &http.Transport{
		Proxy: nil, // a proxy would hide where a request goes
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			if host, port, err := net.SplitHostPort(address); err == nil && g.isPublic(host, port) {
				return nil, fmt.Errorf("%s: %w", address, ErrSelf)
			}
			return dialer.DialContext(ctx, network, address)
		},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: timeout,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   4,
	}
	c := &http.Client{Timeout: timeout, Transport: tr}
	if follow {
		c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return g.Check(req.Context(), req.URL.String())
		}
	} else {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c
}
