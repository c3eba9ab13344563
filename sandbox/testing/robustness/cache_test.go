package robustness

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestReadsFollowWrites guards the render cache of detail and list
// answers: a repeated read answers the same data, and a write between
// two reads shows in the second (detail and list alike).
func TestReadsFollowWrites(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	var list struct {
		Products []struct {
			GUID string `json:"guid"`
			Name string `json:"name"`
		} `json:"products"`
	}
	listPath := "/api/products?itemsPerPage=1"
	s.Do(sandboxtest.Call{Path: listPath, PrivateToken: privateToken}).Data(t, &list)
	guid := list.Products[0].GUID
	detail := "/api/products/" + guid
	first := s.Do(sandboxtest.Call{Path: detail, PrivateToken: privateToken})
	second := s.Do(sandboxtest.Call{Path: detail, PrivateToken: privateToken})
	if first.Status != http.StatusOK || !bytes.Equal(first.Env.Data, second.Env.Data) {
		t.Fatalf("two reads without a write differ:\n%s\n%s", first.Env.Data, second.Env.Data)
	}
	for i, name := range []string{"Cache check one", "Cache check two"} {
		if r := s.Do(sandboxtest.Call{Method: http.MethodPatch, Path: detail, PrivateToken: privateToken,
			Body: map[string]any{"data": map[string]any{"name": name}}}); r.Status != http.StatusOK {
			t.Fatalf("PATCH %d: %d %s", i, r.Status, r.Body)
		}
		var got struct {
			Name string `json:"name"`
		}
		s.Do(sandboxtest.Call{Path: detail, PrivateToken: privateToken}).Data(t, &got)
		if got.Name != name {
			t.Errorf("detail after PATCH %d shows %q, want %q", i, got.Name, name)
		}
		s.Do(sandboxtest.Call{Path: listPath, PrivateToken: privateToken}).Data(t, &list)
		if list.Products[0].Name != name {
			t.Errorf("list after PATCH %d shows %q, want %q", i, list.Products[0].Name, name)
		}
	}
}
