package surface

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shape"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// putAsPost knows the reference's PUT endpoints. The client SDK sends
// them as POST (reference README, "Encoding quirks"), so a POST to one of
// their paths is taken as the PUT when the path has no POST endpoint, or
// when the body's data holds the PUT's fields and not the POST's
// (POST /api/products/{guid}/gifts adds one gift; with giftCodes it is
// SetGiftsToProduct).
type putAsPost struct {
	routes []putRoute
}

type putRoute struct {
	re       *regexp.Regexp
	hasPost  bool
	putKeys  map[string]bool
	postKeys map[string]bool
}

func newPutAsPost() (*putAsPost, error) {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, err
	}
	posts := map[string]string{}
	for _, e := range cat.Endpoints {
		if e.Method == http.MethodPost {
			posts[e.Path] = e.Operation
		}
	}
	p := &putAsPost{}
	for _, e := range cat.Endpoints {
		if e.Method != http.MethodPut {
			continue
		}
		rt := putRoute{re: pathPattern(e.Path), putKeys: keys(e.Operation)}
		if op, ok := posts[e.Path]; ok {
			rt.hasPost, rt.postKeys = true, keys(op)
		}
		p.routes = append(p.routes, rt)
	}
	return p, nil
}

// keys lists the data fields of an operation's request.
func keys(op string) map[string]bool {
	out := map[string]bool{}
	for _, k := range shape.Request(op).Resolve().Props() {
		out[k] = true
	}
	return out
}

var varRe = regexp.MustCompile(`\{[^/}]+\}`)

func pathPattern(path string) *regexp.Regexp {
	parts := varRe.Split(path, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, "[^/]+") + "$")
}

// Middleware rewrites such a POST into the PUT before routing.
func (s *Surface) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			for _, rt := range s.put.routes {
				if rt.re.MatchString(r.URL.Path) && s.put.isPut(rt, r) {
					r.Method = http.MethodPut
					break
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// isPut decides for a POST on a path with both methods by the body's data
// keys; the body is put back for the handler.
func (p *putAsPost) isPut(rt putRoute, r *http.Request) bool {
	if !rt.hasPost {
		return true
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, api.MaxBodyBytes+1))
	r.Body = io.NopCloser(bytes.NewReader(raw))
	if err != nil {
		return false
	}
	var body struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return false
	}
	put, post := false, false
	for k := range body.Data {
		put = put || rt.putKeys[k]
		post = post || rt.postKeys[k]
	}
	return put && !post
}
