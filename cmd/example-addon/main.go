// Command example-addon is a small but real add-on for the e-shop
// management API: it performs the install handshake, keeps its OAuth
// token, refreshes API tokens on expired-token, verifies signed webhooks,
// backs off on 423 and 429, and serves as a test payment gateway (the
// payment result and the order status, both). Run it next to the sandbox:
//
//	go run ./cmd/sandbox up                          # terminal 1
//	go run ./cmd/example-addon --install 1001        # terminal 2
//
// The same add-on ships inside the sandbox binary as `sandbox
// example-addon`. The code lives in package addon, which documents each
// rule; this file only hands it the sandbox's discovery (--sandbox, else
// SANDBOX_URL, else the sandbox `sandbox up` recorded).
package main

import (
	"os"

	"github.com/eshop-sandbox/sandbox/sandbox/app/discover"
	"github.com/eshop-sandbox/sandbox/sandbox/exampleaddon"
)

func main() {
	os.Exit(exampleaddon.Main(discover.Locate))
}
