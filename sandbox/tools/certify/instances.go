package certify

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// instanceSources say where the instances of an entity's events come
// from: the list endpoint, its list field and the identifier field. An
// event of another entity needs its instance on the command line
// (--trigger brand:create=ID).
var instanceSources = map[string]struct{ path, list, field string }{
	"order":    {"/api/orders", "orders", "code"},
	"customer": {"/api/customers", "customers", "guid"},
	"product":  {"/api/products", "products", "guid"},
}

// maxInstances is how many entities of a kind the rounds cycle through,
// so consecutive rounds rarely send the same request.
const maxInstances = 20

// resolveInstances finds the instances of every trigger event.
func (s *suite) resolveInstances() error {
	s.instances, s.next = map[string][]string{}, map[string]int{}
	for _, t := range s.o.Triggers {
		if t.Instance != "" {
			s.instances[t.String()] = []string{t.Instance}
			continue
		}
		list, err := s.lookup(t.Event)
		if err != nil {
			return err
		}
		s.instances[t.String()] = list
	}
	return nil
}

// lookup reads instances of an event's entity from the e-shop. A mass
// event (customer:import) names the collection, as the service does.
func (s *suite) lookup(event string) ([]string, error) {
	entity, action, _ := strings.Cut(event, ":")
	src, ok := instanceSources[entity]
	if !ok {
		return nil, fmt.Errorf("--trigger %s: the instance of a %s event is not known to certify; give it: --trigger %s=ID", event, entity, event)
	}
	if action == "import" {
		return []string{src.list}, nil
	}
	tok, err := s.privateToken()
	if err != nil {
		return nil, err
	}
	var data map[string]json.RawMessage
	path := fmt.Sprintf("%s?itemsPerPage=%d", src.path, maxInstances)
	if _, err := s.send(http.MethodGet, path, nil, map[string]string{s.headers.PrivateToken: tok}, &data); err != nil {
		return nil, fmt.Errorf("--trigger %s: reading %s of e-shop %d: %w", event, src.path, s.o.Eshop, err)
	}
	var items []map[string]any
	if err := json.Unmarshal(data[src.list], &items); err != nil {
		return nil, fmt.Errorf("--trigger %s: reading %s of e-shop %d: %w", event, src.path, s.o.Eshop, err)
	}
	var out []string
	for _, item := range items {
		if v, ok := item[src.field].(string); ok && v != "" {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--trigger %s: e-shop %d has no %s; give an instance: --trigger %s=ID", event, s.o.Eshop, src.list, event)
	}
	return out, nil
}

// privateToken is a private token of the e-shop with every right (the
// administration's), for certify's own reads.
func (s *suite) privateToken() (string, error) {
	var tok string
	err := s.app.Store.View(func(tx *store.Tx) error {
		creds, err := eshop.ListCredentials(tx)
		if err != nil {
			return err
		}
		for _, c := range creds {
			if c.ID != s.o.Eshop {
				continue
			}
			for _, t := range c.Callable() {
				if t.Kind == auth.KindPrivate && (tok == "" || t.AllGroups) {
					tok = t.Token
				}
			}
		}
		return nil
	})
	if err == nil && tok == "" {
		err = fmt.Errorf("e-shop %d has no private token to read its data with", s.o.Eshop)
	}
	return tok, err
}

// instance picks the next instance of a trigger, in turn.
func (s *suite) instance(t Trigger) string {
	list := s.instances[t.String()]
	if len(list) == 0 {
		return t.Instance
	}
	i := s.next[t.String()]
	s.next[t.String()] = i + 1
	return list[i%len(list)]
}

// emit emits one event through the sandbox, as if the e-shop had made
// the change: it goes to every receiver the add-on registered for it.
func (s *suite) emit(event, instance string) error {
	_, err := s.cc.Emit(s.ctx, controlclient.Event{EshopID: s.o.Eshop, Event: event, Instance: instance})
	return err
}

// fire makes one trigger event happen: for order:create without an
// instance a fresh order created through the API (the e-shop sends the
// event), else the event emitted with the trigger's next instance.
func (s *suite) fire(t Trigger) error {
	if freshOrders(t) {
		_, err := s.freshOrder()
		return err
	}
	return s.emit(t.Event, s.instance(t))
}

// trigger makes the first trigger event (the one rounds use) happen; it
// reports whether there was one.
func (s *suite) trigger() bool {
	if len(s.o.Triggers) == 0 {
		return false
	}
	t := s.o.Triggers[0]
	if err := s.fire(t); err != nil {
		s.progress("emitting %s failed: %v", t.Event, err)
		return false
	}
	return true
}
