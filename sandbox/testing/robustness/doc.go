// Package robustness holds the sandbox's bad-input battery: hundreds of
// malformed requests across every endpoint group, each of which must be
// refused with a 4xx error envelope that says what is wrong, never a 5xx,
// leaving the sandbox healthy. It has tests only.
package robustness
