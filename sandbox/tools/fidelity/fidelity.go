// Package fidelity compares the sandbox with a real e-shop: it sends the
// same GET requests to both (every read endpoint of the catalogue that
// answers at once, with every include section) and reports, endpoint by
// endpoint, the fields the sandbox misses or adds, the fields of another
// JSON type, and the endpoints that answer another status. It compares
// shapes, not values: two e-shops with different data but the same API
// have no differences.
//
// Identifiers for detail endpoints come from each side's own lists (the
// first order of GET /api/orders for /api/orders/{code}); the sandbox is
// asked the upstream's identifier first, and its own when it does not
// have that record, so a sandbox recorded from the upstream
// (sandbox/tools/record) is compared record for record, and one with other
// fixtures still has every endpoint compared.
package fidelity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/upstream"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// Options name the two sides.
type Options struct {
	Upstream, Sandbox         *upstream.Client
	UpstreamName, SandboxName string // for the report (their base URLs)
}

// Result is one endpoint compared (or why it was not).
type Result struct {
	Operation      string       `json:"operation"`
	Path           string       `json:"path"`                  // as asked of the upstream (or the template when not asked)
	SandboxPath    string       `json:"sandboxPath,omitempty"` // when the sandbox was asked for its own record
	UpstreamStatus int          `json:"upstreamStatus,omitempty"`
	SandboxStatus  int          `json:"sandboxStatus,omitempty"`
	Differences    []Difference `json:"differences,omitempty"`
	Notes          []string     `json:"notes,omitempty"`
	NotCompared    string       `json:"notCompared,omitempty"` // why the endpoint could not be asked
}

// Report is the whole comparison.
type Report struct {
	Upstream    string   `json:"upstream"`
	Sandbox     string   `json:"sandbox"`
	Compared    int      `json:"compared"`
	Differing   int      `json:"differing"`
	NotCompared int      `json:"notCompared"`
	Results     []Result `json:"results"`
}

// Clean reports whether no compared endpoint differs.
func (r *Report) Clean() bool { return r.Differing == 0 }

// Compare asks both sides every target and builds the report. An error
// means a side could not be read at all (unreachable, a timeout); a
// refusal is an answer and is compared like any other.
func Compare(ctx context.Context, opt Options) (*Report, error) {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, err
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		return nil, err
	}
	ls := lists(cat)
	up := newResolver(ctx, opt.Upstream, ls)
	sb := newResolver(ctx, opt.Sandbox, ls)
	ts := targets(cat, reg)
	results := make([]Result, len(ts))
	errs := make([]error, len(ts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, upstream.MaxConcurrency)
	for i, t := range ts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i], errs[i] = compareOne(t, up, sb)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	rep := &Report{Upstream: opt.UpstreamName, Sandbox: opt.SandboxName, Results: results}
	for _, r := range results {
		switch {
		case r.NotCompared != "":
			rep.NotCompared++
		case len(r.Differences) > 0:
			rep.Compared++
			rep.Differing++
		default:
			rep.Compared++
		}
	}
	return rep, nil
}

// compareOne asks both sides one target.
func compareOne(t target, up, sb *resolver) (Result, error) {
	res := Result{Operation: t.Operation, Path: t.Template}
	upPath, err := up.resolve(t.Operation, t.Template, 0)
	if err != nil {
		var u *unresolved
		if errors.As(err, &u) {
			res.NotCompared = "upstream: " + u.reason
			return res, nil
		}
		return res, err
	}
	res.Path = withQuery(upPath, t)
	ua := up.get(res.Path)
	if ua.err != nil {
		return res, ua.err
	}
	sa := sb.get(res.Path)
	if sa.err != nil {
		return res, sa.err
	}
	if ua.status == 200 && sa.status == 404 && upPath != t.Template {
		// The sandbox has other records: compare with its own.
		sbPath, err := sb.resolve(t.Operation, t.Template, 0)
		var u *unresolved
		switch {
		case err == nil && sbPath != upPath:
			res.SandboxPath = withQuery(sbPath, t)
			if sa = sb.get(res.SandboxPath); sa.err != nil {
				return res, sa.err
			}
		case errors.As(err, &u):
			// No record of its own to show: the data differ, which says
			// nothing about the endpoint.
			res.NotCompared = "the sandbox has no such record, nor one of its own: " + u.reason
			return res, nil
		case err != nil:
			return res, err
		}
	}
	res.UpstreamStatus, res.SandboxStatus = ua.status, sa.status
	if ua.status != sa.status {
		res.Differences = []Difference{{Kind: Status, Upstream: strconv.Itoa(ua.status), Sandbox: strconv.Itoa(sa.status)}}
		return res, nil
	}
	uv, uerr := decode(ua.body)
	sv, serr := decode(sa.body)
	switch {
	case uerr != nil && serr != nil:
		return res, nil // neither answers JSON: nothing to compare
	case uerr != nil || serr != nil:
		res.Differences = []Difference{{Kind: Type, Path: "(body)", Upstream: jsonOrNot(uerr), Sandbox: jsonOrNot(serr)}}
		return res, nil
	}
	res.Differences, res.Notes = CompareShapes(ShapeOf(uv), ShapeOf(sv))
	return res, nil
}

func decode(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func jsonOrNot(err error) string {
	if err != nil {
		return "not JSON"
	}
	return "JSON"
}
