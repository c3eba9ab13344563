package orders

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// settingsCache keeps, per e-shop, its order-status list and its
// customer-field settings parsed, with the stored bytes they were parsed
// from. Every order operation opens the e-shop's settings, and parsing
// them through reflection was a measurable part of each one; equal bytes
// now give the parsed values again, changed bytes are parsed anew. The
// parsed values are shared between requests and never changed. A nil
// cache parses every time.
type settingsCache struct {
	mu      sync.Mutex
	shops   map[int]*parsedSettings
	methods map[methodKey]*parsedMethod
}

// topFields are the top-level fields of a JSON object, the first of
// duplicate keys as gjson finds it.
func topFields(doc gjson.Result) map[string]gjson.Result {
	top := map[string]gjson.Result{}
	doc.ForEach(func(k, v gjson.Result) bool {
		if _, dup := top[k.Str]; !dup {
			top[k.Str] = v
		}
		return true
	})
	return top
}

// methodKey names a payment or shipping method record.
type methodKey struct {
	eshop      int
	coll, guid string
}

// parsedMethod is a method record decoded, with the document it was
// decoded from.
type parsedMethod struct {
	doc string
	m   map[string]any
}

type parsedSettings struct {
	statusesDoc string
	statuses    *rules.Statuses
	fieldsDoc   string
	fields      map[string]any
	infoDoc     string
	info        map[string]gjson.Result
}

// info finds the top-level fields of an e-shop's eshop.json (doc, a
// shared read): an order reads its currencies, settings and order fields
// half a dozen times, each a pass over the document. The fields point
// into the kept copy of doc.
func (c *settingsCache) info(eshop int, doc []byte) map[string]gjson.Result {
	if c == nil {
		return topFields(gjson.Parse(string(doc)))
	}
	c.mu.Lock()
	p := c.entry(eshop)
	if p.info != nil && p.infoDoc == string(doc) {
		defer c.mu.Unlock()
		return p.info
	}
	c.mu.Unlock()
	kept := string(doc)
	top := topFields(gjson.Parse(kept))
	c.mu.Lock()
	p.infoDoc, p.info = kept, top
	c.mu.Unlock()
	return top
}

func newSettingsCache() *settingsCache { return &settingsCache{shops: map[int]*parsedSettings{}} }

func (c *settingsCache) entry(eshop int) *parsedSettings {
	p := c.shops[eshop]
	if p == nil {
		p = &parsedSettings{}
		c.shops[eshop] = p
	}
	return p
}

// statuses parses an e-shop's order-statuses document.
func (c *settingsCache) statuses(eshop int, doc []byte) (*rules.Statuses, error) {
	if c == nil {
		return rules.ParseStatuses(doc)
	}
	c.mu.Lock()
	p := c.entry(eshop)
	if p.statuses != nil && p.statusesDoc == string(doc) {
		defer c.mu.Unlock()
		return p.statuses, nil
	}
	c.mu.Unlock()
	st, err := rules.ParseStatuses(doc)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	p.statusesDoc, p.statuses = string(doc), st
	c.mu.Unlock()
	return st, nil
}

// fields parses an e-shop's customer-field settings (an unreadable
// document counts as no settings).
func (c *settingsCache) fields(eshop int, doc []byte) map[string]any {
	parse := func() map[string]any {
		m := map[string]any{}
		_ = json.Unmarshal(doc, &m)
		return m
	}
	if c == nil {
		return parse()
	}
	c.mu.Lock()
	p := c.entry(eshop)
	if p.fields != nil && p.fieldsDoc == string(doc) {
		defer c.mu.Unlock()
		return p.fields
	}
	c.mu.Unlock()
	m := parse()
	c.mu.Lock()
	p.fieldsDoc, p.fields = string(doc), m
	c.mu.Unlock()
	return m
}

// method decodes a payment or shipping method record (doc, as stored,
// with its metadata): an order reads two, and decoding them took a
// twentieth of its time inside the write transaction, for records that
// seldom change. The caller gets a copy of its own.
func (c *settingsCache) method(eshop int, coll, guid string, doc []byte) (map[string]any, error) {
	decode := func() (map[string]any, error) {
		m, err := api.DecodeObject(doc)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", coll, guid, err)
		}
		delete(m, "_seq")
		return m, nil
	}
	if c == nil {
		return decode()
	}
	k := methodKey{eshop, coll, guid}
	c.mu.Lock()
	if p := c.methods[k]; p != nil && p.doc == string(doc) {
		c.mu.Unlock()
		return crud.Clone(p.m).(map[string]any), nil
	}
	c.mu.Unlock()
	m, err := decode()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.methods == nil {
		c.methods = map[methodKey]*parsedMethod{}
	}
	c.methods[k] = &parsedMethod{doc: string(doc), m: crud.Clone(m).(map[string]any)}
	c.mu.Unlock()
	return m, nil
}
