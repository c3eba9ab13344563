package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestBannerTryLine: the banner's "try:" line is a command to copy as it
// is (no placeholder to fill): sent as written, it answers 200.
func TestBannerTryLine(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	var out strings.Builder
	printBanner(&out, s.App)
	try := regexp.MustCompile(`(?m)^try: curl((?: -H '[^']*')+) (\S+)$`).FindStringSubmatch(out.String())
	if try == nil {
		t.Fatalf("no try line in the banner:\n%s", out.String())
	}
	if strings.ContainsAny(try[0], "<>") {
		t.Fatalf("the try line has a placeholder: %s", try[0])
	}
	req, err := http.NewRequest(http.MethodGet, try[2], nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range regexp.MustCompile(`-H '([^:]+): ([^']*)'`).FindAllStringSubmatch(try[1], -1) {
		req.Header.Set(h[1], h[2])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s answered %d", try[0], resp.StatusCode)
	}
}
