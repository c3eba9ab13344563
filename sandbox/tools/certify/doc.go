// Package certify is `sandbox certify`: a contract suite that judges any
// add-on, whatever language it is written in, against the platform's
// rules. It starts a sandbox of its own (sandbox/app, on loopback),
// registers the add-on there from its install URL and OAuth settings,
// optionally starts it (Options.Command), and then plays the e-shop:
//
//  1. the install handshake, twice (sandbox/shop/addons judges each one);
//  2. webhooks it signs itself: a correct signature, a wrong one, none,
//     the same notification twice, and two out of order;
//  3. rounds in which the add-on calls the API while runtime faults
//     (sandbox/app/scenario) answer its next call with 429 and Retry-After,
//     423, a 503 maintenance window, a 400 and a 422, a burst of
//     slow calls, and an expired token; Options.Triggers emit the events
//     that make it call;
//  4. the system events addon:suspend, addon:approve and addon:uninstall.
//
// The contract report (scenario.Report) judges the calls; this package
// decides which calls exercised which rule, so that a rule the add-on
// never met reads "not exercised" rather than "passed", and keeps the
// calls and deliveries that decided each verdict as its evidence. The
// result is a Report: a report card as text, JUnit XML and a
// self-contained HTML page.
package certify
