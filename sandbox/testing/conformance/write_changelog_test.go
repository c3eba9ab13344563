package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/changelog"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// loggedState is what the change logs must account for: the records of
// every registry table that keeps a change log (ChangeKey set), as a
// client sees them (sandbox metadata left out), and each log's entries,
// per e-shop. An embedded table's log is kept per parent record
// ("mailing-lists/emails/<list>"), so it is read per parent.
type loggedState struct {
	recs    map[string]map[string]string // log ("1001 orders") -> record id -> public JSON
	entries map[string][]logEntry        // log -> its entries, in order
}

type logEntry struct{ id, typ string }

// snapshotLogged reads the state of every change-logged table.
func snapshotLogged(st *store.Store, reg *registry.Registry) (*loggedState, error) {
	s := &loggedState{recs: map[string]map[string]string{}, entries: map[string][]logEntry{}}
	err := st.View(func(tx *store.Tx) error {
		shops, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range shops {
			for _, row := range reg.Resources() {
				if row.ChangeKey == "" {
					continue
				}
				if row.Parent == nil {
					recs := map[string]string{}
					if err := tx.Scan(m.ID, row.Name, func(id string, doc []byte) bool {
						recs[id] = public(doc)
						return true
					}); err != nil {
						return err
					}
					s.add(tx, m.ID, row.Name, recs)
					continue
				}
				err := tx.Scan(m.ID, row.Parent.Resource, func(pid string, doc []byte) bool {
					recs := map[string]string{}
					gjson.GetBytes(doc, row.Parent.Field).ForEach(func(_, el gjson.Result) bool {
						recs[el.Get(row.IDField).String()] = public([]byte(el.Raw))
						return true
					})
					s.add(tx, m.ID, row.Name+"/"+pid, recs)
					return true
				})
				if err != nil {
					return err
				}
			}
		}
		return nil
	})
	return s, err
}

// add keeps one log's records and its entries.
func (s *loggedState) add(tx *store.Tx, eshopID int, logName string, recs map[string]string) {
	key := strconv.Itoa(eshopID) + " " + logName
	s.recs[key] = recs
	_ = tx.Scan(eshopID, changelog.Collection(logName), func(_ string, doc []byte) bool {
		s.entries[key] = append(s.entries[key], logEntry{gjson.GetBytes(doc, "id").String(), gjson.GetBytes(doc, "changeType").String()})
		return true
	})
}

// public is a stored record as a client sees it, in one canonical
// encoding: the sandbox metadata (keys starting with "_") is no change a
// client could see, and a record stored again unchanged is no change.
func public(doc []byte) string {
	m, err := api.DecodeObject(doc)
	if err != nil {
		return string(doc)
	}
	api.StripMeta(m)
	b, _ := json.Marshal(m)
	return string(b)
}

// unlogged lists the records of change-logged tables that a write
// created, changed or deleted without an entry of that kind in their
// log after the write: a new record needs an add, a deleted one a
// delete, a changed one an edit (or an add, where a new id replaced the
// old one). It also returns how many changed records it checked.
func (s *loggedState) unlogged(after *loggedState) (missing []string, checked int) {
	var logs []string
	for k := range after.recs {
		logs = append(logs, k)
	}
	sort.Strings(logs)
	for _, log := range logs {
		was, now := s.recs[log], after.recs[log]
		fresh := after.entries[log]
		if n := len(s.entries[log]); n <= len(fresh) {
			fresh = fresh[n:]
		}
		has := func(id string, types ...string) bool {
			for _, e := range fresh {
				for _, t := range types {
					if e.id == id && e.typ == t {
						return true
					}
				}
			}
			return false
		}
		var ids []string
		for id := range now {
			ids = append(ids, id)
		}
		for id := range was {
			if _, ok := now[id]; !ok {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			old, existed := was[id]
			cur, exists := now[id]
			var why string
			switch {
			case !existed && exists:
				checked++
				if !has(id, changelog.Add) {
					why = "created"
				}
			case existed && !exists:
				checked++
				if !has(id, changelog.Delete) {
					why = "deleted"
				}
			case old != cur:
				checked++
				if !has(id, changelog.Edit, changelog.Add) {
					why = "changed"
				}
			}
			if why != "" {
				missing = append(missing, fmt.Sprintf("%s %s was %s without its entry in the change log", log, id, why))
			}
		}
	}
	return missing, checked
}
