package webhooks

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Store collections.
const (
	// Collection holds an e-shop's registered webhooks, by id.
	Collection = "webhooks"
	// SettingsCollection holds per-e-shop webhook settings; the record
	// "signature-key" is the current signature key.
	SettingsCollection = "webhook-settings"
	// NotificationsCollection (global) holds every notification with its
	// attempts, by a sandbox-wide id, so the control plane finds one
	// without knowing its e-shop.
	NotificationsCollection = "webhook-notifications"
)

const keyRecord = "signature-key"

// Webhook is a registered webhook as the reference shows it.
type Webhook struct {
	ID          int     `json:"id"`
	Event       string  `json:"event"`
	URL         string  `json:"url"`
	SendPayload *string `json:"sendPayload"`
	Created     *string `json:"created"`
	Updated     *string `json:"updated"`
}

// registered is a webhook as stored: the reference's view, and the add-on
// whose token registered it ("" for a private token or the fixtures), so
// removing or uninstalling the add-on ends its webhooks (ForgetAddon). The
// view never shows it.
type registered struct {
	Webhook
	Addon string `json:"registeredBy,omitempty"`
}

// List returns the e-shop's webhooks in registration order.
func List(tx *store.Tx, eshopID int) ([]Webhook, error) {
	var out []Webhook
	var ferr error
	err := tx.Scan(eshopID, Collection, func(_ string, doc []byte) bool {
		var w Webhook
		if ferr = json.Unmarshal(doc, &w); ferr != nil {
			return false
		}
		out = append(out, w)
		return true
	})
	if err == nil {
		err = ferr
	}
	return out, err
}

// Get loads one webhook; a missing one answers 404.
func Get(tx *store.Tx, eshopID int, id string) (*Webhook, error) {
	reg, err := get(tx, eshopID, id)
	if err != nil {
		return nil, err
	}
	return &reg.Webhook, nil
}

func get(tx *store.Tx, eshopID int, id string) (*registered, error) {
	raw, err := tx.Get(eshopID, Collection, id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(id, "Webhook %s is not registered in this e-shop.", id)
	}
	if err != nil {
		return nil, err
	}
	var reg registered
	if err := json.Unmarshal(raw, &reg); err != nil {
		return nil, err
	}
	return &reg, nil
}

func put(tx *store.Tx, eshopID int, reg *registered) error {
	raw, err := json.Marshal(reg)
	if err != nil {
		return err
	}
	_, err = tx.Put(eshopID, Collection, strconv.Itoa(reg.ID), raw)
	return err
}

// Forgotten is what ForgetAddon ended: the webhooks the add-on had
// registered, and the deliveries to them still waiting for an attempt.
type Forgotten struct {
	Webhooks   int `json:"webhooks"`   // webhooks deleted
	Deliveries int `json:"deliveries"` // waiting deliveries to them, canceled
}

// ForgetAddon deletes the webhooks an add-on registered in an e-shop and
// settles the deliveries to them still waiting for an attempt (failed,
// with the reason), when the add-on is removed, terminated or uninstalled:
// its tokens are revoked, so a delivery could only lead to a refused call.
func ForgetAddon(tx *store.Tx, eshopID int, addon, why string) (Forgotten, error) {
	var out Forgotten
	ids := map[int]bool{}
	var ferr error
	err := tx.Scan(eshopID, Collection, func(_ string, doc []byte) bool {
		var reg registered
		if ferr = json.Unmarshal(doc, &reg); ferr != nil {
			return false
		}
		if reg.Addon == addon {
			ids[reg.ID] = true
		}
		return true
	})
	if err == nil {
		err = ferr
	}
	if err != nil || len(ids) == 0 {
		return out, err
	}
	for id := range ids {
		if err := tx.Delete(eshopID, Collection, strconv.Itoa(id)); err != nil {
			return out, err
		}
	}
	out.Webhooks = len(ids)
	var pending []*Notification
	err = tx.Scan(store.Global, NotificationsCollection, func(_ string, doc []byte) bool {
		var n Notification
		if ferr = json.Unmarshal(doc, &n); ferr != nil {
			return false
		}
		if n.EshopID == eshopID && ids[n.WebhookID] && n.Status == StatusPending {
			pending = append(pending, &n)
		}
		return true
	})
	if err == nil {
		err = ferr
	}
	if err != nil {
		return out, err
	}
	for _, n := range pending {
		n.Status, n.NextTry, n.Canceled = StatusFailed, nil, why
		if err := saveNotification(tx, n); err != nil {
			return out, err
		}
	}
	out.Deliveries = len(pending)
	return out, nil
}

// Registered reports whether the e-shop has a webhook for the event; the
// asynchronous endpoints ask it for job:finished.
func Registered(tx *store.Tx, eshopID int, event string) bool {
	found := false
	_ = tx.Scan(eshopID, Collection, func(_ string, doc []byte) bool {
		var w Webhook
		if json.Unmarshal(doc, &w) == nil && w.Event == event {
			found = true
			return false
		}
		return true
	})
	return found
}

// signatureKey is the stored key of an e-shop.
type signatureKey struct {
	Key     string    `json:"key"`
	Created time.Time `json:"created"`
}

// SignatureKey returns the e-shop's current signature key ("" when none
// was issued yet).
func SignatureKey(tx *store.Tx, eshopID int) string {
	raw, err := tx.Get(eshopID, SettingsCollection, keyRecord)
	if err != nil {
		return ""
	}
	var k signatureKey
	if json.Unmarshal(raw, &k) != nil {
		return ""
	}
	return k.Key
}

func setSignatureKey(tx *store.Tx, eshopID int, key string) error {
	raw, err := json.Marshal(signatureKey{Key: key, Created: tx.Now()})
	if err != nil {
		return err
	}
	_, err = tx.Put(eshopID, SettingsCollection, keyRecord, raw)
	return err
}
