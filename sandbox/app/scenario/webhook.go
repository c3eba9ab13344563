package scenario

import (
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// WebhookAction is what a webhook fault does to one delivery attempt to
// the add-on; the webhook dispatcher carries it out.
type WebhookAction struct {
	Name         string
	BadSignature bool
	Duplicate    bool
	OutOfOrder   bool
	Delay        time.Duration
}

// WebhookFault decides whether a scripted webhook fault acts on a
// delivery attempt (delivery names it in telemetry), and announces it on
// the bus. It returns nil when none does.
func (e *Engine) WebhookFault(eshop int, event, delivery string) *WebhookAction {
	f := e.matcher.Pick(Facts{Webhook: true, Eshop: eshop, Event: event})
	if f == nil {
		return nil
	}
	if e.d.Bus != nil {
		e.d.Bus.Emit(bus.TopicFault, bus.Fault{Name: f.Name, Kind: f.Kind(), RequestID: delivery, Time: e.d.Clock.Now()})
	}
	a := &WebhookAction{Name: f.Name}
	switch f.Webhook.Fault {
	case webhookFaultBadSig:
		a.BadSignature = true
	case webhookFaultDuplicate:
		a.Duplicate = true
	case webhookFaultOutOfOrder:
		a.OutOfOrder = true
	case webhookFaultDelay:
		a.Delay = f.Webhook.Delay.D()
	}
	return a
}
