package jobs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// A line of a batch file is one of two shapes, on every batch endpoint:
//
//   - the flat row: the data of one request of the batch's single
//     operation plus the fields naming the record, e.g.
//     {"categoryGuid":"…","productGuid":"…","priority":3};
//   - the client library's row: {"data": <row or list of rows>, …}, where
//     the fields beside data (the record's identifiers, such as
//     categoryGuid) apply to every row in data, e.g.
//     {"categoryGuid":"…","data":[{"productGuid":"…","priority":3}]}.
//     An order row may carry "settings" with the order creation flags:
//     {"settings":{"suppressEmailSending":true},"data":{…the order…}}.
//
// A list in data gives one row per entry; each is written, and skipped,
// on its own.

// Fields of the client library's row shape.
const (
	rowData     = "data"
	rowSettings = "settings"
)

// batchRow is one row to write: a flat line, or one entry of a library
// row's data.
type batchRow struct {
	line   int            // line of the file (1-based)
	entry  int            // index in the line's data list; -1 when data is one object or the line is flat
	fields map[string]any // the flat row
}

// where names the row in a skip message: "Line 3" or "Line 3, data[1]".
func (r batchRow) where() string {
	if r.entry < 0 {
		return ""
	}
	return fmt.Sprintf("data[%d]: ", r.entry)
}

// unwrapRows turns the parsed lines (nil for a line already skipped)
// into flat rows. settings says whether the batch takes order creation
// flags in "settings" (the order batch); they become fields of each row,
// where the single write reads them as it reads them in a request's data.
func unwrapRows(lines []map[string]any, settings bool) ([]batchRow, []rowError) {
	var rows []batchRow
	var skipped []rowError
	for i, line := range lines {
		if line == nil {
			continue
		}
		n := i + 1
		data, wrapped := line[rowData]
		if !wrapped {
			if _, ok := line[rowSettings]; ok {
				skipped = append(skipped, rowError{line: n, msg: `"settings" goes with "data": {"settings":{…},"data":{…the row…}}.`})
				continue
			}
			rows = append(rows, batchRow{line: n, entry: -1, fields: line})
			continue
		}
		outer := map[string]any{}
		for k, v := range line {
			if k != rowData && k != rowSettings {
				outer[k] = v
			}
		}
		if s, ok := line[rowSettings]; ok && s != nil {
			flags, err := readSettings(s, settings)
			if err != nil {
				skipped = append(skipped, rowError{line: n, msg: err.Error()})
				continue
			}
			for k, v := range flags {
				outer[k] = v
			}
		}
		switch d := data.(type) {
		case map[string]any:
			row, err := merge(outer, d)
			if err != nil {
				skipped = append(skipped, rowError{line: n, msg: err.Error()})
				continue
			}
			rows = append(rows, batchRow{line: n, entry: -1, fields: row})
		case []any:
			if len(d) == 0 {
				skipped = append(skipped, rowError{line: n, msg: `"data" is an empty list: nothing to write.`})
			}
			for j, e := range d {
				m, ok := e.(map[string]any)
				if !ok {
					skipped = append(skipped, rowError{line: n, msg: fmt.Sprintf("data[%d]: not a JSON object.", j)})
					continue
				}
				row, err := merge(outer, m)
				if err != nil {
					skipped = append(skipped, rowError{line: n, msg: fmt.Sprintf("data[%d]: %v", j, err)})
					continue
				}
				rows = append(rows, batchRow{line: n, entry: j, fields: row})
			}
		default:
			skipped = append(skipped, rowError{line: n, msg: `"data" must be the row (an object) or a list of rows.`})
		}
	}
	return rows, skipped
}

// merge is a library row's entry with the fields beside data; a field
// given in both with different values is refused.
func merge(outer, entry map[string]any) (map[string]any, error) {
	row := make(map[string]any, len(outer)+len(entry))
	for k, v := range entry {
		row[k] = v
	}
	for k, v := range outer {
		if prev, ok := row[k]; ok && fmt.Sprint(prev) != fmt.Sprint(v) {
			return nil, fmt.Errorf("%s is given beside data (%v) and in it (%v).", k, v, prev)
		}
		row[k] = v
	}
	return row, nil
}

// readSettings checks an order row's settings: an object of order
// creation flags (true or false). Other batches take none.
func readSettings(v any, allowed bool) (map[string]any, error) {
	if !allowed {
		return nil, fmt.Errorf(`"settings" belongs to order rows (POST /api/orders/batch); this batch takes none.`)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf(`"settings" must be an object of order creation flags.`)
	}
	known := map[string]bool{}
	for _, f := range rules.FlagNames {
		known[f] = true
	}
	var unknown []string
	for k, x := range m {
		if !known[k] {
			unknown = append(unknown, k)
			continue
		}
		if _, ok := x.(bool); !ok && x != nil {
			return nil, fmt.Errorf("settings.%s must be true or false.", k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("settings.%s is not an order creation flag; known: %s.", unknown[0], strings.Join(rules.FlagNames, ", "))
	}
	return m, nil
}
