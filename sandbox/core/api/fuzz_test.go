package api

import (
	"errors"
	"net"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/hostile"
)

// FuzzDecodeJSON: any bytes either decode or give a 422 naming the body;
// never a panic, never another kind of error. The seeds include the
// hostile inputs (alias bomb, deep nesting, invalid UTF-8, a very long
// line).
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"data":{}}`, `{"data":[1,2,{"a":"b"}]}`, `{`, ``, "\xff", `{"a":1} x`, `[[[[[[[[]]]]]]]]`, `{"n":1e400}`, `"str"`} {
		f.Add([]byte(s))
	}
	for _, in := range hostile.Inputs() {
		f.Add(in.Data)
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

// FuzzEdges: the Host check and the route matcher take any host and path
// without panicking; an allowed host is a loopback name or a configured
// one, and an unclean path never reaches a route.
func FuzzEdges(f *testing.F) {
	for _, s := range [][2]string{{"127.0.0.1:8080", "/api/orders"}, {"[::1]", "/api//orders"}, {"LOCALHOST.", "/api/products/%2e%2e"},
		{"evil.example", "/_sandbox/"}, {"[::ffff:127.0.0.1]:1", "/eshops/1001/"}, {"sandbox.test:8080", "/./"}, {"", "/api/orders/../x"}} {
		f.Add(s[0], s[1])
	}
	hosts, err := NewHosts("127.0.0.1:8080", "http://sandbox.test:8080")
	if err != nil {
		f.Fatal(err)
	}
	m := newMatcher()
	m.add([]*Route{{Operation: "a", Method: "GET", Path: "/api/orders"}, {Operation: "b", Method: "GET", Path: "/api/orders/{code}"},
		{Operation: "c", Method: "GET", Path: "/eshops/{eshopId:[0-9]+}/"}, {Operation: "d", Method: "GET", Path: "/_sandbox/"}})
	f.Fuzz(func(t *testing.T, host, path string) {
		if hosts.Allows(host) && host != "" {
			h := normalHost(hostOnly(host))
			if ip := net.ParseIP(h); !(h == "localhost" || h == "sandbox.test" || h == "127.0.0.1" || (ip != nil && ip.IsLoopback())) {
				t.Fatalf("Host %q (%q) allowed", host, h)
			}
		}
		u, err := url.Parse("http://x" + path)
		if err != nil || !strings.HasPrefix(path, "/") {
			return
		}
		r := httptest.NewRequest("GET", "http://x/", nil)
		r.URL = u
		if es, _ := m.match(r); len(es) > 0 && !clean(u.Path) {
			t.Fatalf("unclean path %q matched %s", u.Path, es[0].route.Operation)
		}
	})
}

// FuzzCheckQuery: any value of any query kind is either accepted, and then
// reads as that kind (a whole number parses as an int64, a number as a
// decimal, a date-time with sandbox.ParseTime, ...), or refused with 400
// invalid-parameter naming the parameter; never a panic.
func FuzzCheckQuery(f *testing.F) {
	for _, s := range []string{"1", "-1", "abc", "21.00", ".5", "5.", "-", "+", "1e3", "NaN", "true", "FALSE", "banana",
		"2024-01-31", "2024-02-30", "2024-01-31T12:00:00+0100", "2024-01-31T12:00:00 0100", "2024-01-31T12:00:00Z",
		"3f2504e0-4f89-41d3-9a0c-0305e82c3301", "3F2504E0-4F89-41D3-9A0C-0305E82C3301,", "not-a-guid", "add", "\x00", "999999999999999999999"} {
		for k := QueryText; k <= QueryNumberOrBoolean; k++ {
			f.Add(uint8(k), s)
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, v string) {
		k := QueryKind(kind % uint8(QueryNumberOrBoolean+1))
		p := QueryParam{Name: "p", Kind: k, Enum: []string{"add", "edit", "delete"}}
		err := CheckQuery([]QueryParam{p}, url.Values{"p": {v}})
		if err != nil {
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Kind != sandbox.KindInvalid || se.Code != sandbox.CodeInvalidParameter ||
				se.Instance != "p" || !strings.Contains(se.Message, "Query parameter p ") {
				t.Fatalf("kind %d, %q: bad error %#v", k, v, err)
			}
			return
		}
		if v == "" {
			return
		}
		ok := true
		switch k {
		case QueryPositive:
			n, e := strconv.Atoi(v)
			ok = e == nil && n >= 1
		case QueryInteger:
			_, e := strconv.ParseInt(v, 10, 64)
			ok = e == nil
		case QueryNumber:
			_, e := decimal.NewFromString(v)
			ok = e == nil
		case QueryBoolean:
			_, ok = parseBool(v)
		case QueryDate:
			_, e := time.Parse("2006-01-02", v)
			_, e2 := sandbox.ParseTime(plusFromSpace(v))
			ok = e == nil || e2 == nil
		case QueryDateTime:
			_, e := sandbox.ParseTime(plusFromSpace(v))
			ok = e == nil
		case QueryGUID:
			ok = isGUID(v)
		case QueryGUIDList:
			for _, g := range strings.Split(v, ",") {
				ok = ok && (strings.TrimSpace(g) == "" || isGUID(strings.TrimSpace(g)))
			}
		case QueryEnum:
			ok = v == "add" || v == "edit" || v == "delete"
		case QueryNumberOrBoolean:
			_, b := parseBool(v)
			_, e := decimal.NewFromString(v)
			ok = b || e == nil
		}
		if !ok {
			t.Fatalf("kind %d accepted %q", k, v)
		}
	})
}
