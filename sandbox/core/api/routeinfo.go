package api

import "strings"

// IsControl reports whether a route belongs to the control plane, whose
// routes the /_sandbox/ index and the control OpenAPI document list.
func (rt Route) IsControl() bool { return rt.Area() == AreaControl }

// PathParam is one variable of a route's path: its name and, when the
// route restricts it, the regular expression it must match.
type PathParam struct {
	Name    string
	Pattern string
}

// Template is the route's path as people write it: mux's variable
// patterns dropped ("/_sandbox/eshops/{eshopId:[0-9]+}" becomes
// "/_sandbox/eshops/{eshopId}").
func (rt Route) Template() string {
	var b strings.Builder
	for _, seg := range splitTemplate(rt.Path) {
		if seg.param {
			b.WriteString("{" + seg.name + "}")
		} else {
			b.WriteString(seg.text)
		}
	}
	return b.String()
}

// PathParams lists the route's path variables in order.
func (rt Route) PathParams() []PathParam {
	var out []PathParam
	for _, seg := range splitTemplate(rt.Path) {
		if seg.param {
			out = append(out, PathParam{Name: seg.name, Pattern: seg.pattern})
		}
	}
	return out
}

type templatePart struct {
	param         bool
	text          string
	name, pattern string
}

// splitTemplate cuts a mux path template into literal text and {name} or
// {name:pattern} variables; braces inside a pattern ({2,3}) nest.
func splitTemplate(path string) []templatePart {
	var out []templatePart
	for len(path) > 0 {
		open := strings.IndexByte(path, '{')
		if open < 0 {
			out = append(out, templatePart{text: path})
			break
		}
		if open > 0 {
			out = append(out, templatePart{text: path[:open]})
		}
		depth, end := 0, -1
		for i := open; i < len(path) && end < 0; i++ {
			switch path[i] {
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					end = i
				}
			}
		}
		if end < 0 { // unbalanced: keep the rest as text
			out = append(out, templatePart{text: path[open:]})
			break
		}
		name, pattern, _ := strings.Cut(path[open+1:end], ":")
		out = append(out, templatePart{param: true, name: name, pattern: pattern})
		path = path[end+1:]
	}
	return out
}
