package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
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

// filter narrows every list.
type filter struct {
	text   query // the row's own text: see callText, attemptText, viewRow.text
	body   query // request and response bodies (a view row's detail)
	class  statusClass
	eshop  int    // 0: every e-shop
	method string // "": every method (calls only)
}

func (f filter) active() bool {
	return !f.text.empty() || !f.body.empty() || f.class != classAll || f.eshop != 0 || f.method != ""
}

// String is the filter as the tab line shows it.
func (f filter) String() string {
	var parts []string
	if !f.text.empty() {
		parts = append(parts, strconv.Quote(f.text.raw))
	}
	if !f.body.empty() {
		parts = append(parts, "body:"+strconv.Quote(f.body.raw))
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

// callText is what the text filter reads of a call: method and path
// side by side (so ~^POST\s/api/orders works), then the rest.
func callText(c *bus.Call) string {
	shop := ""
	if c.Eshop != 0 {
		shop = strconv.Itoa(c.Eshop)
	}
	return strings.Join([]string{c.Method + " " + c.Path, strconv.Itoa(c.Status), c.Operation, c.ID, c.TokenKind, c.Fault, shop}, " ")
}

// attemptText is what the text filter reads of a webhook attempt.
func attemptText(d *bus.Delivery) string {
	return strings.Join([]string{d.Event, d.Instance, d.URL, strconv.Itoa(d.Status), d.ID, d.Error, d.Fault, strconv.Itoa(d.Eshop)}, " ")
}

// call applies everything but the body search (cached by the model).
func (f filter) call(c *bus.Call) bool {
	return f.class.match(c.Status) && (f.eshop == 0 || c.Eshop == f.eshop) && (f.method == "" || c.Method == f.method) &&
		(f.text.empty() || f.text.matchString(callText(c)))
}

// attempt applies everything but the body search.
func (f filter) attempt(d *bus.Delivery) bool {
	return f.class.match(d.Status) && (f.eshop == 0 || d.Eshop == f.eshop) && (f.method == "" || f.method == "POST") &&
		(f.text.empty() || f.text.matchString(attemptText(d)))
}

// queued applies everything but the body search to a notification that
// waits for its attempt: it has no status, so only "all" keeps it.
func (f filter) queued(d *bus.Delivery) bool {
	return f.class == classAll && (f.eshop == 0 || d.Eshop == f.eshop) && (f.method == "" || f.method == "POST") &&
		(f.text.empty() || f.text.matchString(attemptText(d)))
}
