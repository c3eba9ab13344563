// Package readme holds the test that runs every shell block of the
// repository's README.md, in order, against a sandbox built from the
// tree, so the README cannot rot (see readme_test.go for the rules a
// block follows). It has no code of its own.
package readme
