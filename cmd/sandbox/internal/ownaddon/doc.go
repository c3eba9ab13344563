// Package ownaddon holds the test of the path a developer takes with an
// add-on of their own: a small add-on that is not Go (testdata/addon.py,
// Python's standard library only) is registered with `sandbox addon add`,
// installed with `sandbox install`, faulted while it runs with `sandbox
// fault add`, and judged by a strict scenario run twenty times with
// `sandbox test --count 20` (testdata/own-addon.yaml). Only the built
// sandbox program and python3 are used, as a developer would use them.
// It has no code of its own.
package ownaddon
