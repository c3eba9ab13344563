package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
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
	// A replay to the receiver of dlv-0002, queued while that one waited
	// for its retry at 10:03: it cannot go before.
	early := t0.Add(90 * time.Second)
	r := &bus.Delivery{ID: "n10", Attempt: 1, Time: early, Eshop: 1001, Event: "order:update", Instance: "2025000001",
		URL: "http://127.0.0.1:9100/webhooks", NextTry: &early}
	pending := *busyEvents()[29].Delivery // dlv-0002's second attempt: retry at 10:03:00
	pending.ID, pending.Attempt = "n11", 1
	m.Update(itemsMsg{items: items(nil, []traffic.Event{{Type: traffic.TypeDelivery, Delivery: &pending}, {Type: traffic.TypeQueued, Delivery: r}})})
	rows = m.hookRows()
	if last := rows[len(rows)-1]; last.d.ID != "n10" || last.next() != pending.NextTry.Format("15:04:05") {
		t.Fatalf("queued behind a retry: %+v next %s, want %s", last, last.next(), pending.NextTry.Format("15:04:05"))
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
	var n9 []hookRow
	for _, r := range m.hookRows() {
		if r.d.ID == "n9" {
			n9 = append(n9, r)
		}
	}
	if len(n9) != 1 || n9[0].queued || n9[0].retry || n9[0].state() != "ok" || m.counts.deliveries != 7 {
		t.Fatalf("after its attempt: %+v, deliveries %d", n9, m.counts.deliveries)
	}
}
