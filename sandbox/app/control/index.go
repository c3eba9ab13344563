package control

import (
	"bytes"
	_ "embed"
	"html/template"
	"net/http"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/app/openapi"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// Where the index's links point (paths under the base URL).
const (
	harPath     = Prefix + "/traffic.har"
	trafficPath = Prefix + "/traffic"
	healthPath  = Prefix + "/health"
)

// Index is the data of GET /_sandbox/: everything the control plane
// offers, so a newcomer learns it from the URL that `sandbox up` prints.
type Index struct {
	Name    string       `json:"name"`
	Version string       `json:"version"`
	BaseURL string       `json:"baseUrl"`
	Links   IndexLinks   `json:"links"`
	Eshops  []EshopView  `json:"eshops"`
	Routes  []IndexRoute `json:"routes"`
}

// IndexLinks are the documents a person or a tool fetches next.
type IndexLinks struct {
	OpenAPI        string `json:"openapi"`        // the API surface
	ControlOpenAPI string `json:"controlOpenapi"` // the control plane
	HAR            string `json:"har"`            // recorded traffic
	Traffic        string `json:"traffic"`        // recorded traffic as JSON (?follow=1 streams)
	Health         string `json:"health"`
}

// IndexRoute is one control route of the live route table.
type IndexRoute struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	Summary   string `json:"summary"`
	Operation string `json:"operation"`
}

// ControlRoutes picks the control routes out of a route table, ordered by
// path then method, as the index lists them. A path without its trailing
// slash that the table also has with one (GET /_sandbox) is an alias and
// is left out.
func ControlRoutes(all []api.Route) []api.Route {
	slashed := map[string]bool{}
	for _, rt := range all {
		if strings.HasSuffix(rt.Path, "/") {
			slashed[rt.Method+" "+rt.Path] = true
		}
	}
	var out []api.Route
	for _, rt := range all {
		if rt.IsControl() && !slashed[rt.Method+" "+rt.Path+"/"] {
			out = append(out, rt)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Template(), out[j].Template()
		if a != b {
			return a < b
		}
		return methodRank(out[i].Method) < methodRank(out[j].Method)
	})
	return out
}

func methodRank(m string) int {
	return strings.Index("GET    POST   PUT    PATCH  DELETE", m)
}

func (c *controller) index(r *api.Request) (any, error) {
	eshops, err := c.eshopViews()
	if err != nil {
		return nil, err
	}
	base := c.d.Site.BaseURL
	version := c.d.Version
	if version == "" {
		version = "dev"
	}
	ix := Index{Name: "sandbox", Version: version, BaseURL: base, Eshops: eshops,
		Links: IndexLinks{OpenAPI: base + openapi.Path, ControlOpenAPI: base + openapi.ControlPath, HAR: base + harPath,
			Traffic: base + trafficPath, Health: base + healthPath}}
	if c.d.Routes != nil {
		for _, rt := range ControlRoutes(c.d.Routes()) {
			ix.Routes = append(ix.Routes, IndexRoute{Method: rt.Method, Path: rt.Template(), Summary: rt.Summary, Operation: rt.Operation})
		}
	}
	if !wantsHTML(r.Header.Get("Accept")) {
		return ix, nil
	}
	var buf bytes.Buffer
	if err := indexPage.Execute(&buf, ix); err != nil {
		return nil, err
	}
	return &api.Raw{Status: http.StatusOK, ContentType: "text/html; charset=utf-8", Body: buf.Bytes()}, nil
}

// wantsHTML says whether a client prefers a page to JSON: a browser names
// text/html before any JSON type; curl's */* and Accept: application/json
// get JSON.
func wantsHTML(accept string) bool {
	html := strings.Index(accept, "text/html")
	if html < 0 {
		return false
	}
	js := strings.Index(accept, "json")
	return js < 0 || html < js
}

//go:embed index.html
var indexHTML string

var indexPage = template.Must(template.New("index").Funcs(template.FuncMap{
	"linkable": func(rt IndexRoute) bool { return rt.Method == http.MethodGet && !strings.Contains(rt.Path, "{") },
}).Parse(indexHTML))
