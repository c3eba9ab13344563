// Package timectl moves the sandbox's one clock from the control plane:
// POST /_sandbox/clock advances it or sets it, GET /_sandbox/clock reads
// it. Every move is announced on the bus (bus.TopicClock), so the job
// runner and the webhook dispatcher wake up and run whatever became due:
// advancing three hours fails a stalled job, advancing past a back-off
// delay retries a webhook delivery.
package timectl

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// Path is where the clock lives on the control plane.
const Path = "/_sandbox/clock"

// Controller serves the clock routes.
type Controller struct {
	Clock *sandbox.Clock
	Bus   *bus.Bus
}

// State is the data of both clock routes.
type State struct {
	Now    string `json:"now"`     // sandbox time in the service's date format
	RFC    string `json:"rfc3339"` // the same instant in RFC 3339, for scripts
	Offset string `json:"offset"`  // how far the clock is from the wall clock
}

// Routes returns the control-plane routes.
func (c *Controller) Routes() []api.Route {
	return []api.Route{
		{Operation: "sandbox.clock", Method: http.MethodGet, Summary: "The sandbox clock and its offset from the wall clock", Path: Path, Handler: c.get, Answer: State{}},
		{Operation: "sandbox.clock.move", Method: http.MethodPost, Summary: "Move the clock: {\"advance\":\"3h\"} or {\"set\":\"2026-01-01T00:00:00Z\"}", Path: Path, Handler: c.move, Answer: State{}, Body: MoveBody{}},
	}
}

func (c *Controller) state() State {
	now := c.Clock.Now()
	return State{Now: sandbox.FormatTime(now), RFC: now.Format(time.RFC3339), Offset: c.Clock.Offset().Round(time.Second).String()}
}

func (c *Controller) get(*api.Request) (any, error) { return c.state(), nil }

// MoveBody is the body of POST /_sandbox/clock: exactly one field.
type MoveBody struct {
	Advance string `json:"advance,omitempty" doc:"Move the clock forward by a duration such as 90s, 3h or 7d."`
	Set     string `json:"set,omitempty" doc:"Set the clock to a date-time such as 2026-01-01T00:00:00Z."`
}

func (c *Controller) move(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	adv, hasAdv := body["advance"]
	set, hasSet := body["set"]
	switch {
	case hasAdv == hasSet:
		return nil, sandbox.Invalid("body", `Send exactly one of {"advance": "3h"} or {"set": "2026-01-01T00:00:00Z"}.`)
	case hasAdv:
		s, ok := adv.(string)
		if !ok {
			return nil, sandbox.Invalid("advance", `Field advance must be a duration string such as "90s", "3h" or "7d".`)
		}
		d, err := ParseDuration(s)
		if err != nil {
			return nil, sandbox.Invalid("advance", "Field advance: %v.", err)
		}
		c.Clock.Advance(d)
	default:
		s, ok := set.(string)
		if !ok {
			return nil, sandbox.Invalid("set", `Field set must be a date-time string such as "2026-01-01T00:00:00Z".`)
		}
		t, err := sandbox.ParseTime(strings.TrimSpace(s))
		if err != nil {
			return nil, sandbox.Invalid("set", "Field set: %q is not a date-time; use RFC 3339 (2026-01-01T00:00:00Z) or the service format (2026-01-01T00:00:00+0000).", s)
		}
		c.Clock.Set(t)
	}
	Announce(c.Clock, c.Bus)
	return c.state(), nil
}

// Announce publishes the clock's position on the bus. Anything else that
// moves the clock (a scenario step) calls it too, so waiting work runs.
func Announce(clock *sandbox.Clock, b *bus.Bus) {
	if b != nil {
		b.Emit(bus.TopicClock, bus.ClockMove{Now: clock.Now(), Offset: clock.Offset()})
	}
}

var dayPart = regexp.MustCompile(`^(-?)(\d+)d(.*)$`)

// ParseDuration reads a Go duration ("90s", "1h30m") with the addition of
// whole days ("7d", "1d12h"), because file retention and token lifetimes
// are counted in days.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty duration; use e.g. 90s, 3h or 7d")
	}
	var days time.Duration
	if m := dayPart.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[2])
		if err != nil || n > 100000 {
			return 0, fmt.Errorf("%q has too many days", s)
		}
		days = time.Duration(n) * 24 * time.Hour
		s = m[3]
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
			return 0, fmt.Errorf("%q: the sign goes in front of the days, e.g. -1d2h", m[0])
		}
		if m[1] == "-" {
			days = -days
			if s != "" {
				s = "-" + s
			}
		}
		if s == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration; use e.g. 90s, 3h, 1h30m or 7d", s)
	}
	return days + d, nil
}
