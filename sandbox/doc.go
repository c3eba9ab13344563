// Package sandbox holds the vocabulary shared by every part of the sandbox:
// configuration, the one error type and its codes, events, the injectable
// clock, identifier generation, money formatting and the URL-friendly
// codes made from names (Slug). It deliberately
// imports nothing heavy so that every other package can depend on it.
package sandbox
