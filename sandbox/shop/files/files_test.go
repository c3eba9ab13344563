package files

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Tiny but real file headers, as written by image tools.
var (
	pngBytes  = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	jpgBytes  = []byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F'}
	gifBytes  = []byte("GIF89a\x01\x00\x01\x00")
	webpBytes = []byte("RIFF\x24\x00\x00\x00WEBPVP8 ")
)

// TestSniff accepts the four image kinds by content only.
func TestSniff(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		kind string
	}{
		{"png", pngBytes, PNG},
		{"jpg", jpgBytes, JPG},
		{"gif87", []byte("GIF87a...."), GIF},
		{"gif89", gifBytes, GIF},
		{"webp", webpBytes, WEBP},
		{"riff but wave", []byte("RIFF\x24\x00\x00\x00WAVEfmt "), ""},
		{"html", []byte("<!DOCTYPE html><html>"), ""},
		{"pdf", []byte("%PDF-1.7"), ""},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), ""},
		{"bmp", []byte("BM\x00\x00"), ""},
		{"empty", nil, ""},
		{"short jpg", []byte{0xFF, 0xD8}, ""},
	} {
		kind, ok := Sniff(c.in)
		if kind != c.kind || ok != (c.kind != "") {
			t.Errorf("%s: got %q %v, want %q", c.name, kind, ok, c.kind)
		}
	}
}

// TestFetch reads http and data: URLs and refuses the rest.
func TestFetch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(pngBytes)
	}))
	defer srv.Close()
	f := &Fetcher{Client: srv.Client()}
	ctx := context.Background()
	for _, c := range []struct {
		url     string
		want    string
		errPart string
	}{
		{srv.URL + "/a.png", string(pngBytes), ""},
		{"data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes), string(pngBytes), ""},
		{"data:text/plain,hello%20world", "hello world", ""},
		{srv.URL + "/missing", "", "HTTP 404"},
		{"ftp://example.test/x", "", "not an absolute http"},
		{"/relative.png", "", "not an absolute http"},
		{"data:image/png;base64,!!!", "", "not valid base64"},
		{"data:nocomma", "", "without a comma"},
	} {
		got, err := f.Fetch(ctx, c.url)
		if c.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), c.errPart) {
				t.Errorf("%s: err %v, want %q", c.url, err, c.errPart)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %q, %v", c.url, got, err)
		}
	}
}

// TestNameFromURL derives a TypeFilename-safe name.
func TestNameFromURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://cdn.test/img/tent green.jpg?x=1": "tent-green.jpg",
		"https://cdn.test/img/photo":              "photo.png",
		"https://cdn.test/":                       "upload.png",
		"data:image/png;base64,AAAA":              "upload.png",
	} {
		if got := nameFromURL(in, PNG); got != want {
			t.Errorf("%s: got %q want %q", in, got, want)
		}
	}
}
