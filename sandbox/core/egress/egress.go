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
	allowed    map[string]bool // loopback ip:port downloads may reach (see AllowDownloads)

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
		g.publicPort = portOf(u)
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
	port := portOf(u)
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
	return g.client(timeout, follow, false)
}

func (g *Guard) client(timeout time.Duration, follow, download bool) *http.Client {
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
			if ip := net.ParseIP(host); download && (ip == nil || g.loopbackRefused(ip, port)) {
				return ErrLoopback // before connecting: a closed port and an open one answer alike
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

// Downloads (sourceUrl, batch files) are stricter than webhooks and
// add-on calls: a download's content comes back to the caller (an image
// served, a batch's rows applied), so a download from another port of
// this machine would read local services for whoever can call the API,
// and a difference in the error text would tell an open port from a
// closed one. Loopback addresses are refused unless the developer names
// them (sandbox up --allow-download), before any connection is made,
// with one text whatever listens there.

// ErrLoopback is the error of a download from a loopback address that
// was not allowed.
var ErrLoopback = errors.New("it points at this machine (a loopback address); the sandbox downloads from this machine only from the addresses sandbox up --allow-download names")

// AllowDownloads sets the loopback addresses (host:port; a name such as
// localhost stands for each loopback address it resolves to) downloads
// may reach.
func (g *Guard) AllowDownloads(addrs []string) error {
	allowed := map[string]bool{}
	for _, a := range addrs {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		host, port, err := net.SplitHostPort(a)
		if p, perr := strconv.Atoi(port); err != nil || perr != nil || p <= 0 || p > 65535 {
			return fmt.Errorf("allowed download address %q: want host:port, such as 127.0.0.1:9000", a)
		}
		ips, err := resolve(context.Background(), host)
		if err != nil {
			return fmt.Errorf("allowed download address %q: %v", a, err)
		}
		for _, ip := range ips {
			if !ip.IsLoopback() {
				return fmt.Errorf("allowed download address %q: not a loopback address (other addresses need no allowance)", a)
			}
			allowed[net.JoinHostPort(ip.String(), port)] = true
		}
	}
	g.mu.Lock()
	g.allowed = allowed
	g.mu.Unlock()
	return nil
}

// loopbackRefused reports whether a download may not reach ip:port.
func (g *Guard) loopbackRefused(ip net.IP, port string) bool {
	if !ip.IsLoopback() && !ip.IsUnspecified() {
		return false
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	return !g.allowed[net.JoinHostPort(ip.String(), port)]
}

// CheckDownload is Check for a URL the sandbox downloads: it refuses
// the sandbox itself (ErrSelf) and loopback addresses that were not
// allowed (ErrLoopback).
func (g *Guard) CheckDownload(ctx context.Context, rawURL string) error {
	if err := g.Check(ctx, rawURL); err != nil {
		return err
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Host == "" || (g.Internal != nil && g.Internal(u)) {
		return nil
	}
	port := portOf(u)
	ips, err := resolve(ctx, u.Hostname())
	if err != nil {
		return nil
	}
	for _, ip := range ips {
		if g.loopbackRefused(ip, port) {
			return ErrLoopback
		}
	}
	return nil
}

// ErrRedirectScheme is the error of a download redirected to a URL that
// is not http or https.
var ErrRedirectScheme = errors.New("it redirects to a URL that is not http or https")

// DownloadClient is Client for downloads: every connection, redirects
// included, is refused when it would reach the sandbox itself or a
// loopback address that was not allowed, and a redirect is followed only
// to http and https.
func (g *Guard) DownloadClient(timeout time.Duration) *http.Client {
	c := g.client(timeout, true, true)
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return ErrRedirectScheme
		}
		return g.CheckDownload(req.Context(), req.URL.String())
	}
	return c
}

// portOf is the URL's port, or its scheme's default (443 for https, else
// 80).
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}
