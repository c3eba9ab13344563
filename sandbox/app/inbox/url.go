package inbox

import (
	"net"
	"net/url"
	"regexp"
	"strings"
)

// PathPrefix is where the inboxes live: PathPrefix + "<name>".
const PathPrefix = "/_sandbox/inbox/"

// namePattern is what an inbox name may be: short, URL-safe, no slash.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// ValidName reports whether name can name an inbox.
func ValidName(name string) bool { return namePattern.MatchString(name) && name != "." && name != ".." }

// Is reports whether rawURL is an inbox of the sandbox reached at baseURL
// (its listener's or its public URL): http(s), the path
// /_sandbox/inbox/<name>, and the base's host and port, or a loopback
// host (localhost, 127.0.0.0/8, ::1, or the unspecified 0.0.0.0 and ::)
// with the base's port when the base itself is loopback. The sandbox
// delivers to such a URL in-process, so it is the one URL pointing at the
// sandbox that a webhook may name.
func Is(baseURL, rawURL string) bool {
	_, ok := nameOf(baseURL, rawURL)
	return ok
}

// nameOf returns the inbox name of rawURL when Is holds.
func nameOf(baseURL, rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Opaque != "" {
		return "", false
	}
	base, err := url.Parse(baseURL)
	if err != nil || base.Host == "" {
		return "", false
	}
	name, ok := strings.CutPrefix(u.EscapedPath(), PathPrefix)
	if !ok || !ValidName(name) {
		return "", false
	}
	uh, up := hostPort(u)
	bh, bp := hostPort(base)
	if up != bp {
		return "", false
	}
	if uh == bh || (loopback(uh) && loopback(bh)) {
		return name, true
	}
	return "", false
}

// hostPort is a URL's lower-case host name and its port, the scheme's
// default when none is written.
func hostPort(u *url.URL) (string, string) {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(strings.TrimSuffix(u.Hostname(), ".")), port
}

// loopback reports whether a host name reaches this machine: localhost
// (and its subdomains), a loopback address, or the unspecified address
// (which a connection on Linux turns into a loopback one).
func loopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}
