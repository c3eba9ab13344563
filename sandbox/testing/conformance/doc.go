// Package conformance holds the table-driven test that walks every
// endpoint of the reference (all 328) against a sandbox on fresh
// fixtures: a valid request, the documented success status, the answer
// checked against the endpoint's response schema, every property that
// schema declares present in the answer (recursively into objects and
// array items, null allowed; a snapshot's result lines against its
// snapshotResultItem; the eleven bodyless endpoints listed with their
// reason in presence_test.go), and a follow-up GET that must show the
// write. It prints "N/328 endpoints conform" and the
// endpoints that do not, with the reason. A second test sends, per
// endpoint group, a malformed body and an unknown id and expects the 422
// and 404 envelopes.
//
// Endpoints other packages serve are in the table too, so they are
// covered as soon as they land; the thresholds minConforming and
// pendingGroups are a ratchet the project raises to 328 and empties.
//
// TestWriteConformance is the write side: each of the reference's 179
// write endpoints gets a body generated from its request schema (values
// made from the schema, records named from list answers and from what
// the group's earlier entries created), and must answer its documented
// status with every declared property, show the change in a read-back,
// emit its events and list it in its change log (write_*_test.go). It
// names, per endpoint, what it sent and what it checked, and fails
// unless all 179 conform.
package conformance
