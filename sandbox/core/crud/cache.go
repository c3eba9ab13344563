package crud

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// maxCached bounds the render cache; when full it starts over (a load
// test reads a few addresses over and over, a test suite writes often).
const maxCached = 4096

// renderCache keeps the encoded data of read answers (detail and list),
// so a repeated read answers without decoding, rendering and shaping the
// stored records again. An entry is valid for the store's write
// generation it was rendered at: any write makes every entry stale. An
// answer whose rendering read the clock, an expiring record, or filled a
// default from the time or a fresh UUID is never kept.
type renderCache struct {
	mu      sync.RWMutex
	entries map[string]cached
}

type cached struct {
	gen  uint64
	data any // an api.EncodedJSON, boxed once: answering it boxes nothing
}

func newRenderCache() *renderCache { return &renderCache{entries: map[string]cached{}} }

// cacheKey names an answer by everything it is rendered from besides the
// stored data: operation, e-shop, path (ids), query (page, filters,
// include, language) and the public base URL (links in the answer).
// It is built into the caller's buffer: a cache hit looks it up without
// making it a string (the one allocation is on a miss, to keep it).
func appendCacheKey(b []byte, r *api.Request, op *registry.Op, baseURL string) []byte {
	b = append(b, op.Operation...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(r.Eshop), 10)
	b = append(b, 0)
	b = append(b, r.URL.Path...)
	b = append(b, 0)
	b = append(b, r.URL.RawQuery...)
	b = append(b, 0)
	return append(b, baseURL...)
}

func (rc *renderCache) get(key []byte, gen uint64) (any, bool) {
	rc.mu.RLock()
	e, ok := rc.entries[string(key)]
	rc.mu.RUnlock()
	if !ok || e.gen != gen {
		return nil, false
	}
	return e.data, true
}

func (rc *renderCache) put(key string, gen uint64, data any) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if _, ok := rc.entries[key]; !ok && len(rc.entries) >= maxCached {
		clear(rc.entries)
	}
	rc.entries[key] = cached{gen: gen, data: data}
}

// encodeData encodes answer data exactly as the envelope writer would
// (no HTML escaping, keys sorted), without the trailing newline.
func encodeData(v any) (api.EncodedJSON, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return api.EncodedJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// viewCached answers a read from the render cache when nothing was
// written since it was rendered, else renders it with fn in a read
// transaction and keeps it when the rendering was deterministic.
func (e *Engine) viewCached(r *api.Request, op *registry.Op, fn func(c *Ctx) (any, error)) (any, error) {
	var kb [256]byte
	key := appendCacheKey(kb[:0], r, op, e.d.Site.BaseURL)
	// A hit needs no transaction: the generation read outside one names
	// the same commit a read transaction would see (a write in progress
	// has already moved it on), and skipping the transaction spares the
	// store's lock, shared by every reader, on every cached read.
	if data, ok := e.cache.get(key, e.d.Store.Generation()); ok {
		return data, nil
	}
	var out any
	err := e.d.Store.View(func(tx *store.Tx) error {
		gen := tx.Generation()
		if data, ok := e.cache.get(key, gen); ok {
			out = data
			return nil
		}
		c, err := e.ctx(r, tx)
		if err != nil {
			return err
		}
		data, err := fn(c)
		if err != nil {
			return err
		}
		out = data
		if !tx.Cacheable() || c.Gen.Volatile {
			return nil
		}
		raw, err := encodeData(data)
		if err != nil {
			return nil // the envelope writer reports it
		}
		out = raw
		e.cache.put(string(key), gen, out)
		return nil
	})
	return out, err
}
