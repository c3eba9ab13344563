package files

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// MaxDownload caps what the sandbox downloads from a sourceUrl or a batch
// file URL.
const MaxDownload = 32 << 20

// Fetcher downloads the files that requests point at by URL (sourceUrl,
// batchFileUrlPath). It understands http and https, and data: URLs so a
// test or a script can send content without running a server.
type Fetcher struct {
	Client *http.Client
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
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download %s: %v", rawURL, err)
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
