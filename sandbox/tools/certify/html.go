package certify

import (
	_ "embed"
	"html/template"
	"io"
	"strings"
)

//go:embed report.html.tmpl
var htmlSource string

// htmlPage is the report page: one file, its style inline, no script and
// nothing fetched, so it can be kept as a CI artifact and opened anywhere.
var htmlPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"class": func(v Verdict) string { return strings.ReplaceAll(string(v), " ", "-") },
}).Parse(htmlSource))

// WriteHTML writes the report as a self-contained HTML page.
func (r *Report) WriteHTML(w io.Writer) error { return htmlPage.Execute(w, r) }
