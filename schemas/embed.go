// Package schemas holds the JSON Schemas (draft 2020-12) of every request,
// response and snapshot line of the emulated management API, generated from
// the wire-format reference by cmd/schemagen and embedded into the binary so
// the sandbox validates traffic without reading anything from disk.
//
// Do not edit the JSON files by hand: change the reference or the patch
// table in cmd/schemagen/gen and run, from the repository root,
//
//	go run ./cmd/schemagen -reference ../shared/reference/api.json -out schemas
//
// The tests fail when the committed files differ from a fresh generation.
package schemas

import "embed"

// FS is the embedded schema tree. It exists so that the sandbox (and its
// tests) can compile and serve the schemas without depending on the working
// directory. Paths are slash-separated and relative to this folder, e.g.
// "index.json", "defs.json", "endpoints/CreateOrder.request.json",
// "oauth/token.request.json". To embed a further file (for example a
// hand-written scenario.schema.json) add it to the list below; Compile picks
// up every *.json file except index.json.
//
//go:embed index.json
//go:embed defs.json
//go:embed endpoints
//go:embed oauth
//go:embed jobs
//go:embed webhooks
//go:embed scenario.schema.json
//go:embed test-events.schema.json
var FS embed.FS
