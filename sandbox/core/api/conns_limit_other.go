//go:build !unix

package api

// ConnLimit is how many connections the sandbox keeps open at most.
func ConnLimit() int { return connsFor(8192) }
