package upstream

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CheckBase reads an upstream's base URL as a user writes it and refuses
// what would put the token at risk: another scheme than http or https,
// user information, a query or fragment, and plain http to anything but a
// loopback address (the token would cross the network in the clear)
// unless insecure is set. It returns the URL without a trailing slash.
func CheckBase(s string, insecure bool) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("no upstream URL: give the API's base address, e.g. https://api.example.com")
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("upstream URL %q: %v", s, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("upstream URL %q: the scheme must be https (or http on this machine)", s)
	case u.Host == "":
		return "", fmt.Errorf("upstream URL %q: no host", s)
	case u.User != nil:
		return "", fmt.Errorf("upstream URL %q: user information in the URL is not accepted; give the token with --token", s)
	case u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("upstream URL %q: give the base address only, without a query", s)
	case u.Scheme == "http" && !insecure && !Loopback(u.Hostname()):
		return "", fmt.Errorf("upstream URL %q: plain http would send the token in the clear; use https (or --insecure-http for a trusted network)", s)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}

// Loopback reports whether a host name or address is this machine.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
