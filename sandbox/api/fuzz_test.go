package api

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// FuzzDecodeJSON: any bytes either decode or give a 422 naming the body;
// never a panic, never another kind of error.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"data":{}}`, `{"data":[1,2,{"a":"b"}]}`, `{`, ``, "\xff", `{"a":1} x`, `[[[[[[[[]]]]]]]]`, `{"n":1e400}`, `"str"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := DecodeJSON(raw)
		if err == nil {
			if v == nil && strings.TrimSpace(string(raw)) != "null" {
				t.Fatalf("nil value without error for %q", raw)
			}
			return
		}
		var se *sandbox.Error
		if !errors.As(err, &se) || se.Kind != sandbox.KindUnprocessable || se.Message == "" {
			t.Fatalf("bad error for %q: %#v", raw, err)
		}
	})
}

// FuzzQuery: page, itemsPerPage and include either parse into sane
// values or give a 400 naming the parameter.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"page=1&itemsPerPage=20", "page=0", "page=-1", "itemsPerPage=99999999999999999999", "include=images,%00", "include=,,,", "page=1e3", "include=IMAGES"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		vals, err := url.ParseQuery(q)
		if err != nil {
			return
		}
		r := &Request{Request: httptest.NewRequest("GET", "/api/x?"+vals.Encode(), nil)}
		page, per, err := r.Paging(20, 100)
		if err == nil && (page < 1 || per < 1 || per > 100) {
			t.Fatalf("%q gave page %d perPage %d", q, page, per)
		}
		if err != nil {
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Kind != sandbox.KindInvalid || (se.Instance != "page" && se.Instance != "itemsPerPage") {
				t.Fatalf("bad paging error for %q: %#v", q, err)
			}
		}
		inc, err := r.Includes([]string{"images", "filteringParameters"})
		if err != nil {
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Instance != "include" {
				t.Fatalf("bad include error for %q: %#v", q, err)
			}
			return
		}
		for k := range inc {
			if k != "images" && k != "filteringParameters" {
				t.Fatalf("unknown section %q accepted", k)
			}
		}
	})
}
