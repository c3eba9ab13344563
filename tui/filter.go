package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/bus"
)

// statusClass filters by the first digit of the status.
type statusClass int

const (
	classAll statusClass = iota
	class2xx
	class3xx
	class4xx
	class5xx
	classErrors // 4xx, 5xx and webhooks without an answer
	classCount
)

// String names the class as the tab line shows it.
func (c statusClass) String() string {
	return [...]string{"all", "2xx", "3xx", "4xx", "5xx", "errors"}[c]
}

func (c statusClass) match(status int) bool {
	switch c {
	case class2xx, class3xx, class4xx, class5xx:
		return status/100 == int(c)+1
	case classErrors:
		return status >= 400 || status == 0
	}
	return true
}

// methods is the order the method filter cycles through ("" = all).
var methods = []string{"", "GET", "POST", "PUT", "PATCH", "DELETE"}

// filter narrows both lists.
type filter struct {
	text   string // case-insensitive substring of the row's text
	class  statusClass
	eshop  int    // 0: every e-shop
	method string // "": every method (calls only)
}

func (f filter) active() bool {
	return f.text != "" || f.class != classAll || f.eshop != 0 || f.method != ""
}

// String is the filter as the tab line shows it.
func (f filter) String() string {
	var parts []string
	if f.text != "" {
		parts = append(parts, strconv.Quote(f.text))
	}
	if f.class != classAll {
		parts = append(parts, "status:"+f.class.String())
	}
	if f.eshop != 0 {
		parts = append(parts, fmt.Sprint("shop:", f.eshop))
	}
	if f.method != "" {
		parts = append(parts, "method:"+f.method)
	}
	return strings.Join(parts, " ")
}

func (f filter) matchText(fields ...string) bool {
	if f.text == "" {
		return true
	}
	needle := strings.ToLower(f.text)
	for _, s := range fields {
		if strings.Contains(strings.ToLower(s), needle) {
			return true
		}
	}
	return false
}

func (f filter) call(c *bus.Call) bool {
	return f.class.match(c.Status) && (f.eshop == 0 || c.Eshop == f.eshop) && (f.method == "" || c.Method == f.method) &&
		f.matchText(c.Method, c.Path, c.Operation, strconv.Itoa(c.Status), c.ID, c.TokenKind, c.Fault)
}

func (f filter) attempt(d *bus.Delivery) bool {
	return f.class.match(d.Status) && (f.eshop == 0 || d.Eshop == f.eshop) && (f.method == "" || f.method == "POST") &&
		f.matchText(d.Event, d.Instance, d.URL, strconv.Itoa(d.Status), d.ID, d.Error)
}
