package oauth

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Code is an install code as the e-shop remembers it (the code string
// itself is the record's key).
type Code struct {
	EshopID   int        `json:"eshopId"`
	Addon     string     `json:"addon"`
	InstallID string     `json:"installId,omitempty"` // the install that sent it
	IssuedAt  time.Time  `json:"issuedAt"`
	ExpiresAt time.Time  `json:"expiresAt"`
	UsedAt    *time.Time `json:"usedAt,omitempty"`
}

// IssueCode creates a new install code for an add-on in an e-shop: 255
// random characters, single use, valid for CodeValidity on the sandbox
// clock. The install driver sends it to the add-on's install URL.
func (s *Server) IssueCode(tx *store.Tx, eshopID int, addon, installID string) (string, *Code, error) {
	now := tx.Now()
	c := &Code{EshopID: eshopID, Addon: addon, InstallID: installID, IssuedAt: now, ExpiresAt: now.Add(CodeValidity)}
	code := s.ids.Token(CodeLength)
	if err := putCode(tx, code, c); err != nil {
		return "", nil, err
	}
	return code, c, nil
}

func putCode(tx *store.Tx, code string, c *Code) error {
	raw, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = tx.PutExpiring(store.Global, CodesCollection, code, raw, c.ExpiresAt.Add(codeRetention))
	return err
}

func getCode(tx *store.Tx, code string) (*Code, error) {
	raw, err := tx.Get(store.Global, CodesCollection, code)
	if err != nil {
		return nil, err
	}
	var c Code
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// dropUnusedCodes deletes the codes of an add-on that were not exchanged
// yet, so an install under way cannot complete after an uninstall.
func dropUnusedCodes(tx *store.Tx, eshopID int, addon string) error {
	var drop []string
	err := tx.Scan(store.Global, CodesCollection, func(id string, doc []byte) bool {
		var c Code
		if json.Unmarshal(doc, &c) == nil && c.EshopID == eshopID && c.Addon == addon && c.UsedAt == nil {
			drop = append(drop, id)
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, id := range drop {
		if err := tx.Delete(store.Global, CodesCollection, id); err != nil && !errors.Is(err, sandbox.ErrNotFound) {
			return err
		}
	}
	return nil
}
