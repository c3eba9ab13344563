// Command sandbox runs the e-shop management API sandbox. This package is
// only the cobra command tree: flags bind into sandbox.Config and the work
// is done by sandbox/app.
package main

import (
	"errors"
	"fmt"
	"os"
)

func main() {
	os.Exit(Main())
}

// Main runs the command line and returns the exit code; testscript calls
// it in-process.
func Main() int {
	if err := newRoot().Execute(); err != nil {
		var s exitStatus
		if errors.As(err, &s) {
			return s.code // shown already (sandbox diff's report)
		}
		var r reported
		if !errors.As(err, &r) {
			fmt.Fprintln(os.Stderr, "error:", err)
		}
		return 1
	}
	return 0
}

// reported is an error already shown to the user.
type reported struct{ error }
