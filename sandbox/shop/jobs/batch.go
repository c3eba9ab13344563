package jobs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/documents"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/products"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/products/catalog"
)

// A batch endpoint is a registry row of kind Batch: the file at
// batchFileUrlPath is JSON Lines (gzip or plain), one object per line,
// shaped like the data of the row's Single operation plus the fields
// naming the record (the row's id field, or the op's Lines). Each line is
// written through the Single operation's own write, exactly as one
// request of it would be (validation, hooks, change log, events); a batch
// adds only the row's mass event with the records its lines changed.

// MaxBatchRows caps the lines of one batch file.
const MaxBatchRows = 100000

// batchOf returns the registry row and op of a batch operation.
func (s *Service) batchOf(operation string) (*registry.Resource, *registry.Op, bool) {
	row, op, ok := s.Registry.Op(operation)
	return row, op, ok && op.Kind == registry.Batch
}

// Check prepares the batch table from the registry rows and refuses a
// batch whose lines have no single write to go through. The app calls it
// when it builds the jobs module, so a gap stops the start.
func (s *Service) Check() error {
	s.engine = s.Engine
	if s.engine == nil {
		e, err := crud.New(s.Registry, crud.Deps{Store: s.Store, Site: s.Site, IDs: s.IDs, Hooks: hooks()})
		if err != nil {
			return err
		}
		s.engine = e
	}
	for _, row := range s.Registry.Resources() {
		for _, op := range row.Ops {
			if op.Kind == registry.Batch && s.lineWriter(op.Single) == nil {
				return fmt.Errorf("registry row %s: batch %s: nothing writes a line through %s", row.Name, op.Operation, op.Single)
			}
		}
	}
	return nil
}

// hooks are the shop areas' rules of the engine Check builds when the app
// gives none. They must stay in step with surface.Hooks (sandbox/app/surface),
// which the app's engine gets: jobs sits below the app and cannot import it.
func hooks() []crud.Hook {
	return append(products.Hooks(), documents.Hooks()...)
}

// lineWriter is the single write a batch line goes through: the generic
// one of crud, or for an action the function its endpoint calls for one
// entry.
func (s *Service) lineWriter(single string) crud.LineWriter {
	if w, ok := s.engine.LineWriter(single); ok {
		return w
	}
	switch single {
	case "UpdateProductOrderInCategory":
		return catalog.PriorityLine
	case "CreateOrder":
		return s.orderLine
	}
	return nil
}

// orderLine creates one order with every rule of POST /api/orders: the
// creation flags come from the batch request's query and from the row
// (a library row's settings, or flags among the order's fields, as in a
// request's data).
func (s *Service) orderLine(c *crud.Ctx, line map[string]any) (string, error) {
	flags, err := orders.ReadFlags(c.R, map[string]any{"data": line}, rules.FlagNames...)
	if err != nil {
		return "", err
	}
	sh, err := orders.OpenShop(c.W, s.Site)
	if err != nil {
		return "", err
	}
	o, err := sh.CreateOrder(line, flags, s.IDs)
	if err != nil {
		return "", err
	}
	code, _ := o["code"].(string)
	return code, nil
}

// checkBatch refuses a batch request without a file, or whose path names
// a parent record that does not exist (a price list's batch).
func (s *Service) checkBatch(r *api.Request, tx *store.Tx, body map[string]any) error {
	if trimmed(body, "batchFileUrlPath") == "" {
		return sandbox.Invalid("batchFileUrlPath", "Field batchFileUrlPath: the URL of the batch file (JSON Lines, gzip or plain) is required.")
	}
	row, _, _ := s.batchOf(r.Route.Operation)
	if row.Parent == nil || r.Var(row.Parent.Var) == "" {
		return nil
	}
	parent, _ := s.Registry.Resource(row.Parent.Resource)
	if id := r.Var(row.Parent.Var); !tx.Exists(r.Eshop, parent.Name, id) {
		return sandbox.NotFound(id, "%s %s %q does not exist in this e-shop.", crud.Singular(parent.Name), parent.IDField, id)
	}
	return nil
}

// rowError is a skipped row.
type rowError struct {
	line int
	msg  string
}

// batch downloads the batch file and writes its lines in one store
// transaction, each through the row's single write; the row's mass event
// follows the lines' own events.
func (s *Service) batch(ctx context.Context, j *Job) (Result, error) {
	row, b, _ := s.batchOf(j.Operation)
	write := s.lineWriter(b.Single)
	body := j.body()
	raw, err := s.Fetcher.Fetch(ctx, trimmed(body, "batchFileUrlPath"))
	if err != nil {
		return Result{}, fmt.Errorf("The batch file could not be read: %v.", err)
	}
	lines, skipped, err := parseLines(raw)
	if err != nil {
		return Result{}, err
	}
	unreadable := len(skipped)
	rows, unwrapped := unwrapRows(lines, b.Single == "CreateOrder")
	skipped = append(skipped, unwrapped...)
	skipped = append(skipped, s.prepareLines(b.Single, rows)...)
	_, single, _ := s.Registry.Op(b.Single)
	mass := s.Registry.MassEvent(b)
	req := crud.Background(j.EshopID, b.Single, j.Endpoint, j.Vars, j.Query)
	var changed []string
	var failed []rowError
	err = s.engine.Update(req, func(c *crud.Ctx) error {
		changed, failed = nil, nil
		for _, r := range rows {
			if r.fields == nil {
				continue
			}
			vars, err := lineVars(row, b, single, j.Vars, r.fields)
			if err == nil {
				var id string
				if id, err = write(c.WithVars(vars), r.fields); err == nil {
					if id != "" && !contains(changed, id) {
						changed = append(changed, id)
					}
					continue
				}
			}
			if sandbox.AsError(err).Kind == sandbox.KindInternal {
				return err
			}
			failed = append(failed, rowError{line: r.line, msg: r.where() + sandbox.AsError(err).Message})
		}
		if len(changed) > 0 && mass != "" {
			c.Emit(mass, crud.MassInstance(changed))
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	skipped = append(skipped, failed...)
	sort.SliceStable(skipped, func(a, b int) bool { return skipped[a].line < skipped[b].line })
	log := batchLog(unreadable+len(unwrapped)+len(rows), len(changed), skipped)
	if len(changed) == 0 && len(skipped) > 0 {
		return Result{}, errors.New(log)
	}
	return Result{Log: log}, nil
}

// lineVars are the path variables one request of the batch's single op
// would carry for a line: the batch request's own, the single op's Var
// from the line's id field, and the line fields the batch's Lines name.
// A variable the write needs that the line lacks refuses the line.
func lineVars(row *registry.Resource, b, single *registry.Op, base map[string]string, line map[string]any) (map[string]string, error) {
	vars := map[string]string{}
	for k, v := range base {
		vars[k] = v
	}
	if single.Var != "" {
		vars[single.Var] = strings.TrimSpace(crud.IDString(line[row.IDField]))
	}
	for variable, fields := range b.Lines {
		vars[variable] = ""
		for _, f := range strings.Split(fields, "|") {
			if v := strings.TrimSpace(crud.IDString(line[f])); v != "" {
				vars[variable] = v
				break
			}
		}
	}
	need := map[string]string{}
	if single.Var != "" {
		need[single.Var] = row.IDField
	}
	if row.Parent != nil {
		need[row.Parent.Var] = row.Parent.Var
	}
	for variable, fields := range b.Lines {
		need[variable] = strings.Split(fields, "|")[0]
	}
	for variable, field := range need {
		if vars[variable] == "" {
			return nil, sandbox.Invalid(field, "field %s (the record's identifier) is missing.", field)
		}
	}
	return vars, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func batchLog(total, changed int, skipped []rowError) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows read, %d records changed, %d rows skipped.", total, changed, len(skipped))
	for i, e := range skipped {
		if i == 20 {
			fmt.Fprintf(&b, " ... and %d more.", len(skipped)-20)
			break
		}
		fmt.Fprintf(&b, " Line %d: %s", e.line, e.msg)
	}
	return b.String()
}

// parseLines reads JSON Lines, gunzipping first when the file is gzip.
// A line that is not a JSON object is skipped and reported (its slot in
// rows stays nil).
func parseLines(raw []byte) (rows []map[string]any, skipped []rowError, err error) {
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, nil, fmt.Errorf("The batch file is not valid gzip: %v.", err)
		}
		if raw, err = io.ReadAll(io.LimitReader(zr, 256<<20)); err != nil {
			return nil, nil, fmt.Errorf("The batch file is not valid gzip: %v.", err)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if len(rows) >= MaxBatchRows {
			return nil, nil, fmt.Errorf("The batch file has more than %d rows.", MaxBatchRows)
		}
		for len(rows) < line-1 {
			rows = append(rows, nil) // keep rows[i] on line i+1
		}
		m, err := api.DecodeObject(text)
		if err != nil {
			skipped = append(skipped, rowError{line: line, msg: "not a JSON object."})
			rows = append(rows, nil)
			continue
		}
		rows = append(rows, m)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("The batch file could not be read: %v.", err)
	}
	if line == 0 || len(rows) == 0 {
		return nil, nil, errors.New("The batch file is empty: one JSON object per line is expected.")
	}
	return rows, skipped, nil
}

// prepareLines checks each line against the single operation's request
// schema (as the body one request of it would carry) and then undoes the
// SDK's encodings in it; a mismatching line is skipped.
func (s *Service) prepareLines(single string, rows []batchRow) []rowError {
	var sch *jsonschema.Schema
	if s.Schemas != nil {
		sch = s.Schemas.Request(single)
	}
	var out []rowError
	for i, r := range rows {
		body, normalize := s.engine.Line(single, r.fields)
		if sch != nil {
			if err := sch.Validate(body); err != nil {
				out = append(out, rowError{line: r.line, msg: r.where() + sandbox.AsError(api.SchemaError(err)).Message})
				rows[i].fields = nil
				continue
			}
		}
		normalize()
	}
	return out
}
