package scenario

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one mistake in a scenario file, with its position, so an
// editor or a person can jump straight to it.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// String renders file:line:column: message (the form editors and CI logs
// recognise).
func (p Problem) String() string {
	file := p.File
	if file == "" {
		file = "scenario"
	}
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", file, p.Line, p.Column, p.Message)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d: %s", file, p.Line, p.Message)
	}
	return file + ": " + p.Message
}

// Problems is every mistake found in one file; as an error it prints one
// per line in file order.
type Problems []Problem

// Error implements error.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// sorted orders problems by position and drops exact duplicates (the YAML
// decoder and the schema sometimes see the same mistake).
func (ps Problems) sorted() Problems {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Column < ps[j].Column
	})
	out := ps[:0]
	seen := map[string]bool{}
	for _, p := range ps {
		k := fmt.Sprintf("%d:%d:%s", p.Line, p.Column, p.Message)
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}
