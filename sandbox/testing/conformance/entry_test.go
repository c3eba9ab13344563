package conformance

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// entry is one endpoint's valid call: path variables, query, body, the
// calls it needs first, what the answer must hold, and the follow-up GET
// that must show the write.
type entry struct {
	op      string
	vars    map[string]string
	query   string
	body    any // the whole body (with "data"); nil sends none
	status  int // 0: the documented status (documentedStatus)
	setup   []call
	asserts []string // on the answer: "path=value", "path>0", "path" (present, not null)
	follow  *check
	after   bool // runs after the group's other writes (it consumes records)
}

// call is a request made before an entry; save copies answer paths into
// variables ("jobId=data.jobId").
type call struct {
	method, path string
	body         any
	save         []string
}

// check is the follow-up GET: its status and assertions.
type check struct {
	path    string
	status  int
	asserts []string
}

// e starts an entry of an operation with path variables given as
// name, value pairs.
func e(op string, kv ...string) *entry {
	en := &entry{op: op, vars: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		en.vars[kv[i]] = kv[i+1]
	}
	return en
}

func (en *entry) q(query string) *entry { en.query = query; return en }

// data sets the body {"data": <json>}.
func (en *entry) data(json string) *entry { en.body = map[string]any{"data": decode(json)}; return en }

func (en *entry) want(asserts ...string) *entry {
	en.asserts = append(en.asserts, asserts...)
	return en
}

func (en *entry) code(status int) *entry { en.status = status; return en }

func (en *entry) last() *entry { en.after = true; return en }

// then adds the follow-up GET (status 200) with its assertions.
func (en *entry) then(path string, asserts ...string) *entry {
	en.follow = &check{path: path, status: 200, asserts: asserts}
	return en
}

// gone adds a follow-up GET that must answer 404 (a deleted record).
func (en *entry) gone(path string) *entry {
	en.follow = &check{path: path, status: 404}
	return en
}

// first adds a call made before the entry.
func (en *entry) first(method, path string, body any, save ...string) *entry {
	en.setup = append(en.setup, call{method: method, path: path, body: body, save: save})
	return en
}

var placeholder = regexp.MustCompile(`\{(@?)([^{}]+)\}`)

// expand fills {var} from variables and {@path} from the answer.
func expand(s string, vars map[string]string, ans *answer) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		p := placeholder.FindStringSubmatch(m)
		if p[1] == "@" {
			if ans == nil {
				return m
			}
			return ans.get(p[2]).String()
		}
		if v, ok := vars[p[2]]; ok {
			return v
		}
		return m
	})
}

// assert evaluates one assertion on a body; "" when it holds. Forms:
// "path=value", "path!=value", "path>number", "path" (present, not null)
// and "!path" (absent). The operator is found outside gjson queries, so
// paths like data.flags.#(code=="tip").color work.
func assert(body []byte, a string) string {
	if strings.HasPrefix(a, "!") && splitAt(a[1:]) < 0 {
		if got := gjson.GetBytes(body, a[1:]); got.Exists() && got.Type != gjson.Null {
			return fmt.Sprintf("%s is still there: %s", a[1:], got.Raw)
		}
		return ""
	}
	path, want, op := a, "", ""
	if i := splitAt(a); i >= 0 {
		op = a[i : i+1]
		if a[i] == '!' {
			op = "!="
		}
		path, want = a[:i], a[i+len(op):]
	}
	got := gjson.GetBytes(body, path)
	switch op {
	case "":
		if !got.Exists() || got.Type == gjson.Null {
			return fmt.Sprintf("%s is missing", path)
		}
	case "=":
		if got.String() != want {
			return fmt.Sprintf("%s is %q, want %q", path, got.String(), want)
		}
	case "!=":
		if got.String() == want {
			return fmt.Sprintf("%s is still %q", path, want)
		}
	case ">":
		n, _ := strconv.ParseFloat(want, 64)
		if got.Float() <= n {
			return fmt.Sprintf("%s is %s, want more than %s", path, got.Raw, want)
		}
	}
	return ""
}

// splitAt finds the assertion's operator (=, != or >) outside
// parentheses and quotes; -1 when there is none.
func splitAt(a string) int {
	depth, quoted := 0, false
	for i := 0; i < len(a); i++ {
		switch c := a[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth == 0 && (c == '=' || c == '>'):
			return i
		case depth == 0 && c == '!' && i+1 < len(a) && a[i+1] == '=':
			return i
		}
	}
	return -1
}

// documentedStatus is an endpoint's success status: the table's for the
// operations it serves; otherwise the project's rule (README): 202 for
// asynchronous endpoints, 201 for a POST that creates, 204 for an empty
// answer, else 200.
func documentedStatus(reg *registry.Registry, ep schemas.Endpoint) int {
	if _, op, ok := reg.Op(ep.Operation); ok {
		return op.SuccessStatus()
	}
	if ep.Async {
		return http.StatusAccepted
	}
	if ep.Method == http.MethodPost && creates.MatchString(ep.Operation) {
		return http.StatusCreated
	}
	if ep.ResponseKind == "raw" && ep.Response == "" && !strings.HasSuffix(ep.Path, "/pdf") && !strings.HasSuffix(ep.Path, "/isdoc") {
		return http.StatusNoContent
	}
	return http.StatusOK
}

var creates = regexp.MustCompile(`^(Create|Add|Register|Upload|OrderCopy|DeliveryNoteFrom)`)
