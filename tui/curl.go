package tui

import (
	"net/http"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// curlSkip are headers curl sets itself or that would be wrong to repeat.
var curlSkip = map[string]bool{"Host": true, "User-Agent": true, "Accept-Encoding": true, "Content-Length": true, "Connection": true}

// curlCommand rebuilds a recorded call as a curl command line that sends
// the same request again (a body cut by the tap is sent as kept).
func curlCommand(c *bus.Call, baseURL string) string {
	base := strings.TrimRight(baseURL, "/")
	if base == "" {
		if host := c.ReqHeader.Get("Host"); host != "" {
			base = "http://" + host
		}
	}
	parts := []string{"curl"}
	if c.Method != http.MethodGet || len(c.ReqBody) > 0 {
		parts = append(parts, "-X", c.Method)
	}
	parts = append(parts, shellQuote(base+c.Path))
	names := make([]string, 0, len(c.ReqHeader))
	for k := range c.ReqHeader {
		if !curlSkip[http.CanonicalHeaderKey(k)] {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range c.ReqHeader[k] {
			parts = append(parts, "-H", shellQuote(k+": "+v))
		}
	}
	if len(c.ReqBody) > 0 {
		parts = append(parts, "--data-raw", shellQuote(string(c.ReqBody)))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
