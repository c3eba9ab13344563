package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFaultBody bounds one fault sent to a running sandbox.
const MaxFaultBody = 64 << 10

// ParseFault reads one fault in the scenario file's fault syntax (JSON,
// or YAML, which JSON is a part of), for POST /_sandbox/faults: the same
// schema, rules and catalogue names as a fault in a file, with messages
// positioned in the body and labelled from the fault down
// (respond.status). A fault without a name is named after the id it gets
// (Engine.AddFault).
func ParseFault(data []byte) (*Fault, error) {
	const file = "fault"
	if len(data) > MaxFaultBody {
		return nil, Problems{{File: file, Message: fmt.Sprintf("a fault is at most %d KiB", MaxFaultBody>>10)}}
	}
	var root yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, Problems{{File: file, Line: 1, Column: 1, Message: `send one fault, e.g. {"match": {"operation": "GetOrderDetail", "nth": 1}, "respond": {"status": 429, "retryAfter": "1s"}}`}}
		}
		return nil, Problems{syntaxProblem(file, data, err)}
	}
	if p, bombed := aliasBomb(file, data, &root); bombed {
		return nil, Problems{p}
	}
	node := root.Content[0]
	if node.Kind != yaml.MappingNode {
		return nil, Problems{{File: file, Line: node.Line, Column: node.Column, Message: "a fault is an object with match and one action (respond, latency, close, expireToken, holdLock, job, fillBucket, maintenance or webhook)"}}
	}
	unnamed := !hasKey(node, "name")
	if unnamed {
		node.Content = append([]*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "name"},
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: unnamedFault},
		}, node.Content...)
	}
	// The fault is checked as the only fault of a scenario, so every rule
	// of a file applies; the labels then drop "faults[0].".
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "name"}, {Kind: yaml.ScalarNode, Tag: "!!str", Value: "runtime fault"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "faults"}, {Kind: yaml.SequenceNode, Content: []*yaml.Node{node}},
	}}
	loc := &locator{budget: MaxValues}
	value := loc.toValue(doc, "")
	if loc.budget < 0 {
		return nil, Problems{expansionProblem(file, &root)}
	}
	if loc.deep != nil {
		return nil, Problems{{File: file, Line: loc.deep.Line, Column: loc.deep.Column,
			Message: fmt.Sprintf("values nest deeper than %d levels here; a fault needs far fewer", MaxDepth)}}
	}
	if ps := validateSchema(file, value, loc); len(ps) > 0 {
		return nil, relabel(ps).sorted()
	}
	var f Fault
	if err := node.Decode(&f); err != nil {
		return nil, relabel(decodeProblems(file, err, loc)).sorted()
	}
	sc := Scenario{Name: "runtime fault", Faults: []Fault{f}}
	if ps := sc.check(loc); len(ps) > 0 {
		for i := range ps {
			ps[i].File = file
		}
		return nil, relabel(ps).sorted()
	}
	out := sc.Faults[0]
	out.def = value.(map[string]any)["faults"].([]any)[0]
	out.autoName = unnamed
	return &out, nil
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// unnamedFault stands in for the name of a fault sent without one while
// it is checked; messages call it "the fault".
const unnamedFault = "unnamed-fault"

// relabel drops the "faults[0]" the wrapping scenario puts in front of
// every label, and the stand-in name.
func relabel(ps Problems) Problems {
	for i := range ps {
		m := ps[i].Message
		m = strings.TrimPrefix(m, "faults[0].")
		m = strings.TrimPrefix(m, "faults[0]: ")
		m = strings.ReplaceAll(m, `fault "`+unnamedFault+`"`, "the fault")
		ps[i].Message = m
	}
	return ps
}
