package jobs

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Export formats of GET /api/export/{type}/{format}.
var exportFormats = map[string]bool{"json": true, "csv": true}

// checkExport accepts a type naming a resource of the registry and a
// format the sandbox writes (json: gzip JSON Lines; csv: gzip CSV of the
// top-level scalar fields).
func (s *Service) checkExport(r *api.Request, _ *store.Tx, _ map[string]any) error {
	typ, format := r.Var("type"), r.Var("format")
	if row, ok := s.Registry.Resource(typ); !ok || row.Parent != nil {
		return sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "type",
			"Export type %q is not a resource of the sandbox; use e.g. orders, products, customers or invoices.", typ)
	}
	if !exportFormats[format] {
		return sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "format", "Export format %q is not supported; use json or csv.", format)
	}
	return nil
}

// export writes every record of the type, filtered by codeFrom/codeTo
// on its identifier and dateFrom/dateTo on creationTime.
func (s *Service) export(_ context.Context, j *Job) (Result, error) {
	row, ok := s.Registry.Resource(j.Vars["type"])
	if !ok {
		return Result{}, fmt.Errorf("Export type %q is unknown.", j.Vars["type"])
	}
	q := j.query()
	match, err := registry.Compile([]registry.Filter{
		{Query: "codeFrom", Path: row.IDField, Op: registry.From},
		{Query: "codeTo", Path: row.IDField, Op: registry.To},
		{Query: "dateFrom", Path: "creationTime", Op: registry.TimeFrom},
		{Query: "dateTo", Path: "creationTime", Op: registry.TimeTo},
	}, q.Get)
	if err != nil {
		return Result{}, err
	}
	var recs []map[string]any
	err = s.Store.View(func(tx *store.Tx) error {
		view := api.View{BaseURL: s.Site.BaseURL, EshopURL: s.Site.EshopURL(j.EshopID)}
		return tx.Scan(j.EshopID, row.Name, func(_ string, doc []byte) bool {
			if match == nil || match(doc) {
				if m, err := api.Render(doc, view); err == nil {
					recs = append(recs, m)
				}
			}
			return true
		})
	})
	if err != nil {
		return Result{}, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if j.Vars["format"] == "csv" {
		err = writeCSV(zw, recs)
	} else {
		enc := json.NewEncoder(zw)
		enc.SetEscapeHTML(false)
		for _, m := range recs {
			if err = enc.Encode(m); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return Result{}, err
	}
	return Result{File: buf.Bytes(), Log: fmt.Sprintf("Exported %d %s.", len(recs), row.Name)}, nil
}

// writeCSV writes the top-level scalar fields, columns sorted.
func writeCSV(w *gzip.Writer, recs []map[string]any) error {
	cols := map[string]bool{}
	for _, m := range recs {
		for k, v := range m {
			switch v.(type) {
			case map[string]any, []any:
			default:
				cols[k] = true
			}
		}
	}
	header := make([]string, 0, len(cols))
	for k := range cols {
		header = append(header, k)
	}
	sort.Strings(header)
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, m := range recs {
		line := make([]string, len(header))
		for i, k := range header {
			if v := m[k]; v != nil {
				line[i] = fmt.Sprint(v)
			}
		}
		if err := cw.Write(line); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
