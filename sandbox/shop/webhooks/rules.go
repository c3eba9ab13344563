package webhooks

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// JobFinished is the event that must be registered before an
// asynchronous request (spec, Events rule 1).
const JobFinished = "job:finished"

// SystemEvents cannot be registered through the API: they are configured
// on the add-on and go to its webhook URL.
var SystemEvents = []string{"addon:suspend", "addon:approve", "addon:terminate", "addon:uninstall"}

// IsSystem reports whether kind is a system event.
func IsSystem(kind string) bool {
	for _, s := range SystemEvents {
		if s == kind {
			return true
		}
	}
	return false
}

// conflicts lists the pairs the spec forbids together (Events rule 2).
var conflicts = [][2]string{
	{"order:update", "order:cancel"},
	{"customer:update", "customer:disableOrders"},
	{"customer:update", "customer:enableOrders"},
}

// Registration is one requested webhook.
type Registration struct {
	Event string
	URL   string
}

// Catalogue is the set of event names the reference knows.
type Catalogue map[string]bool

// NewCatalogue indexes the reference's event names.
func NewCatalogue(events []string) Catalogue {
	c := Catalogue{}
	for _, e := range events {
		c[e] = true
	}
	return c
}

// CheckNew validates new registrations against the rules and the events
// already registered in the e-shop: unknown and system events, bad URLs,
// duplicates and the forbidden pairs. existing maps event -> URLs.
func (c Catalogue) CheckNew(existing map[string][]string, regs []Registration) error {
	if len(regs) == 0 {
		return sandbox.Invalid("data", "Field data: give at least one webhook as {\"event\": ..., \"url\": ...}.")
	}
	seen := map[string]map[string]bool{}
	for ev, urls := range existing {
		for _, u := range urls {
			add(seen, ev, u)
		}
	}
	for i, reg := range regs {
		at := fmt.Sprintf("data[%d]", i)
		if err := c.CheckEvent(at+".event", reg.Event); err != nil {
			return err
		}
		if err := CheckURL(at+".url", reg.URL); err != nil {
			return err
		}
		if seen[reg.Event][reg.URL] {
			return sandbox.Conflict(at, "Webhook %s -> %s is already registered in this e-shop.", reg.Event, reg.URL)
		}
		add(seen, reg.Event, reg.URL)
	}
	for _, pair := range conflicts {
		if len(seen[pair[0]]) > 0 && len(seen[pair[1]]) > 0 {
			return sandbox.Conflict("data", "Events %s and %s cannot be registered together: %s already tells you about the change. Register one of them.", pair[0], pair[1], pair[0])
		}
	}
	return nil
}

func add(seen map[string]map[string]bool, ev, u string) {
	if seen[ev] == nil {
		seen[ev] = map[string]bool{}
	}
	seen[ev][u] = true
}

// CheckEvent accepts an event name that may be registered: a reference
// name, or a spec name of Aliases (callers store Canonical(ev)).
func (c Catalogue) CheckEvent(instance, ev string) error {
	ev = Canonical(ev)
	if ev == "" {
		return sandbox.Invalid(instance, "Field %s: an event name such as order:create is required.", instance)
	}
	if IsSystem(ev) {
		return sandbox.Invalid(instance, "Event %s is a system event: it cannot be registered through the API. It is configured on the add-on and sent to the add-on's webhook URL.", ev)
	}
	if !c[ev] {
		return sandbox.Invalid(instance, "Unknown event %q. %s", ev, c.hint(ev))
	}
	return nil
}

// hint names known events sharing the unknown one's entity.
func (c Catalogue) hint(ev string) string {
	entity, _, _ := strings.Cut(ev, ":")
	var same []string
	for k := range c {
		if strings.HasPrefix(k, entity+":") && !IsSystem(k) {
			same = append(same, k)
		}
	}
	if len(same) == 0 {
		return "Event names look like order:create or product:update; the reference lists them all."
	}
	sort.Strings(same)
	return "Known events of " + entity + ": " + strings.Join(same, ", ") + "."
}

// CheckURL accepts an absolute http or https URL.
func CheckURL(instance, raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return sandbox.Invalid(instance, "Field %s: %q is not an absolute http or https URL.", instance, raw)
	}
	return nil
}
