// Package changelog keeps, per e-shop and resource, the list of changes
// behind the reference's "last changes" endpoints (GET /api/products/changes
// and its siblings): every write of a change-logged registry table
// appends an entry (add, edit, delete) with the sandbox clock's time,
// inside the write's transaction. Only crud's Writer (the one write path,
// behaviour packages included) calls Record.
package changelog

import (
	"encoding/json"
	"sort"
	"strconv"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
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

// Record appends a change of one record to the resource's log, after
// the history of the seeded records (see Backfill).
func Record(tx *store.Tx, eshop int, resource, id, changeType string) error {
	if err := backfillOnce(tx, eshop, resource); err != nil {
		return err
	}
	return RecordAt(tx, eshop, resource, id, changeType, tx.Now())
}

// The history of the seeded records is written on first need, not at
// start: a sandbox seeded with 100,000 orders would otherwise write
// 200,000 entries before its first answer. A value marks a resource whose
// history is in its log.
func doneKey(eshop int, resource string) string {
	return "changelog-backfilled:" + strconv.Itoa(eshop) + ":" + resource
}

func backfilled(tx *store.Tx, eshop int, resource string) bool {
	_, ok := tx.GetValue(doneKey(eshop, resource))
	return ok
}

func backfillOnce(tx *store.Tx, eshop int, resource string) error {
	if backfilled(tx, eshop, resource) {
		return nil
	}
	if err := Backfill(tx, eshop, resource, createdFields, changedFields); err != nil {
		return err
	}
	return tx.SetValue(doneKey(eshop, resource), "1")
}

// Seed gives a resource's log the history of its seeded records. Over a
// base layer (an in-memory store, see store.Tx.Attach) that is deferred
// until the log is first written or read, and then told by the seeded
// records as they were seeded; otherwise it is written now.
func Seed(tx *store.Tx, eshop int, resource string) error {
	if tx.HasBase(eshop, resource) {
		return nil
	}
	return backfillOnce(tx, eshop, resource)
}

// Ensure writes a resource's seeded history into its log if that was not
// done yet, so that reading the log (a read-only transaction) finds it.
func Ensure(st *store.Store, eshop int, resource string) error {
	need := false
	_ = st.View(func(tx *store.Tx) error {
		need = tx.HasBase(eshop, resource) && !backfilled(tx, eshop, resource)
		return nil
	})
	if !need {
		return nil
	}
	return st.Update(func(tx *store.Tx) error { return backfillOnce(tx, eshop, resource) })
}

// The record fields that tell when a seeded record was created and last
// changed, first found wins.
var (
	createdFields = []string{"creationTime", "createdAt", "created"}
	changedFields = []string{"changeTime", "updatedAt", "updated"}
)

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

// match tells whether a change of the type at the time is selected.
func (q Query) match(changeType string, at time.Time) bool {
	return (q.Type == "" || changeType == q.Type) && (q.From.IsZero() || !at.Before(q.From))
}

// Page returns the matching changes and how many match in total. Call
// Ensure first: without it, a log whose seeded history was not written
// yet is read from the records themselves, which is slower.
func Page(tx *store.Tx, eshop int, resource string, q Query) ([]Entry, int, error) {
	if !backfilled(tx, eshop, resource) {
		all, err := history(tx, eshop, resource, createdFields, changedFields)
		if err != nil {
			return nil, 0, err
		}
		var out []Entry
		total := 0
		for _, e := range all {
			if !q.match(e.Type, e.Time) {
				continue
			}
			if total >= q.Offset && len(out) < q.Limit {
				e.At = sandbox.FormatTime(e.Time)
				out = append(out, e)
			}
			total++
		}
		return out, total, nil
	}
	keep := func(doc []byte) bool {
		t, err := sandbox.ParseTime(gjson.GetBytes(doc, "changeTime").String())
		return (err == nil || q.From.IsZero()) && q.match(gjson.GetBytes(doc, "changeType").String(), t)
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

// Backfill writes into a resource's log the history its records tell:
// an add at each record's creation time and an edit at its change time
// when later, in time order. Record and Ensure run it once per resource.
func Backfill(tx *store.Tx, eshop int, resource string, created, changed []string) error {
	entries, err := history(tx, eshop, resource, created, changed)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := RecordAt(tx, eshop, resource, e.ID, e.Type, e.Time); err != nil {
			return err
		}
	}
	return nil
}

// history is the change history the records tell, in time order: the
// seeded records as seeded when the collection has a base layer, else the
// stored ones.
func history(tx *store.Tx, eshop int, resource string, created, changed []string) ([]Entry, error) {
	var entries []Entry
	scan := tx.Scan
	if tx.HasBase(eshop, resource) {
		scan = tx.ScanSeeded
	}
	err := scan(eshop, resource, func(id string, doc []byte) bool {
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
		return nil, err
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Time.Before(entries[j].Time) })
	return entries, nil
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
