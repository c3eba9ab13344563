package certify

import (
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// lifecycle suspends, resumes and uninstalls the add-on, as the e-shop
// does, and checks that each system event reaches its webhook URL and is
// acknowledged.
func (s *suite) lifecycle() {
	for _, x := range []struct{ action, event, id string }{
		{"suspend", "addon:suspend", CheckSuspend},
		{"resume", "addon:approve", CheckApprove},
		{"uninstall", "addon:uninstall", CheckUninstall},
	} {
		if !s.installed {
			s.res.set(x.id, NotExercised, "The add-on was never installed (no install gave it an OAuth token): the e-shop sends system events only to installed add-ons.", nil)
			continue
		}
		from := s.log.mark()
		if _, err := s.cc.Lifecycle(s.ctx, s.o.Eshop, s.o.Addon, x.action); err != nil {
			s.res.set(x.id, NotExercised, fmt.Sprintf("The sandbox could not %s the add-on: %v", x.action, err), nil)
			continue
		}
		var first *bus.Delivery
		s.log.waitFor(s.ctx, from, s.o.Timing.Webhook+s.o.Timing.Quiet, func(_ []*bus.Call, ds []bus.Delivery) bool {
			for i := range ds {
				if ds[i].Event == x.event {
					first = &ds[i]
					return true
				}
			}
			return false
		})
		switch {
		case first == nil:
			s.res.set(x.id, Failed, fmt.Sprintf("No attempt to deliver %s to %s was answered within %s.", x.event, s.o.WebhookURL, s.o.Timing.Webhook), nil)
		case first.Succeeded:
			s.res.set(x.id, Passed, fmt.Sprintf("%s was answered %d.", x.event, first.Status), []string{describeDelivery(*first)})
		default:
			s.res.set(x.id, Failed, fmt.Sprintf("%s must be answered 2xx at once (the e-shop retries it otherwise).", x.event), []string{describeDelivery(*first)})
		}
		s.settle()
	}
}
