// Package changelog keeps, per e-shop and resource, the list of changes
// behind the reference's "last changes" endpoints (GET /api/products/changes
// and its siblings): every generic write appends an entry (add, edit,
// delete) with the sandbox clock's time, inside the write's transaction.
// Behaviour packages that write records themselves (orders, documents)
// call Record too, so their resources' change lists stay complete.
package changelog

import (
	"encoding/json"
	"sort"
	"strconv"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
)

// The change types, as the service writes them in changeType.
const (
	Add    = "add"
	Edit   = "edit"
	Delete = "delete"
)

// Entry is one change.
type Entry struct {
	ID   string    `json:"id"`
	Type string    `json:"changeType"`
	Time time.Time `json:"-"`
	At   string    `json:"changeTime"`
}

// Collection is the store collection holding a resource's change log.
func Collection(resource string) string { return "changes/" + resource }

// Record appends a change of one record to the resource's log.
func Record(tx *store.Tx, eshop int, resource, id, changeType string) error {
	return RecordAt(tx, eshop, resource, id, changeType, tx.Now())
}

// RecordAt appends a change with an explicit time (used to rebuild the
// log of seeded records from their creation and change times).
func RecordAt(tx *store.Tx, eshop int, resource, id, changeType string, at time.Time) error {
	seq, err := tx.Next(eshop, "changes-id/"+resource)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(Entry{ID: id, Type: changeType, At: sandbox.FormatTime(at)})
	if err != nil {
		return err
	}
	_, err = tx.Put(eshop, Collection(resource), strconv.FormatInt(seq, 10), raw)
	return err
}

// Empty reports whether a resource has no change recorded yet.
func Empty(tx *store.Tx, eshop int, resource string) bool {
	return tx.Count(eshop, Collection(resource)) == 0
}

// Query selects changes: at or after From (zero = all) and of Type ("" =
// all), a page of them in the order they happened.
type Query struct {
	From          time.Time
	Type          string
	Offset, Limit int
}

// Page returns the matching changes and how many match in total.
func Page(tx *store.Tx, eshop int, resource string, q Query) ([]Entry, int, error) {
	keep := func(doc []byte) bool {
		if q.Type != "" && gjson.GetBytes(doc, "changeType").String() != q.Type {
			return false
		}
		if !q.From.IsZero() {
			t, err := sandbox.ParseTime(gjson.GetBytes(doc, "changeTime").String())
			if err != nil || t.Before(q.From) {
				return false
			}
		}
		return true
	}
	docs, total, err := tx.Page(eshop, Collection(resource), q.Offset, q.Limit, keep)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Entry, 0, len(docs))
	for _, d := range docs {
		var e Entry
		if err := json.Unmarshal(d, &e); err != nil {
			return nil, 0, err
		}
		e.Time, _ = sandbox.ParseTime(e.At)
		out = append(out, e)
	}
	return out, total, nil
}

// Backfill gives a resource whose log is empty the history its records
// tell: an add at each record's creation time and an edit at its change
// time when later, in time order. It runs after seeding, so the change
// endpoints answer with data on a fresh sandbox.
func Backfill(tx *store.Tx, eshop int, resource, idField string, created, changed []string) error {
	if !Empty(tx, eshop, resource) {
		return nil
	}
	var entries []Entry
	err := tx.Scan(eshop, resource, func(_ string, doc []byte) bool {
		id := gjson.GetBytes(doc, idField).String()
		c := firstTime(doc, created)
		m := firstTime(doc, changed)
		switch {
		case !c.IsZero():
			entries = append(entries, Entry{ID: id, Type: Add, Time: c})
			if m.After(c) {
				entries = append(entries, Entry{ID: id, Type: Edit, Time: m})
			}
		case !m.IsZero():
			entries = append(entries, Entry{ID: id, Type: Edit, Time: m})
		}
		return true
	})
	if err != nil {
		return err
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Time.Before(entries[j].Time) })
	for _, e := range entries {
		if err := RecordAt(tx, eshop, resource, e.ID, e.Type, e.Time); err != nil {
			return err
		}
	}
	return nil
}

func firstTime(doc []byte, fields []string) time.Time {
	for _, f := range fields {
		v := gjson.GetBytes(doc, f).String()
		if v == "" {
			continue
		}
		if t, err := sandbox.ParseTime(v); err == nil {
			return t
		}
		if t, err := time.Parse("2006-01-02", v); err == nil {
			return t
		}
	}
	return time.Time{}
}
