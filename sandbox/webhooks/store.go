package webhooks

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
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
	raw, err := tx.Get(eshopID, Collection, id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(id, "Webhook %s is not registered in this e-shop.", id)
	}
	if err != nil {
		return nil, err
	}
	var w Webhook
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

func put(tx *store.Tx, eshopID int, w *Webhook) error {
	raw, err := json.Marshal(w)
	if err != nil {
		return err
	}
	_, err = tx.Put(eshopID, Collection, strconv.Itoa(w.ID), raw)
	return err
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
