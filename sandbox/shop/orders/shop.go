package orders

import (
	"errors"
	"fmt"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/documents"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// Shop is one e-shop as an order operation sees it inside a transaction:
// its metadata, settings and status list, read once.
type Shop struct {
	Tx *store.Tx
	// W is crud's write path in this transaction: every write of a
	// registry record (orders, documents, stock, products, history) goes
	// through it. nil in a read-only Shop.
	W        *crud.Writer
	ID       int
	Meta     *eshop.Meta
	Info     gjson.Result // eshop.json
	Statuses *rules.Statuses
	Fields   map[string]any // customer-fields.json
	Now      time.Time
	BaseURL  string
	EshopURL string
	codes    *CodeIndex // shared across requests by the Service; nil: one of its own
	cat      *Catalog
	supplies map[string]*supplyIndex // stock id -> its supplies by code, as last read
	stocks   *supplyCache            // shared across requests by the Service; nil: this transaction's only
	settings *settingsCache          // shared across requests by the Service; nil: parse each time
	info     map[string]gjson.Result // Info's top-level fields (never changed)
}

// OpenShop reads the settings of the e-shop crud's writer writes, inside
// its transaction: the order rules on crud's write path (the accounting,
// stock and batch actions run them inside their crud.Ctx, c.W).
func OpenShop(w *crud.Writer, site *eshop.Site) (*Shop, error) {
	return openShop(w.Tx(), w, w.Eshop(), site, nil)
}

// openShop is OpenShop with the parsed settings of earlier requests (see
// settingsCache; nil parses them); w is nil for a read-only Shop.
func openShop(tx *store.Tx, w *crud.Writer, eshopID int, site *eshop.Site, settings *settingsCache) (*Shop, error) {
	meta, err := eshop.Get(tx, eshopID)
	if err != nil {
		return nil, err
	}
	s := &Shop{Tx: tx, W: w, ID: eshopID, Meta: meta, Now: tx.Now(), BaseURL: site.BaseURL, EshopURL: site.EshopURL(eshopID), settings: settings}
	if raw, err := tx.GetShared(eshopID, eshop.InfoCollection, "info"); err == nil {
		s.Info = gjson.Parse(sharedString(raw))
		s.info = settings.info(eshopID, raw)
	}
	raw, err := tx.GetShared(eshopID, eshop.InfoCollection, "order-statuses")
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, fmt.Errorf("e-shop %d has no order-statuses.json", eshopID)
	}
	if err != nil {
		return nil, err
	}
	if s.Statuses, err = settings.statuses(eshopID, raw); err != nil {
		return nil, err
	}
	s.Fields = map[string]any{}
	if raw, err := tx.GetShared(eshopID, eshop.InfoCollection, "customer-fields"); err == nil {
		s.Fields = settings.fields(eshopID, raw)
	}
	return s, nil
}

// StreetMode is the e-shop's address rule 1 setting.
func (s *Shop) StreetMode() string {
	if m, _ := s.Fields["_streetMode"].(string); m == rules.StreetCombined {
		return rules.StreetCombined
	}
	return rules.StreetSplit
}

// View is the rendering view of this e-shop in its default texts.
func (s *Shop) View() api.View {
	return api.View{BaseURL: s.BaseURL, EshopURL: s.EshopURL}
}

// Time formats the transaction time in the service's layout.
func (s *Shop) Time() string { return sandbox.FormatTime(s.Now) }

// Emit queues a domain event of this e-shop.
func (s *Shop) Emit(kind, instance string) {
	s.Tx.Emit(sandbox.Event{EshopID: s.ID, Kind: kind, Instance: instance})
}

// Currency returns an e-shop currency's settings (eshop.json currencies).
func (s *Shop) Currency(code string) gjson.Result {
	for _, c := range s.InfoField("currencies").Array() {
		if c.Get("code").String() == code {
			return c
		}
	}
	return gjson.Result{}
}

// InfoField is a top-level field of the e-shop's eshop.json (Info).
func (s *Shop) InfoField(name string) gjson.Result { return s.info[name] }

// NextCode returns the next document or order code of a collection
// from the collection's one number sequence (documents.NextCode), which
// every path that issues such a code shares.
func (s *Shop) NextCode(coll string) (string, error) {
	return documents.NextCode(s.Tx, s.ID, coll, s.Now.Year())
}

// NextID returns the next number of a named sequence, starting above
// floor (e.g. above the item ids of the fixtures).
func (s *Shop) NextID(name string) (int64, error) {
	if name == itemSeq {
		if err := primeItems(s.Tx, s.ID); err != nil {
			return 0, err
		}
	}
	return s.Tx.Next(s.ID, name)
}

// Catalog returns the e-shop's product catalogue in this transaction.
func (s *Shop) Catalog() *Catalog {
	if s.cat == nil {
		s.cat = NewCatalog(s.Tx, s.ID, s.codes)
	}
	return s.cat
}
