package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/traffic"
)

// TestQueuedRows checks the webhooks table's queued notifications: shown
// with the time they can go out, replaced by their attempt when it comes,
// never counted as a delivery, and kept out of the status filters (they
// have no status yet).
func TestQueuedRows(t *testing.T) {
	m, _, _, _ := busyModel(t)
	press(m, "2")
	due := t0.Add(5 * time.Minute)
	q := &bus.Delivery{ID: "n9", Attempt: 1, Time: t0.Add(2 * time.Minute), Eshop: 1001, Event: "order:create", Instance: "2025000099",
		URL: "http://127.0.0.1:9100/webhooks", NextTry: &due}
	m.Update(itemsMsg{items: items(nil, []traffic.Event{{Type: traffic.TypeQueued, Delivery: q}})})
	m.render()
	rows := m.hookRows()
	last := rows[len(rows)-1]
	if !last.queued || last.d.ID != "n9" || last.state() != "queued" || last.next() != "10:05:00" || m.counts.deliveries != 5 {
		t.Fatalf("queued row %+v, deliveries %d", last, m.counts.deliveries)
	}
	if !strings.Contains(m.View(), "order:create 2025000099   1    - queued 10:05:00") {
		t.Fatalf("queued row not shown:\n%s", m.View())
	}
	press(m, "s") // 2xx: a queued notification has no status
	for _, r := range m.hookRows() {
		if r.queued {
			t.Fatalf("queued row passes the status filter %s", m.filter.class)
		}
	}
	press(m, "c", "/")
	typeText(m, "2025000099")
	press(m, "enter")
	if rows := m.hookRows(); len(rows) != 1 || !rows[0].queued {
		t.Fatalf("text filter: %+v", rows)
	}
	press(m, "c")
	a := *q
	a.Status, a.Succeeded, a.Final, a.NextTry, a.Time = 200, true, true, nil, due
	m.Update(itemsMsg{items: items(nil, []traffic.Event{{Type: traffic.TypeDelivery, Delivery: &a}})})
	rows = m.hookRows()
	last = rows[len(rows)-1]
	if last.queued || last.d.ID != "n9" || last.retry || last.state() != "ok" || m.counts.deliveries != 6 {
		t.Fatalf("after its attempt: %+v (retry %v), deliveries %d", last, last.retry, m.counts.deliveries)
	}
	for _, r := range rows {
		if r.queued && r.d.ID == "n9" {
			t.Fatal("the queued row stayed after its attempt")
		}
	}
}
