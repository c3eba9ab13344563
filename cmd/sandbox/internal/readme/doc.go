// Package readme holds the test that runs every shell block of the
// repository's README.md and then of its pages in docs/, in order,
// against a sandbox built from the tree, so neither can rot (see
// readme_test.go for the rules a block follows), and the tests that hold
// the README and docs/ to their shape: the README's length and contents,
// and every relative link. It has no code of its own.
package readme
