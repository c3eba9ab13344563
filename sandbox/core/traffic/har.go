package traffic

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// HAR is an HTTP Archive 1.2 document
// (http://www.softwareishard.com/blog/har-12-spec/), the format browsers'
// developer tools import. Sandbox-specific facts go in fields starting
// with an underscore, as the format allows.
type HAR struct {
	Log HARLog `json:"log"`
}

// HARLog is the archive's root object.
type HARLog struct {
	Version string     `json:"version"`
	Creator HARCreator `json:"creator"`
	Pages   []struct{} `json:"pages"` // always empty: the calls belong to no page, but some viewers want the list
	Entries []HAREntry `json:"entries"`
	Comment string     `json:"comment,omitempty"`
}

// HARCreator names the program that wrote the archive.
type HARCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HAREntry is one exchange: an API call, or one webhook delivery attempt.
type HAREntry struct {
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"` // milliseconds
	Request         HARRequest  `json:"request"`
	Response        HARResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         HARTimings  `json:"timings"`
	Comment         string      `json:"comment,omitempty"`

	Type       string `json:"_type"` // call or webhook
	RequestID  string `json:"_requestId,omitempty"`
	Eshop      int    `json:"_eshop,omitempty"`
	TokenKind  string `json:"_tokenKind,omitempty"`
	Operation  string `json:"_operation,omitempty"`
	Fault      string `json:"_fault,omitempty"`
	DeliveryID string `json:"_deliveryId,omitempty"`
	Attempt    int    `json:"_attempt,omitempty"`
	Event      string `json:"_event,omitempty"`
	Instance   string `json:"_instance,omitempty"`
	Error      string `json:"_error,omitempty"`
	NextTry    string `json:"_nextTry,omitempty"`
}

// HARRequest is an entry's request.
type HARRequest struct {
	Method      string       `json:"method"`
	URL         string       `json:"url"`
	HTTPVersion string       `json:"httpVersion"`
	Cookies     []HARNameVal `json:"cookies"`
	Headers     []HARNameVal `json:"headers"`
	QueryString []HARNameVal `json:"queryString"`
	PostData    *HARPostData `json:"postData,omitempty"`
	HeadersSize int          `json:"headersSize"`
	BodySize    int64        `json:"bodySize"`
	Comment     string       `json:"comment,omitempty"`
}

// HARResponse is an entry's response.
type HARResponse struct {
	Status      int          `json:"status"`
	StatusText  string       `json:"statusText"`
	HTTPVersion string       `json:"httpVersion"`
	Cookies     []HARNameVal `json:"cookies"`
	Headers     []HARNameVal `json:"headers"`
	Content     HARContent   `json:"content"`
	RedirectURL string       `json:"redirectURL"`
	HeadersSize int          `json:"headersSize"`
	BodySize    int64        `json:"bodySize"`
	Comment     string       `json:"comment,omitempty"`
}

// HARNameVal is a header, query parameter or cookie.
type HARNameVal struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// HARPostData is a request body.
type HARPostData struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
	Comment  string `json:"comment,omitempty"`
	Encoding string `json:"_encoding,omitempty"` // base64 for a binary body (HAR has no field for it here)
}

// HARContent is a response body.
type HARContent struct {
	Size     int64  `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Encoding string `json:"encoding,omitempty"`
	Comment  string `json:"comment,omitempty"`
}

// HARTimings splits an entry's time; the sandbox only knows the wait.
type HARTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
	SSL     float64 `json:"ssl"`
}

// HAROptions say how to turn recorded paths into URLs.
type HAROptions struct {
	BaseURL string // the sandbox's base URL, prefixed to call paths
	Version string // creator version
	Headers sandbox.Headers
}

// harTime is the ISO 8601 form HAR wants, with milliseconds.
const harTime = "2006-01-02T15:04:05.000Z07:00"

// BuildHAR turns recorded events into an archive, ordered by start time.
// Clock moves are not exchanges and are left out.
func BuildHAR(events []Event, o HAROptions) HAR {
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Headers.WebhookSig == "" {
		o.Headers = sandbox.NewHeaders("")
	}
	entries := make([]HAREntry, 0, len(events))
	for _, ev := range events {
		switch {
		case ev.Call != nil:
			entries = append(entries, callEntry(ev.Call, o))
		case ev.Delivery != nil && ev.Type != TypeQueued: // a queued notification sent nothing yet
			entries = append(entries, deliveryEntry(ev.Delivery, o))
		}
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].StartedDateTime < entries[j].StartedDateTime })
	return HAR{Log: HARLog{Version: "1.2", Creator: HARCreator{Name: "sandbox", Version: o.Version}, Pages: []struct{}{}, Entries: entries,
		Comment: "API calls to the sandbox and its webhook delivery attempts (_type call or webhook)."}}
}

func callEntry(c *bus.Call, o HAROptions) HAREntry {
	ms := millis(c.Duration)
	u := strings.TrimRight(o.BaseURL, "/") + c.Path
	if o.BaseURL == "" {
		u = "http://sandbox" + c.Path
	}
	req := HARRequest{Method: c.Method, URL: u, HTTPVersion: "HTTP/1.1", Cookies: requestCookies(c.ReqHeader),
		Headers: nameVals(c.ReqHeader), QueryString: queryOf(c.Path), HeadersSize: -1, BodySize: c.ReqBodySize}
	if len(c.ReqBody) > 0 || c.ReqBodySize > 0 {
		text, enc := bodyText(c.ReqBody)
		req.PostData = &HARPostData{MimeType: mimeOr(c.ReqHeader.Get("Content-Type"), "application/octet-stream"), Text: text, Encoding: enc}
		if c.ReqBodySize > int64(len(c.ReqBody)) {
			req.PostData.Comment = fmt.Sprintf("truncated: the sandbox kept %d of %d bytes", len(c.ReqBody), c.ReqBodySize)
		}
	}
	if req.BodySize == 0 {
		req.BodySize = int64(len(c.ReqBody))
	}
	resp := HARResponse{Status: c.Status, StatusText: http.StatusText(c.Status), HTTPVersion: "HTTP/1.1",
		Cookies: responseCookies(c.RespHeader), Headers: nameVals(c.RespHeader), RedirectURL: c.RespHeader.Get("Location"),
		HeadersSize: -1, BodySize: max(c.RespBodySize, int64(c.RespBody.Len()))}
	text, enc := bodyText(c.RespBody.Bytes())
	resp.Content = HARContent{Size: resp.BodySize, MimeType: mimeOr(c.RespHeader.Get("Content-Type"), "x-unknown"), Text: text, Encoding: enc}
	if resp.BodySize > int64(c.RespBody.Len()) {
		resp.Content.Comment = fmt.Sprintf("truncated: the sandbox kept %d of %d bytes", c.RespBody.Len(), resp.BodySize)
	}
	return HAREntry{StartedDateTime: c.Time.Format(harTime), Time: ms, Request: req, Response: resp,
		Timings: HARTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1, Wait: ms},
		Type:    "call", RequestID: c.ID, Eshop: c.Eshop, TokenKind: c.TokenKind, Operation: c.Operation, Fault: c.Fault}
}

func deliveryEntry(d *bus.Delivery, o HAROptions) HAREntry {
	ms := millis(d.Duration)
	u := d.URL
	if _, err := url.ParseRequestURI(u); err != nil || u == "" {
		u = "about:blank"
	}
	headers := []HARNameVal{{Name: "Content-Type", Value: "application/json"}}
	if d.Signature != "" {
		headers = append(headers, HARNameVal{Name: o.Headers.WebhookSig, Value: d.Signature})
	}
	text, enc := bodyText(d.ReqBody)
	req := HARRequest{Method: http.MethodPost, URL: u, HTTPVersion: "HTTP/1.1", Cookies: []HARNameVal{}, Headers: headers,
		QueryString: queryOf(u), HeadersSize: -1, BodySize: int64(len(d.ReqBody)),
		PostData: &HARPostData{MimeType: "application/json", Text: text, Encoding: enc}}
	rtext, renc := bodyText(d.RespBody)
	resp := HARResponse{Status: d.Status, StatusText: http.StatusText(d.Status), HTTPVersion: "HTTP/1.1",
		Cookies: []HARNameVal{}, Headers: []HARNameVal{}, HeadersSize: -1, BodySize: int64(len(d.RespBody)),
		Content: HARContent{Size: int64(len(d.RespBody)), MimeType: "x-unknown", Text: rtext, Encoding: renc}}
	if d.Status == 0 {
		resp.BodySize = -1
		resp.Comment = "no answer: " + d.Error
	}
	e := HAREntry{StartedDateTime: d.Time.Format(harTime), Time: ms, Request: req, Response: resp,
		Timings: HARTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1, Wait: ms},
		Comment: fmt.Sprintf("webhook %s %s, attempt %d", d.Event, d.Instance, d.Attempt),
		Type:    "webhook", Eshop: d.Eshop, DeliveryID: d.ID, Attempt: d.Attempt, Event: d.Event, Instance: d.Instance, Error: d.Error, Fault: d.Fault}
	if d.NextTry != nil {
		e.NextTry = d.NextTry.Format(harTime)
	}
	return e
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mimeOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// bodyText is a body as HAR text: itself when it is UTF-8, else base64.
func bodyText(b []byte) (text, encoding string) {
	if utf8.Valid(b) {
		return string(b), ""
	}
	return base64.StdEncoding.EncodeToString(b), "base64"
}

// nameVals lists headers sorted by name, one entry per value.
func nameVals(h http.Header) []HARNameVal {
	out := []HARNameVal{}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range h[k] {
			out = append(out, HARNameVal{Name: k, Value: v})
		}
	}
	return out
}

func queryOf(pathOrURL string) []HARNameVal {
	out := []HARNameVal{}
	_, raw, ok := strings.Cut(pathOrURL, "?")
	if !ok {
		return out
	}
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		out = append(out, HARNameVal{Name: k, Value: v})
	}
	return out
}

func requestCookies(h http.Header) []HARNameVal {
	out := []HARNameVal{}
	for _, c := range (&http.Request{Header: h}).Cookies() {
		out = append(out, HARNameVal{Name: c.Name, Value: c.Value})
	}
	return out
}

func responseCookies(h http.Header) []HARNameVal {
	out := []HARNameVal{}
	for _, c := range (&http.Response{Header: h}).Cookies() {
		out = append(out, HARNameVal{Name: c.Name, Value: c.Value})
	}
	return out
}
