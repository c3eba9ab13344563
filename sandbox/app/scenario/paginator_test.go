package scenario

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// TestPaginatorOf: a list's paginator is found where the envelope puts
// it (data's first or last key) from the answer's ends, in a body of one
// part or of several; a paginator's name inside a record's text or a
// record's own "paginator" field is not taken for it; a record cut short
// gives its paginator only when it is at the start; a body laid out
// otherwise is read whole.
func TestPaginatorOf(t *testing.T) {
	const pg = `{"itemsOnPage":2,"itemsPerPage":2,"page":3,"pageCount":9,"totalCount":17}`
	const tail = `,"errors":null,"metadata":{"requestId":"r-1"}}`
	big := strings.Repeat(`{"code":"A","note":"a \"paginator\":{\"page\":1} in text","x":{"paginator":{"page":99}}},`, 40)
	items := "[" + big + `{"code":"B"}]`
	tests := []struct {
		name  string
		parts []string
		cut   bool
		want  string // the paginator's page, "" for none
	}{
		{"last key (orders)", []string{`{"data":{"orders":` + items + `,"paginator":` + pg + `}` + tail}, false, "3"},
		{"first key (products)", []string{`{"data":{"paginator":` + pg + `,"products":` + items + `}` + tail}, false, "3"},
		{"last key, head, shared answer and tail apart", []string{`{"data":`, `{"orders":` + items + `,"paginator":` + pg + `}`, tail}, false, "3"},
		{"first key, cut short", []string{`{"data":{"paginator":` + pg + `,"products":` + items[:300]}, true, "3"},
		{"last key, cut short", []string{`{"data":{"orders":` + items[:300]}, true, ""},
		{"another layout, whole", []string{`{"data":{"a":1,"paginator":` + pg + `,"z":` + items + `}` + tail}, false, "3"},
		{"not a list", []string{`{"data":{"order":{"code":"A","note":"no paginator here"}}` + tail}, false, ""},
		{"empty", nil, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bus.Body
			for _, p := range tc.parts {
				b.Append([]byte(p))
			}
			got, _ := paginatorOf(b, tc.cut, nil)
			page := ""
			if got.Exists() {
				page = got.Get("page").Raw
			}
			if page != tc.want {
				t.Fatalf("paginator %s (page %q), want page %q", got.Raw, page, tc.want)
			}
		})
	}
}
