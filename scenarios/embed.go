// Package scenarios holds the example scenario files: one per fault kind
// and per step kind, each documented, all run in CI against
// cmd/example-addon (cmd/sandbox/examples_test.go). They are embedded so
// `sandbox scenario examples` can list them and `sandbox scenario show`
// print one to start your own from.
package scenarios

import "embed"

// FS holds every example file (*.yaml) of this folder.
//
//go:embed *.yaml
var FS embed.FS
