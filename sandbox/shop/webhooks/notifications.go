package webhooks

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Notification statuses.
const (
	StatusPending   = "pending"   // queued, or waiting for its next attempt
	StatusDelivered = "delivered" // the receiver answered 2xx
	StatusFailed    = "failed"    // every attempt failed; no further attempt
)

// Notification is one event sent to one receiver, with every attempt.
// It is stored in the global NotificationsCollection.
type Notification struct {
	ID        int       `json:"id"`              // the delivery's id, for POST /_sandbox/deliveries/{id}/replay
	EshopID   int       `json:"eshopId"`         // the e-shop whose event it is
	WebhookID int       `json:"webhookId"`       // 0 for a system event sent to an add-on
	Addon     string    `json:"addon,omitempty"` // the add-on a system event went to
	URL       string    `json:"url"`             // the receiver's address
	Event     string    `json:"event"`           // the event, e.g. order:create
	Instance  string    `json:"eventInstance"`   // the changed entity's identifier, as in the payload
	EventTime time.Time `json:"eventCreated"`    // when the event happened (sandbox clock), as in the payload
	Created   time.Time `json:"created"`         // when the notification was queued (sandbox clock)
	// Body is the exact request body; every attempt sends these bytes.
	Body     string     `json:"body"`
	Status   string     `json:"status" enum:"pending|delivered|failed" doc:"Where the notification is: pending (attempts to come), delivered (a receiver answered 2xx) or failed (attempts exhausted). The receiver's HTTP answer is each attempt's responseStatus."`
	NextTry  *time.Time `json:"nextTry,omitempty"`  // when the next attempt is due (sandbox clock); absent once settled
	ReplayOf int        `json:"replayOf,omitempty"` // the delivery this one replays
	// Canceled says why a delivery was settled without its attempts (its
	// add-on was removed or uninstalled; see ForgetAddon).
	Canceled string    `json:"canceled,omitempty"`
	Attempts []Attempt `json:"attempts"` // every try to deliver it, oldest first
}

// Attempt is one try to deliver a notification.
type Attempt struct {
	N            int               `json:"attempt"`        // 1 for the first try
	Time         time.Time         `json:"time"`           // sandbox clock
	DurationMs   int64             `json:"durationMs"`     // wall time the receiver took
	Headers      map[string]string `json:"requestHeaders"` // the request headers sent, signature included
	Signature    string            `json:"signature"`      // "" when the e-shop has no signature key yet
	Status       int               `json:"responseStatus" doc:"The HTTP status the receiver answered (0 when it could not be reached)."`
	ResponseBody string            `json:"responseBody,omitempty"` // the first bytes the receiver answered
	Error        string            `json:"error,omitempty"`        // why the receiver could not be reached or answered too late
}

func notificationID(n int) string { return strconv.Itoa(n) }

// LoadNotification reads a notification by id; 404 when unknown.
func LoadNotification(tx *store.Tx, id string) (*Notification, error) {
	raw, err := tx.Get(store.Global, NotificationsCollection, id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(id, "Delivery %s does not exist; GET /_sandbox/deliveries lists them.", id)
	}
	if err != nil {
		return nil, err
	}
	var n Notification
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, err
	}
	return &n, nil
}

func saveNotification(tx *store.Tx, n *Notification) error {
	raw, err := json.Marshal(n)
	if err != nil {
		return err
	}
	_, err = tx.Put(store.Global, NotificationsCollection, notificationID(n.ID), raw)
	return err
}

// newNotification stores a pending notification under a fresh id.
func newNotification(tx *store.Tx, n *Notification) error {
	id, err := tx.Next(store.Global, NotificationsCollection)
	if err != nil {
		return err
	}
	n.ID = int(id)
	n.Status = StatusPending
	n.Created = tx.Now()
	if n.Attempts == nil {
		n.Attempts = []Attempt{}
	}
	return saveNotification(tx, n)
}

// View is a notification as the reference's notification history shows
// it (WebhookNotification).
type View struct {
	ID           int         `json:"id"`
	WebhookID    int         `json:"webhookId"`
	WebhookURL   string      `json:"webhookUrl"`
	Event        string      `json:"event"`
	EventCreated *string     `json:"eventCreated"`
	Created      *string     `json:"created"`
	Attempted    *string     `json:"attempted"`
	Attempts     int         `json:"attempts"`
	Status       string      `json:"status"`
	Active       bool        `json:"active"`
	Data         PayloadView `json:"data"`
}

// PayloadView is the payload as an object (NotificationData).
type PayloadView struct {
	EshopID       int     `json:"eshopId"`
	Event         string  `json:"event"`
	EventCreated  *string `json:"eventCreated"`
	EventInstance string  `json:"eventInstance"`
}

// APIView renders the notification for GET /api/webhooks/notifications.
func (n *Notification) APIView() View {
	v := View{ID: n.ID, WebhookID: n.WebhookID, WebhookURL: n.URL, Event: n.Event,
		EventCreated: formatPtr(n.EventTime), Created: formatPtr(n.Created),
		Attempts: len(n.Attempts), Status: n.Status, Active: n.Status == StatusPending,
		Data: PayloadView{EshopID: n.EshopID, Event: n.Event, EventCreated: formatPtr(n.EventTime), EventInstance: n.Instance}}
	if k := len(n.Attempts); k > 0 {
		v.Attempted = formatPtr(n.Attempts[k-1].Time)
	}
	return v
}
