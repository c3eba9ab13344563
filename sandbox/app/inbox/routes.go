package inbox

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// maxBody caps a delivery's body; webhook bodies are a few hundred bytes.
const maxBody = 1 << 20

const namedPath = PathPrefix + "{name}"

// Routes are the inbox's control routes.
func (b *Inbox) Routes() []api.Route {
	return []api.Route{
		{Operation: "sandbox.inbox.list", Method: http.MethodGet, Path: strings.TrimSuffix(PathPrefix, "/"), Handler: b.names, Answer: map[string]any{"inboxes": api.Doc([]Summary{}, "The inboxes that received something.")},
			Summary: "The webhook inboxes that received something, with their counts"},
		{Operation: "sandbox.inbox.get", Method: http.MethodGet, Path: namedPath, Handler: b.get, Answer: View{},
			Summary: "What a webhook inbox received: event, body, signature check, time (?wait=5s&count=N waits for N)"},
		{Operation: "sandbox.inbox.receive", Method: http.MethodPost, Path: namedPath, Handler: b.receive, Answer: Entry{}, Body: WebhookBody{},
			Summary: "A webhook receiver inside the sandbox: register {base_url}/_sandbox/inbox/<name> as a webhook URL"},
		{Operation: "sandbox.inbox.clear", Method: http.MethodDelete, Path: namedPath, Handler: b.clear, Answer: map[string]any{"name": api.Doc("", "The inbox emptied."), "cleared": api.Doc(0, "How many entries it held.")},
			Summary: "Empty a webhook inbox"},
	}
}

// WebhookBody is what a webhook delivery posts to an inbox: the service's
// notification payload.
type WebhookBody struct {
	EshopID       int    `json:"eshopId" doc:"The e-shop the event happened in."`
	Event         string `json:"event" doc:"The event, e.g. order:create."`
	EventCreated  string `json:"eventCreated" doc:"When it happened (ISO 8601)."`
	EventInstance string `json:"eventInstance" doc:"The changed entity's identifier."`
}

func (b *Inbox) name(r *api.Request) (string, error) {
	name := r.Var("name")
	if !ValidName(name) {
		return "", sandbox.Invalid("name", "An inbox name is 1 to 64 letters, digits, dots, dashes or underscores, not %q.", clip(name))
	}
	return name, nil
}

func (b *Inbox) names(*api.Request) (any, error) {
	return map[string]any{"inboxes": b.Names()}, nil
}

func (b *Inbox) get(r *api.Request) (any, error) {
	name, err := b.name(r)
	if err != nil {
		return nil, err
	}
	var wait time.Duration
	if s := r.Query("wait"); s != "" {
		if wait, err = time.ParseDuration(s); err != nil || wait < 0 || wait > MaxWait {
			return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "wait",
				"Query parameter wait is a duration up to %s, e.g. 5s, not %q.", MaxWait, clip(s))
		}
	}
	count := 1
	if s := r.Query("count"); s != "" {
		if count, err = strconv.Atoi(s); err != nil || count < 1 || count > MaxEntries {
			return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "count",
				"Query parameter count is a whole number from 1 to %d, not %q.", MaxEntries, clip(s))
		}
	}
	v := b.List(r.Context(), name, count, wait)
	v.URL = b.url(name)
	return v, nil
}

func (b *Inbox) url(name string) string {
	if b.Bases != nil {
		if bases := b.Bases(); len(bases) > 0 {
			return bases[0] + PathPrefix + name
		}
	}
	return PathPrefix + name
}

func (b *Inbox) receive(r *api.Request) (any, error) {
	name, err := b.name(r)
	if err != nil {
		return nil, err
	}
	return b.Receive(name, r.Header, r.RawBody())
}

func (b *Inbox) clear(r *api.Request) (any, error) {
	name, err := b.name(r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"name": name, "cleared": b.Clear(name)}, nil
}

// serveLocal is the in-process receiver the dispatcher calls: the same
// answer as POST /_sandbox/inbox/<name>, without the HTTP server.
func (b *Inbox) serveLocal(w http.ResponseWriter, r *http.Request, name string) {
	body, err := api.ReadBody(r, maxBody)
	if err == nil {
		var e Entry
		if e, err = b.Receive(name, r.Header, body); err == nil {
			_ = api.WriteEnvelope(w, r, b.Headers, http.StatusOK, e, nil)
			return
		}
	}
	api.WriteError(w, r, b.Headers, err)
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
