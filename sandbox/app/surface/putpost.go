package surface

import (
	"net/http"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// PutAsPost lists the reference's PUT endpoints as aliases: the client
// library sends them as POST (reference README, "Encoding quirks"), so a
// POST to one of their paths is the PUT when the path has no POST
// endpoint, or when the body's data holds the PUT's fields and not the
// POST's (POST /api/products/{guid}/gifts adds one gift; with giftCodes
// it is SetGiftsToProduct). They are routes of the PUT's operation, so
// rights, faults, traffic rows and deprecations name the PUT.
func PutAsPost() (map[string][]api.Alias, error) {
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
	out := map[string][]api.Alias{}
	for _, e := range cat.Endpoints {
		if e.Method != http.MethodPut {
			continue
		}
		a := api.Alias{Method: http.MethodPost, Path: e.Path}
		if op, ok := posts[e.Path]; ok {
			a.When = bodyOf(keys(e.Operation), keys(op))
		}
		out[e.Operation] = append(out[e.Operation], a)
	}
	return out, nil
}

// keys lists the data fields of an operation's request.
func keys(op string) map[string]bool {
	out := map[string]bool{}
	for _, k := range shape.Request(op).Resolve().Props() {
		out[k] = true
	}
	return out
}

// bodyOf decides for a POST on a path with both methods: the PUT when the
// body's data holds a field of the PUT's and none of the POST's.
func bodyOf(putKeys, postKeys map[string]bool) func(body []byte) bool {
	return func(raw []byte) bool {
		var body map[string]any
		if _, err := api.Decode(raw, &body, api.Decoding{}); err != nil {
			return false
		}
		data, _ := body["data"].(map[string]any)
		put, post := false, false
		for k := range data {
			put = put || putKeys[k]
			post = post || postKeys[k]
		}
		return put && !post
	}
}
