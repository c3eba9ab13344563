package api

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Hosts is the set of Host names the sandbox answers to. A web page can
// make a browser send requests to the sandbox, and with a DNS name that
// resolves to 127.0.0.1 (DNS rebinding) it could also read the answers,
// tokens included; refusing every Host but the sandbox's own closes that.
// Loopback names (127.0.0.1 and the rest of 127/8, [::1], localhost) are
// always allowed; so are the host of --addr and the host of --public-url.
// When --addr is an unspecified address (0.0.0.0, [::]), the IP addresses
// of this machine's interfaces are allowed too: an IP literal cannot be
// rebound.
type Hosts struct {
	names   map[string]bool // lower-case, without port or trailing dot
	anyIPOf map[string]bool // this machine's interface addresses (unspecified --addr)
}

// NewHosts builds the set from the listen address and the public URL (both
// may be empty).
func NewHosts(addr, publicURL string) (*Hosts, error) {
	h := &Hosts{names: map[string]bool{}}
	if addr != "" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, fmt.Errorf("--addr %q: %v", addr, err)
		}
		if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
			h.anyIPOf = map[string]bool{}
			if addrs, err := net.InterfaceAddrs(); err == nil {
				for _, a := range addrs {
					if n, ok := a.(*net.IPNet); ok {
						h.anyIPOf[n.IP.String()] = true
					}
				}
			}
		} else {
			h.names[normalHost(host)] = true
		}
	}
	if publicURL != "" {
		u, err := url.Parse(publicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
			return nil, fmt.Errorf("--public-url %q: give an absolute http(s) URL such as http://sandbox:8080", publicURL)
		}
		h.names[normalHost(u.Hostname())] = true
	}
	return h, nil
}

// normalHost lower-cases a host name and drops brackets and a trailing dot.
func normalHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if ip := net.ParseIP(h); ip != nil {
		return ip.String()
	}
	return h
}

// hostOnly strips the port from a Host header value.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// Allows reports whether the sandbox answers to a Host header value.
func (h *Hosts) Allows(hostport string) bool {
	switch hostport {
	case "": // HTTP/1.0 without Host: no browser sends that
		return true
	case "127.0.0.1", "localhost", "[::1]":
		return true
	}
	if i := strings.LastIndexByte(hostport, ':'); i > 0 && hostport[len(hostport)-1] != ']' {
		switch hostport[:i] { // the usual forms, without allocating
		case "127.0.0.1", "localhost", "[::1]":
			return true
		}
	}
	host := normalHost(hostOnly(hostport))
	if host == "localhost" || h.names[host] {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	return ip.IsLoopback() || h.anyIPOf[ip.String()]
}

// Names lists the allowed names besides the loopback ones, for messages.
func (h *Hosts) Names() []string {
	var out []string
	for n := range h.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// checkHost answers 421 to a Host name the sandbox does not answer to.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.hosts.Allows(r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		allowed := "loopback names (127.0.0.1, [::1], localhost)"
		if names := s.hosts.Names(); len(names) > 0 {
			allowed += " and " + strings.Join(names, ", ")
		}
		w.Header().Set("Connection", "close")
		s.writeError(w, r, sandbox.Errorf(sandbox.KindMisdirected, sandbox.CodeMisdirected, "Host",
			"This sandbox does not answer to the host name %q: it answers to %s. To reach it under another name (a container, a proxy), start it with --public-url set to the URL clients use.",
			truncate(hostOnly(r.Host), 80), allowed))
	})
}

// guardControl refuses a state-changing control-plane request that a web
// page could have sent: one from a foreign Origin or marked cross-site by
// the browser, and one with a body that is not JSON (a form or text/plain
// post needs no CORS preflight). The control plane never grants CORS, so
// a foreign page cannot read it either.
func (s *Server) guardControl(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := CallOf(r)
		if c == nil || c.Area != AreaControl || !changesState(r.Method) {
			next.ServeHTTP(w, r)
			return
		}
		if err := s.crossSite(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// crossSite explains why a state-changing control request is refused (nil
// when it is accepted).
func (s *Server) crossSite(r *http.Request) error {
	if site := r.Header.Get("Sec-Fetch-Site"); strings.EqualFold(site, "cross-site") {
		return sandbox.Errorf(sandbox.KindForbidden, sandbox.CodeCrossSite, "Sec-Fetch-Site",
			"The control plane does not accept state changes from another site (Sec-Fetch-Site: cross-site). Drive it from the command line, a test or the terminal UI.")
	}
	if origins := r.Header.Values("Origin"); len(origins) > 0 {
		for _, o := range origins {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, r.Host) {
				return sandbox.Errorf(sandbox.KindForbidden, sandbox.CodeCrossSite, "Origin",
					"The control plane does not accept state changes from the web page at %q; only its own origin (http://%s) may send them.", truncate(o, 80), r.Host)
			}
		}
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		if r.ContentLength != 0 {
			return sandbox.Errorf(sandbox.KindUnsupportedMedia, sandbox.CodeInvalidContentType, "Content-Type",
				"A control-plane request with a body must send Content-Type: application/json.")
		}
		return nil
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil && strings.EqualFold(mt, "application/json") {
		return nil
	}
	return sandbox.Errorf(sandbox.KindUnsupportedMedia, sandbox.CodeInvalidContentType, "Content-Type",
		"The control plane accepts state changes only as JSON (Content-Type: application/json) or without a body, not %q, so that no web page can send them; with curl add -H 'Content-Type: application/json'.", truncate(ct, 60))
}
