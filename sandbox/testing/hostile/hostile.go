// Package hostile builds the inputs every parser of the sandbox must
// refuse or read quickly, in bounded memory: a YAML alias bomb ("billion
// laughs"), nesting deeper than any parser allows, invalid UTF-8 and a
// very long line. The fuzz targets of the parsers (scenario files,
// fixture files, request bodies) seed their corpus with them, and the
// bounds tests feed them in directly; one definition keeps them alike.
package hostile

import (
	"fmt"
	"strings"
)

// Input is one hostile input.
type Input struct {
	Name string
	Data []byte
}

// AliasBomb is a "billion laughs" YAML document: levels of anchors, each
// a list of nine aliases of the one before (9 levels stand for 9^9
// strings in a few hundred bytes). key names the field holding the last
// level.
func AliasBomb(levels int, key string) []byte {
	var b strings.Builder
	b.WriteString("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	fmt.Fprintf(&b, "%s: *a%d\n", key, levels)
	return []byte(b.String())
}

// Nested is depth levels of JSON (and YAML flow) arrays.
func Nested(depth int) []byte {
	return []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
}

// NestedObject is depth levels of JSON objects {"a":{"a":...}}.
func NestedObject(depth int) []byte {
	return []byte(strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth))
}

// LongLine is a JSON array of one string of n bytes on one line.
func LongLine(n int) []byte {
	return []byte(`["` + strings.Repeat("x", n) + `"]`)
}

// Inputs are the four hostile inputs, in the JSON and YAML flavours that
// fit both kinds of parser: the alias bomb, nesting past the 10,000
// levels encoding/json and the YAML parser allow, invalid UTF-8 inside
// a string, and a line of 1 MiB.
func Inputs() []Input {
	return []Input{
		{"alias bomb", AliasBomb(9, "steps")},
		{"deep nesting", Nested(20000)},
		{"deep object nesting", NestedObject(20000)},
		{"invalid UTF-8", []byte("{\"name\":\"\xff\xfe\xfd\"}")},
		{"very long line", LongLine(1 << 20)},
	}
}
