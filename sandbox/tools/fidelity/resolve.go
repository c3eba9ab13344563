package fidelity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/upstream"
)

// resolver fills a path template's variables with identifiers one side
// itself answers: the first item of the list above the variable in the
// path (/api/orders for /api/orders/{code}), or a source. Answers are
// read once per side.
type resolver struct {
	c     *upstream.Client
	ctx   context.Context
	lists map[string]string // template -> list operation

	mu    sync.Mutex
	cache map[string]*answer
}

// answer is one GET as a side answered it.
type answer struct {
	status int
	body   []byte
	err    error
}

func newResolver(ctx context.Context, c *upstream.Client, lists map[string]string) *resolver {
	return &resolver{c: c, ctx: ctx, lists: lists, cache: map[string]*answer{}}
}

// get reads a path once (the lists are asked by many targets).
func (r *resolver) get(path string) *answer {
	r.mu.Lock()
	a, ok := r.cache[path]
	r.mu.Unlock()
	if ok {
		return a
	}
	resp, err := r.c.Get(r.ctx, path)
	a = &answer{err: err}
	if err == nil {
		a.status, a.body = resp.Status, resp.Body
	}
	r.mu.Lock()
	r.cache[path] = a
	r.mu.Unlock()
	return a
}

// unresolved says why a template cannot be asked on a side.
type unresolved struct{ reason string }

func (u *unresolved) Error() string { return u.reason }

// maxTries is how many items of a list (a page: the default page size)
// are tried for a variable whose deeper lists are empty (the first
// customer has no remarks, the seventh has).
const maxTries = 20

// resolve fills every variable of tpl for operation op; depth bounds the
// chains of sources.
func (r *resolver) resolve(op, tpl string, depth int) (string, error) {
	if depth > 3 {
		return "", &unresolved{"the identifiers of " + tpl + " lead too far"}
	}
	if why, ok := unreadable[op]; ok {
		return "", &unresolved{why}
	}
	return r.fillFrom(op, strings.Split(tpl, "/"), 0, map[string]string{}, gjson.Result{}, depth)
}

// fillFrom fills the variables of segs from index i on; item is the list
// item the previous variable came from.
func (r *resolver) fillFrom(op string, segs []string, i int, vals map[string]string, item gjson.Result, depth int) (string, error) {
	for i < len(segs) && !isVar(segs[i]) {
		i++
	}
	if i == len(segs) {
		return fill(strings.Join(segs, "/"), vals), nil
	}
	name := segs[i][1 : len(segs[i])-1]
	next := func(v string, it gjson.Result) (string, error) {
		more := make(map[string]string, len(vals)+1)
		for k, x := range vals {
			more[k] = x
		}
		more[name] = v
		return r.fillFrom(op, segs, i+1, more, it, depth)
	}
	if src, ok := sources[op][name]; ok {
		v, err := r.fromSource(op, src, depth)
		if err != nil {
			return "", err
		}
		return next(v, gjson.Result{})
	}
	if i > 0 && isVar(segs[i-1]) && item.Exists() {
		// Two variables in a row name one item (carriers/{code}/{type}).
		if v := field(item, name); v != "" {
			return next(v, item)
		}
	}
	prefix := strings.Join(segs[:i], "/")
	listOp, ok := r.lists[prefix]
	if !ok {
		return "", &unresolved{fmt.Sprintf("no list endpoint names its {%s}", name)}
	}
	at := fill(prefix, vals)
	a := r.get(at)
	if a.err != nil {
		return "", a.err
	}
	if a.status != 200 {
		return "", &unresolved{fmt.Sprintf("%s (GET %s) answered %d, so no {%s} is known", listOp, at, a.status, name)}
	}
	items := listItems(a.body)
	if len(items) == 0 {
		return "", &unresolved{fmt.Sprintf("%s (GET %s) is empty, so no {%s} is known", listOp, at, name)}
	}
	var first error
	tried := items[:min(len(items), maxTries)]
	for _, it := range tried {
		v := field(it, name)
		if v == "" {
			if first == nil {
				first = &unresolved{fmt.Sprintf("the items of %s have no field for {%s}", listOp, name)}
			}
			continue
		}
		out, err := next(v, it)
		if err == nil {
			return out, nil
		}
		var u *unresolved
		if !errors.As(err, &u) {
			return "", err
		}
		if first == nil {
			first = err
		}
	}
	if u, ok := first.(*unresolved); ok && len(tried) > 1 {
		return "", &unresolved{fmt.Sprintf("%s (and for the other %d items of GET %s)", u.reason, len(tried)-1, at)}
	}
	return "", first
}

// fromSource reads a variable from its source.
func (r *resolver) fromSource(op string, src source, depth int) (string, error) {
	if src.Literal != "" {
		return src.Literal, nil
	}
	path, err := r.resolve(op+" (source)", src.Template, depth+1)
	if err != nil {
		return "", err
	}
	a := r.get(path)
	if a.err != nil {
		return "", a.err
	}
	v := gjson.GetBytes(a.body, src.Path)
	if a.status != 200 || !v.Exists() || v.String() == "" {
		return "", &unresolved{fmt.Sprintf("GET %s (%d) has no %s", path, a.status, src.Path)}
	}
	return v.String(), nil
}

// listItems are the elements of the first non-empty list in an answer's
// data.
func listItems(body []byte) []gjson.Result {
	var out []gjson.Result
	gjson.GetBytes(body, "data").ForEach(func(_, v gjson.Result) bool {
		if v.IsArray() && len(v.Array()) > 0 {
			out = v.Array()
			return false
		}
		return true
	})
	return out
}

// field is the item's value for a path variable.
func field(item gjson.Result, name string) string {
	for _, f := range idFields(name) {
		if v := item.Get(f); v.Exists() && v.Type != gjson.Null && v.String() != "" && !v.IsObject() && !v.IsArray() {
			return v.String()
		}
	}
	return ""
}
