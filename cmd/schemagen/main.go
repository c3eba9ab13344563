// Command schemagen generates the JSON Schema files of package schemas from
// the wire-format reference (api.json).
//
// Run it from the repository root:
//
//	go run ./cmd/schemagen -reference ../shared/reference/api.json -out schemas
//
// The output is deterministic (sorted keys, two-space indentation, trailing
// newline), so re-running it on an unchanged reference produces identical
// bytes; the schemas package tests check that the committed files are up to
// date. The generator corrects known defects of the reference (printed as
// "note:" lines), applies the constraint patches listed in gen/patches.go
// (printed as a summary) and exits with status 1 when a correction or patch
// no longer matches the reference.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/eshop-sandbox/sandbox/cmd/schemagen/gen"
)

func main() {
	reference := flag.String("reference", "../shared/reference/api.json", "path of the wire-format reference api.json")
	out := flag.String("out", "schemas", "output directory (the schemas package folder)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "schemagen: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	if err := gen.Run(gen.Options{Reference: *reference, Out: *out, Log: os.Stdout}); err != nil {
		fmt.Fprintf(os.Stderr, "schemagen: %v\n", err)
		os.Exit(1)
	}
}
