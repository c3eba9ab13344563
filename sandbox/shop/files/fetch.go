package files

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/egress"
)

// MaxDownload caps what the sandbox downloads from a sourceUrl or a batch
// file URL.
const MaxDownload = 32 << 20

// Fetcher downloads the files that requests point at by URL (sourceUrl,
// batchFileUrlPath). It understands http and https, and data: URLs so a
// test or a script can send content without running a server.
type Fetcher struct {
	Client *http.Client
	// Egress refuses URLs at the sandbox's own address; Client should be
	// its guarded client, which refuses redirects there too.
	Egress *egress.Guard
}

// NewFetcher builds a fetcher whose requests never reach the sandbox
// itself, nor a loopback address that was not allowed, redirects
// included (see egress.Guard.DownloadClient).
func NewFetcher(g *egress.Guard, timeout time.Duration) *Fetcher {
	return &Fetcher{Client: g.DownloadClient(timeout), Egress: g}
}

// Fetch returns the content at rawURL, at most MaxDownload bytes.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) ([]byte, error) {
	rawURL = strings.TrimSpace(rawURL)
	if strings.HasPrefix(rawURL, "data:") {
		return decodeDataURL(rawURL)
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an absolute http, https or data: URL", rawURL)
	}
	if f.Egress != nil {
		if err := f.Egress.CheckDownload(ctx, rawURL); err != nil {
			return nil, fmt.Errorf("%q cannot be downloaded: %v", rawURL, err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	// The texts name the URL asked for and never where a redirect led,
	// nor how a connection failed: a caller must not learn from them what
	// listens on an address.
	switch {
	case errors.Is(err, egress.ErrSelf):
		return nil, fmt.Errorf("download %s: it leads to the sandbox itself (a redirect or a name resolving to it); the sandbox never sends requests to its own address", rawURL)
	case errors.Is(err, egress.ErrLoopback):
		return nil, fmt.Errorf("download %s: %v", rawURL, egress.ErrLoopback)
	case errors.Is(err, egress.ErrRedirectScheme):
		return nil, fmt.Errorf("download %s: %v", rawURL, egress.ErrRedirectScheme)
	case err != nil:
		return nil, fmt.Errorf("download %s: no answer with the file (the address could not be reached, or did not answer in time)", rawURL)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("download %s: the server answered HTTP %d", rawURL, resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxDownload+1))
	if err != nil {
		return nil, fmt.Errorf("download %s: %v", rawURL, err)
	}
	if len(b) > MaxDownload {
		return nil, fmt.Errorf("download %s: larger than %d MiB", rawURL, MaxDownload>>20)
	}
	return b, nil
}

// decodeDataURL reads data:[<media type>][;base64],<data>.
func decodeDataURL(s string) ([]byte, error) {
	meta, data, ok := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	if !ok {
		return nil, fmt.Errorf("data: URL without a comma")
	}
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			if b, err = base64.URLEncoding.DecodeString(data); err != nil {
				return nil, fmt.Errorf("data: URL is not valid base64")
			}
		}
		return b, nil
	}
	b, err := url.PathUnescape(data)
	if err != nil {
		return nil, fmt.Errorf("data: URL is not valid percent-encoding")
	}
	return []byte(b), nil
}
