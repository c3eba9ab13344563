package scenario

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// aliasBomb asks the YAML library whether the file's aliases expand out
// of proportion: decoding into a generic value, the library counts the
// values aliases produce against the file's own and refuses "excessive
// aliasing" (its guard against billion-laughs files) after a few
// thousand. The problem points at the first alias.
func aliasBomb(file string, data []byte, root *yaml.Node) (Problem, bool) {
	var v any
	err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&v)
	if err == nil || !strings.Contains(err.Error(), "excessive aliasing") {
		return Problem{}, false
	}
	p := expansionProblem(file, root)
	p.Message = "the YAML aliases (*name) expand the file far beyond its own size (a \"billion laughs\" file); write the repeated parts out, or use fewer nested aliases"
	return p, true
}

// expansionProblem is the refusal of a file whose aliases expand too far,
// at its first alias.
func expansionProblem(file string, root *yaml.Node) Problem {
	p := Problem{File: file, Line: 1, Column: 1,
		Message: fmt.Sprintf("the YAML aliases (*name) expand the file into more than %d values; write the repeated parts out, or use fewer nested aliases", MaxValues)}
	if a := firstAlias(root); a != nil {
		p.Line, p.Column = a.Line, a.Column
	}
	return p
}

// firstAlias finds the first alias node in document order, without
// following any.
func firstAlias(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		return n
	}
	for _, c := range n.Content {
		if a := firstAlias(c); a != nil {
			return a
		}
	}
	return nil
}
