package bus

import (
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Call is the TopicCall payload: one finished request to the sandbox,
// as the traffic tap saw it, with what the server's pipeline
// resolved about it (route and token), so that no consumer (the contract
// report, the runner, certify, the terminal UI) routes the path or reads
// the token headers again. An alias or method variant of a route (a PUT
// sent as POST) has the operation and template of the route it serves;
// the token is taken with the precedence of authentication (auth.TokenOf).
type Call struct {
	ID          string            `json:"id"`                    // the request id
	Time        time.Time         `json:"time"`                  // when the call came (sandbox clock)
	Duration    time.Duration     `json:"duration"`              // how long the answer took, in nanoseconds
	Eshop       int               `json:"eshop,omitempty"`       // the e-shop called
	TokenKind   string            `json:"tokenKind,omitempty"`   // private, addon or ""
	Method      string            `json:"method"`                // the HTTP method
	Path        string            `json:"path"`                  // with query
	Operation   string            `json:"operation,omitempty"`   // the operation, e.g. GetListOfOrders
	Area        string            `json:"area,omitempty"`        // the part of the sandbox called: api, control, eshop or other
	Route       string            `json:"route,omitempty"`       // the route's path template, e.g. /api/orders/{code} ("" when none matched)
	Params      map[string]string `json:"params,omitempty"`      // the route's path parameters, e.g. code
	Token       string            `json:"token,omitempty"`       // the token sent ("" for none)
	TokenHeader string            `json:"tokenHeader,omitempty"` // the header it came in
	AccessMode  string            `json:"accessMode,omitempty"`  // the access mode that header claims: addon or private
	Addon       string            `json:"addon,omitempty"`       // the add-on the token was issued to, when the sandbox knows it

	Status     int         `json:"status"`                    // the HTTP status answered
	Fault      string      `json:"fault,omitempty"`           // name of an applied scripted fault
	ReqHeader  http.Header `json:"requestHeaders,omitempty"`  // the request headers
	ReqBody    []byte      `json:"requestBody,omitempty"`     // the request body (base64), capped
	RespHeader http.Header `json:"responseHeaders,omitempty"` // the answer's headers
	RespBody   Body        `json:"responseBody,omitzero"`     // the answer's body, capped
	RemoteAddr string      `json:"remoteAddr,omitempty"`      // the caller's address
	// Received is when the sandbox began recording the call, on the wall
	// clock with its monotonic reading; Received+Duration is when the
	// answer was complete. The contract report orders calls by these
	// (the sandbox clock in Time may stand still or jump): a call is
	// judged only against the answers its client could have read before
	// sending it. Zero when the producer did not set it.
	Received time.Time `json:"-"`
	// Bodies are capped by the tap: the sizes are the full lengths,
	// larger than the kept bytes when Truncated is set.
	ReqBodySize  int64 `json:"requestBodySize,omitempty"`
	RespBodySize int64 `json:"responseBodySize,omitempty"` // the answer body's full length
	Truncated    bool  `json:"truncated,omitempty"`        // whether a body was cut to the cap
}

// Areas of Call.Area (api.Area's names).
const (
	AreaAPI     = "api"
	AreaControl = "control"
	AreaEshop   = "eshop"
	AreaOther   = "other"
)

// Control reports whether the call went to the sandbox's control plane.
func (c *Call) Control() bool { return c.Area == AreaControl }

// API reports whether the call went to the service's API (/api/...).
func (c *Call) API() bool { return c.Area == AreaAPI }

// URLPath is the call's path without its query, for path patterns (a
// fault's or an expectation's); the route is in Operation, Route and
// Params.
func (c *Call) URLPath() string {
	if i := strings.IndexByte(c.Path, '?'); i >= 0 {
		return c.Path[:i]
	}
	return c.Path
}

// Query is the call's query (empty for none or one that does not parse).
func (c *Call) Query() url.Values {
	i := strings.IndexByte(c.Path, '?')
	if i < 0 {
		return url.Values{}
	}
	q, _ := url.ParseQuery(c.Path[i+1:])
	if q == nil {
		q = url.Values{}
	}
	return q
}

// Delivery is the TopicDelivery payload: one attempt to deliver a webhook
// notification to a receiver.
type Delivery struct {
	ID        string        `json:"id"`                     // delivery id (the same for every attempt of one notification)
	Attempt   int           `json:"attempt"`                // 1 for the first try
	Time      time.Time     `json:"time"`                   // when the attempt started (sandbox clock)
	Duration  time.Duration `json:"duration"`               // how long the receiver took
	Eshop     int           `json:"eshop"`                  // e-shop the event belongs to
	Event     string        `json:"event"`                  // e.g. order:create
	Instance  string        `json:"instance"`               // eventInstance
	URL       string        `json:"url"`                    // receiver
	Signature string        `json:"signature"`              // the signature header value sent
	Status    int           `json:"status"`                 // receiver's HTTP status, 0 when no answer
	Error     string        `json:"error"`                  // transport error or timeout, "" when answered
	Final     bool          `json:"final"`                  // no further attempt will follow
	Succeeded bool          `json:"succeeded"`              // receiver answered 2xx
	ReqBody   []byte        `json:"requestBody,omitempty"`  // the notification body sent (base64)
	RespBody  []byte        `json:"responseBody,omitempty"` // what the receiver answered (base64), capped
	NextTry   *time.Time    `json:"nextTry,omitempty"`      // when the next attempt is due, if any
	Fault     string        `json:"fault,omitempty"`        // name of a scripted fault applied to the attempt
}

// JobChange is the TopicJob payload: an asynchronous job changed state.
type JobChange struct {
	Eshop    int       `json:"eshop"`
	JobID    string    `json:"jobId"`
	Endpoint string    `json:"endpoint"`
	Status   string    `json:"status"` // pending, running, completed, failed, killed
	Time     time.Time `json:"time"`
}

// Fault is the TopicFault payload: a scripted fault was applied to a call
// or a delivery.
type Fault struct {
	Name      string    `json:"name"`
	Kind      string    `json:"kind"`
	RequestID string    `json:"requestId,omitempty"`
	Time      time.Time `json:"time"`
}

// ClockMove is the TopicClock payload.
type ClockMove struct {
	Now    time.Time     `json:"now"`    // the sandbox clock after the move
	Offset time.Duration `json:"offset"` // its distance from the wall clock, in nanoseconds
}

// Kinds of PaymentStep.
const (
	PaymentResult = "result" // PATCH /api/payment-status/{paymentCode} stored a result
	PaymentStatus = "status" // a status call set an order's status (single or bulk)
)

// PaymentStep is the TopicPayment payload: one committed step of the
// payment-gateway flow (spec: payment flow step 6), as the contract report
// pairs them. The payments and orders packages publish it after the
// change is committed, with what the store knew inside that transaction.
type PaymentStep struct {
	Kind        string `json:"kind"` // PaymentResult or PaymentStatus
	Eshop       int    `json:"eshop"`
	Order       string `json:"order"`                 // the order's code
	PaymentCode string `json:"paymentCode,omitempty"` // PaymentResult: the one-time code
	Result      string `json:"result,omitempty"`      // PaymentResult: paid, failed, ...
	StatusID    int    `json:"statusId"`              // PaymentResult: the status the e-shop maps the result to; PaymentStatus: the status set
	StatusName  string `json:"statusName,omitempty"`
	// StatusDue (PaymentResult): the order's status differs from the
	// mapped one and the order is neither canceled nor already paid, so a
	// status call is due.
	StatusDue bool `json:"statusDue,omitempty"`
	// MarksPaid (PaymentStatus): the call marks an order paid online (a
	// status with markAsPaid, or paid true) while none of its payments has
	// the result paid.
	MarksPaid bool      `json:"marksPaid,omitempty"`
	Time      time.Time `json:"time"` // sandbox clock
	RequestID string    `json:"requestId,omitempty"`
	TokenKind string    `json:"tokenKind,omitempty"`
	Method    string    `json:"method,omitempty"`
	Path      string    `json:"path,omitempty"`
	Operation string    `json:"operation,omitempty"`
	Agent     string    `json:"-"` // the call's User-Agent (the report skips the scenario runner's)
}

// Call returns the call a TopicCall message carries, sent by value or by
// pointer (nil for any other payload).
func (m Message) Call() *Call {
	switch c := m.Data.(type) {
	case Call:
		return &c
	case *Call:
		return c
	}
	return nil
}

// Delivery returns the delivery a TopicDelivery or TopicQueued message
// carries, sent by value or by pointer (nil for any other payload).
func (m Message) Delivery() *Delivery {
	switch d := m.Data.(type) {
	case Delivery:
		return &d
	case *Delivery:
		return d
	}
	return nil
}
