// Package scenario turns the sandbox into a contract-test tool. A scenario
// file (YAML, validated against schemas/scenario.schema.json) scripts the
// platform's worst days: faults that match calls (by method, path,
// operation, e-shop, token, header, the nth call, a seeded probability)
// and act on them (an error envelope, latency, a closed connection, an
// expiring token, a held write lock, a failing or stalled job, a full rate
// bucket, a maintenance window, broken webhook deliveries), plus steps
// that drive the add-on under test and expectations on what it does.
//
// This package holds the pure parts and the serving side: the model, the
// loader with file:line:column errors, the fault matcher, the fault
// middleware (the Engine) and the contract report. The runner that starts
// a fresh sandbox per scenario and executes the steps lives in
// sandbox/tools/runner: it drives whole sandboxes through
// sandbox/app, which in turn wires this package in as a module.
package scenario
