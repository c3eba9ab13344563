package fidelity

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteText prints the report for a person: a summary line, then each
// differing endpoint with its differences, then (with notes) the fields
// that are null on one side only, then the endpoints not compared.
func (r *Report) WriteText(w io.Writer, notes bool) error {
	p := &printer{w: w}
	p.f("fidelity of the sandbox %s against the upstream %s\n", r.Sandbox, r.Upstream)
	p.f("%d endpoints compared, %d differ, %d not compared\n", r.Compared, r.Differing, r.NotCompared)
	for _, res := range r.Results {
		if len(res.Differences) == 0 && (!notes || len(res.Notes) == 0) {
			continue
		}
		p.f("\n%s  GET %s\n", res.Operation, res.Path)
		if res.SandboxPath != "" {
			p.f("  (the sandbox has no such record; compared with its GET %s)\n", res.SandboxPath)
		}
		for _, d := range res.Differences {
			switch d.Kind {
			case Status:
				p.f("  status   upstream %s, sandbox %s\n", d.Upstream, d.Sandbox)
			case Missing:
				p.f("  missing  %s (%s)\n", d.Path, d.Upstream)
			case Extra:
				p.f("  extra    %s (%s)\n", d.Path, d.Sandbox)
			case Type:
				p.f("  type     %s: upstream %s, sandbox %s\n", d.Path, d.Upstream, d.Sandbox)
			}
		}
		if notes {
			for _, n := range res.Notes {
				p.f("  note     %s\n", n)
			}
		}
	}
	if r.NotCompared > 0 {
		p.f("\nnot compared:\n")
		for _, res := range r.Results {
			if res.NotCompared != "" {
				p.f("  %s  GET %s: %s\n", res.Operation, res.Path, res.NotCompared)
			}
		}
	}
	return p.err
}

// WriteJSON writes the report as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// printer keeps the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, a ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, a...)
	}
}
