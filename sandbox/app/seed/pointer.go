package seed

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// offsetOf returns the byte offset in raw of the value at a JSON pointer
// (e.g. /variants/0/code), or -1. It lets a schema failure inside a
// fixture record be reported at the line of the failing field.
func offsetOf(raw []byte, pointer string) int {
	var target []string
	if pointer != "" && pointer != "/" {
		for _, p := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
			target = append(target, strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~"))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	type frame struct {
		array bool
		index int
		key   string
		inKey bool // next string token in this object is a key
	}
	var stack []frame
	path := func() []string {
		out := make([]string, len(stack))
		for i, f := range stack {
			if f.array {
				out[i] = strconv.Itoa(f.index)
			} else {
				out[i] = f.key
			}
		}
		return out
	}
	equal := func(a, b []string) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	if len(target) == 0 {
		return 0
	}
	for {
		off := int(dec.InputOffset())
		// Are we about to read a value (not a key, not a closing delimiter)?
		atValue := len(stack) > 0 && !(stack[len(stack)-1].inKey && !stack[len(stack)-1].array)
		tok, err := dec.Token()
		if err != nil {
			return -1
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				if top.array {
					top.index++
				} else {
					top.inKey = true
				}
			}
			continue
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if !top.array && top.inKey {
				top.key, top.inKey = tok.(string), false
				continue
			}
		}
		if atValue && equal(path(), target) {
			return off
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{inKey: true})
		case json.Delim('['):
			stack = append(stack, frame{array: true})
		default:
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				if top.array {
					top.index++
				} else {
					top.inKey = true
				}
			}
		}
	}
}
