package api

import (
	"net/http"
	"sync/atomic"
	"time"
)

// dateCache keeps the Date header of the current second: formatting a
// time for every answer cost more than the rest of a cached read's
// headers. The sandbox clock may stand still or jump; the cache follows
// whatever second it reads.
type dateCache struct {
	last atomic.Pointer[cachedDate]
}

type cachedDate struct {
	unix int64
	text string
}

// format returns t as an HTTP date (whole seconds, GMT).
func (d *dateCache) format(t time.Time) string {
	sec := t.Unix()
	if c := d.last.Load(); c != nil && c.unix == sec {
		return c.text
	}
	c := &cachedDate{unix: sec, text: t.UTC().Format(http.TimeFormat)}
	d.last.Store(c)
	return c.text
}
