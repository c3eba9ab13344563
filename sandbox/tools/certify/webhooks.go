package certify

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

// The webhook checks send notifications themselves, signed with the
// e-shop's key as the dispatcher signs them, signed wrongly, or not at
// all, to the URL the add-on registered: the dispatcher would retry a
// refused delivery, and these checks want one answer each.

// sig is how a notification is signed.
type sig int

const (
	sigValid sig = iota
	sigWrong
	sigNone
)

// String names the signing in a line of evidence.
func (g sig) String() string {
	return [...]string{"valid signature", "WRONG signature", "NO signature"}[g]
}

// sent is one notification certify delivered and how it was answered.
type sent struct {
	status int
	err    error
	line   string
}

func (d sent) acknowledged() bool { return d.err == nil && d.status >= 200 && d.status < 300 }
func (d sent) refused() bool      { return d.err == nil && d.status >= 400 && d.status < 500 }

// target is where certify sends its notifications: the receiver the
// add-on registered for a trigger event, else for any event of an entity,
// else its configured webhook URL; and the signature key.
type target struct {
	event, url, key string
	registered      map[string]string // event -> URL the add-on registered
}

func (s *suite) webhookTarget() target {
	t := target{registered: map[string]string{}}
	_ = s.app.Store.View(func(tx *store.Tx) error {
		t.key = webhooks.SignatureKey(tx, s.o.Eshop)
		list, err := webhooks.List(tx, s.o.Eshop)
		if err != nil {
			return err
		}
		for _, w := range list {
			if _, dup := t.registered[w.Event]; !dup {
				t.registered[w.Event] = w.URL
			}
		}
		return nil
	})
	for _, tr := range s.o.Triggers {
		if u, ok := t.registered[tr.Event]; ok {
			t.event, t.url = tr.Event, u
			return t
		}
	}
	for ev, u := range t.registered {
		if !webhooks.IsSystem(ev) && ev != "job:finished" && (t.event == "" || ev < t.event) {
			t.event, t.url = ev, u
		}
	}
	if t.event == "" {
		t.event, t.url = "order:create", s.o.WebhookURL
		if len(s.o.Triggers) > 0 {
			t.event = s.o.Triggers[0].Event
		}
	}
	return t
}

// instanceOf is an instance for a notification of the event.
func (s *suite) instanceOf(event string) string {
	for _, tr := range s.o.Triggers {
		if tr.Event == event {
			return s.instance(tr)
		}
	}
	if list, err := s.lookup(event); err == nil {
		return list[0]
	}
	return "1"
}

// deliver posts one notification, signed as asked, and waits for the
// answer at most the webhook timeout.
func (s *suite) deliver(t target, event, instance string, created time.Time, g sig) sent {
	body := webhooks.NewPayload(sandbox.Event{EshopID: s.o.Eshop, Kind: event, Instance: instance, Time: created}).Encode()
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, t.url, bytes.NewReader(body))
	if err != nil {
		return sent{err: err, line: fmt.Sprintf("POST %s: %v", t.url, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "eshop-sandbox-webhooks/1.0")
	switch g {
	case sigValid:
		req.Header.Set(s.headers.WebhookSig, webhooks.Sign(t.key, body))
	case sigWrong:
		req.Header.Set(s.headers.WebhookSig, webhooks.Sign("not-the-"+t.key+"-key", body))
	}
	client := &http.Client{Timeout: s.o.Timing.Webhook, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	head := fmt.Sprintf("%s certify: webhook %s %s (eventCreated %s) to %s, %s -> ", s.app.Clock.Now().UTC().Format("15:04:05.000"),
		event, instance, created.UTC().Format("15:04:05"), t.url, g)
	began := time.Now()
	resp, err := client.Do(req)
	took := time.Since(began).Round(time.Millisecond)
	if err != nil {
		return sent{err: err, line: head + fmt.Sprintf("no answer within %s: %v", s.o.Timing.Webhook, err)}
	}
	resp.Body.Close()
	return sent{status: resp.StatusCode, line: head + fmt.Sprintf("%d in %s", resp.StatusCode, took)}
}

// webhooks runs the webhook checks.
func (s *suite) webhooks() {
	t := s.webhookTarget()
	now := s.app.Clock.Now()
	if t.url == "" {
		why := "The add-on registered no webhook and has no webhook URL: there is nowhere to send a notification."
		for _, id := range []string{CheckWebhookAck, CheckSignature, CheckDuplicate, CheckOutOfOrder} {
			s.res.set(id, NotExercised, why, nil)
		}
		return
	}
	noKey := "The e-shop has no webhook signature key: the add-on never asked for one (POST /api/webhooks/renew-signature-key), so it cannot verify a notification."

	// A forged notification first: an add-on that accepts it works on it.
	wrong := s.deliver(t, t.event, s.instanceOf(t.event), now, sigWrong)
	s.settle()
	none := s.deliver(t, t.event, s.instanceOf(t.event), now, sigNone)
	s.settle()
	var ok *sent
	if t.key != "" {
		d := s.deliver(t, t.event, s.instanceOf(t.event), now, sigValid)
		s.settle()
		ok = &d
	}
	s.judgeSignature(wrong, none, ok, noKey)

	if ok == nil {
		s.res.set(CheckWebhookAck, NotExercised, noKey, nil)
		s.res.set(CheckDuplicate, NotExercised, noKey, nil)
		s.res.set(CheckOutOfOrder, NotExercised, noKey, nil)
		return
	}
	if ok.acknowledged() {
		s.res.set(CheckWebhookAck, Passed, fmt.Sprintf("The correctly signed %s was answered %d within %s.", t.event, ok.status, s.o.Timing.Webhook), []string{ok.line})
	} else {
		s.res.set(CheckWebhookAck, Failed, fmt.Sprintf("A correctly signed notification must be answered 2xx within %s (answer first, work afterwards); the e-shop retries it otherwise.", s.o.Timing.Webhook), []string{ok.line})
	}
	s.duplicate(t)
	s.outOfOrder(t)
}

// judgeSignature: the forged notifications must be refused, and that
// shows a signature check only when a correctly signed one (ok; nil when
// none could be signed) was acknowledged: an add-on that refuses every
// notification refuses the forged ones too, and checks nothing.
func (s *suite) judgeSignature(wrong, none sent, ok *sent, noKey string) {
	ev := []string{wrong.line, none.line}
	if ok != nil {
		ev = append(ev, ok.line)
	}
	var took []string
	for _, x := range []struct {
		g sig
		d sent
	}{{sigWrong, wrong}, {sigNone, none}} {
		if !x.d.refused() {
			took = append(took, fmt.Sprintf("%s: %s", x.g, answer(x.d)))
		}
	}
	switch {
	case len(took) > 0:
		s.res.set(CheckSignature, Failed, fmt.Sprintf("A notification whose %s is not the HMAC-SHA1 of its body with the e-shop's key must be refused with 4xx (401) and not acted on; the add-on answered %s.",
			s.headers.WebhookSig, strings.Join(took, ", ")), ev)
	case ok == nil:
		s.res.set(CheckSignature, NotExercised, "Both forged notifications were refused, but no notification could be signed correctly to compare: "+noKey, ev)
	case !ok.acknowledged():
		s.res.set(CheckSignature, NotExercised, fmt.Sprintf("Both forged notifications were refused, but so was the correctly signed one (%s): an add-on that refuses every notification shows nothing of a signature check (see webhook-ack). It must verify %s against the key from POST /api/webhooks/renew-signature-key.",
			answer(*ok), s.headers.WebhookSig), ev)
	default:
		s.res.set(CheckSignature, Passed, fmt.Sprintf("Both forged notifications were refused, and the correctly signed one was answered %d.", ok.status), ev)
	}
}

// duplicate delivers one notification twice and reports what the add-on
// did.
func (s *suite) duplicate(t target) {
	from := s.log.mark()
	inst, now := s.instanceOf(t.event), s.app.Clock.Now()
	a := s.deliver(t, t.event, inst, now, sigValid)
	b := s.deliver(t, t.event, inst, now, sigValid)
	s.settle()
	s.res.set(CheckDuplicate, Observed, fmt.Sprintf("The same %s %s, delivered twice, was answered %s and %s; %s",
		t.event, inst, answer(a), answer(b), s.callsSince(from)), append([]string{a.line, b.line}, s.callLines(from)...))
}

// outOfOrder delivers two notifications of one entity with the newer one
// first: an update before the create when the add-on registered both,
// else the same event with an older eventCreated second.
func (s *suite) outOfOrder(t target) {
	from := s.log.mark()
	entity, _, _ := strings.Cut(t.event, ":")
	first, second := t.event, t.event
	if _, ok := t.registered[entity+":update"]; ok {
		if _, ok := t.registered[entity+":create"]; ok {
			first, second = entity+":update", entity+":create"
		}
	}
	inst, now := s.instanceOf(t.event), s.app.Clock.Now()
	a := s.deliver(t, first, inst, now, sigValid)
	b := s.deliver(t, second, inst, now.Add(-time.Minute), sigValid)
	s.settle()
	s.res.set(CheckOutOfOrder, Observed, fmt.Sprintf("%s %s (newer) then %s (a minute older) were answered %s and %s; %s",
		first, inst, second, answer(a), answer(b), s.callsSince(from)), append([]string{a.line, b.line}, s.callLines(from)...))
}

func answer(d sent) string {
	if d.err != nil {
		return "not at all"
	}
	return fmt.Sprint(d.status)
}

// callsSince says how many API calls the add-on made since a mark.
func (s *suite) callsSince(from mark) string {
	cs, _ := s.log.between(from, mark{})
	n := 0
	for _, c := range cs {
		if isAPI(c) {
			n++
		}
	}
	switch n {
	case 0:
		return "the add-on made no API call after them."
	case 1:
		return "the add-on made 1 API call after them."
	}
	return fmt.Sprintf("the add-on made %d API calls after them.", n)
}

// callLines are the add-on's API calls since a mark, as evidence.
func (s *suite) callLines(from mark) []string {
	cs, _ := s.log.between(from, mark{})
	var out []string
	for _, c := range cs {
		if isAPI(c) {
			out = append(out, describeCall(c))
		}
	}
	return out
}
