package sandbox

import "time"

// Event is one domain event (a webhook trigger such as order:create) or a
// telemetry record. Stores collect events inside a transaction and publish
// them only after it commits, so nobody hears of a change that was rolled
// back.
type Event struct {
	EshopID  int       `json:"eshopId"`
	Kind     string    `json:"event"`
	Instance string    `json:"eventInstance"`
	Time     time.Time `json:"eventCreated"`
	// Addon, for the system events addon:suspend, addon:approve,
	// addon:terminate and addon:uninstall, names the add-on that receives
	// the notification at its configured webhook URL.
	Addon string `json:"-"`
}

// Publisher receives committed events. Implementations must not block.
type Publisher interface {
	Publish(events ...Event)
}

// PublisherFunc adapts a function to Publisher.
type PublisherFunc func(events ...Event)

// Publish calls f.
func (f PublisherFunc) Publish(events ...Event) { f(events...) }
