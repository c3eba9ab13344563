package gen

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// pathCorrection repairs an endpoint path that the reference got wrong.
// Each entry names the current (broken) value; when the reference is fixed
// upstream the entry no longer matches and generation fails, so the entry is
// removed deliberately instead of lingering.
type pathCorrection struct {
	operation string
	from, to  string
	why       string
}

var pathCorrections = []pathCorrection{
	{
		operation: "CreateProformaInvoiceFromOrder",
		from:      "/api_orders_{code}_proforma-invoice.yaml",
		to:        "/api/orders/{code}/proforma-invoice",
		why: "known reference defect: the SDK class carries the name of its OpenAPI file instead of the path " +
			"(siblings: POST /api/orders/{code}/invoice, POST /api/orders/{code}/delivery-notes)",
	},
}

// bodyCorrection repairs a request or response schema whose structure is an
// extraction artefact. fix must check the exact broken shape it expects and
// fail otherwise.
type bodyCorrection struct {
	at  string
	why string
	fix func(node map[string]any) (map[string]any, error)
}

var bodyCorrections = []bodyCorrection{
	{
		// The SDK models this request with a single property literally
		// named "schema" that holds the real body ({"data": {rating,
		// remark}}). Left as is, the schema would accept any body.
		at:  "/endpoints/CreateCustomerRemark/requestBody",
		why: `request body wrapped in a spurious "schema" property; unwrapped to {"data": {rating, remark}} like every other write endpoint`,
		fix: func(node map[string]any) (map[string]any, error) {
			props, _ := asObject(node["properties"])
			if len(props) != 1 || props["schema"] == nil {
				return nil, fmt.Errorf("expected exactly one property \"schema\", got %v", sortedKeys(props))
			}
			inner, ok := asObject(props["schema"])
			if !ok {
				return nil, fmt.Errorf("\"schema\" is not an object schema")
			}
			innerProps, _ := asObject(inner["properties"])
			if len(innerProps) != 1 || innerProps["data"] == nil {
				return nil, fmt.Errorf("expected \"schema\" to hold exactly \"data\", got %v", sortedKeys(innerProps))
			}
			return map[string]any{
				"type":       "object",
				"properties": map[string]any{"data": innerProps["data"]},
			}, nil
		},
	},
}

func applyCorrections(r *reference, log io.Writer) error {
	for _, c := range pathCorrections {
		e, ok := r.byOp[c.operation]
		if !ok {
			return fmt.Errorf("path correction: no endpoint %q in the reference", c.operation)
		}
		if got, _ := asString(e["path"]); got != c.from {
			return fmt.Errorf("path correction for %s: expected path %q, reference has %q (fixed upstream? remove the correction)", c.operation, c.from, got)
		}
		e["path"] = c.to
		method, _ := asString(e["method"])
		fmt.Fprintf(log, "note: corrected path of %s: %s %s -> %s (%s)\n", c.operation, method, c.from, c.to, c.why)
	}
	for _, c := range bodyCorrections {
		node, err := resolveSchema(r, c.at)
		if err != nil {
			return fmt.Errorf("body correction: %w", err)
		}
		fixed, err := c.fix(node)
		if err != nil {
			return fmt.Errorf("body correction %s: %w (fixed upstream? remove the correction)", c.at, err)
		}
		if err := replaceAt(r, c.at, fixed); err != nil {
			return err
		}
		fmt.Fprintf(log, "note: corrected %s: %s\n", c.at, c.why)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// quoteList renders values for the summary: ["a", "b", null].
func quoteList(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		switch t := v.(type) {
		case nil:
			parts[i] = "null"
		case string:
			parts[i] = fmt.Sprintf("%q", t)
		default:
			parts[i] = fmt.Sprint(t)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
