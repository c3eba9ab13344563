package sandboxtest

import (
	"io/fs"
	"strconv"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/fixtures"
)

// Fixture reads a value from the embedded default fixtures with a gjson
// path, e.g. Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
// or Fixture(t, 1001, "products", "0.guid"). Tests take identifiers from
// the fixtures this way instead of hard-coding them.
func Fixture(t testing.TB, eshopID int, file, path string) string {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, "eshops/"+strconv.Itoa(eshopID)+"/"+file+".json")
	if err != nil {
		t.Fatal(err)
	}
	return gjson.GetBytes(raw, path).String()
}

// JSON sends a call with a private token and a JSON body given as a
// string ("" for none) and returns the status and the parsed answer, for
// terse assertions with gjson paths such as "data.order.code".
func (s *Server) JSON(method, path, privateToken, body string) (int, gjson.Result) {
	s.t.Helper()
	var b any
	if body != "" {
		b = body
	}
	r := s.Do(Call{Method: method, Path: path, PrivateToken: privateToken, Body: b})
	return r.Status, gjson.ParseBytes(r.Body)
}
