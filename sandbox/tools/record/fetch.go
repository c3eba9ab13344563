package record

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/upstream"
)

// perPage is the page size a recording asks for: the spec's maximum, so
// a list takes the fewest calls.
const perPage = 100

// StatusError is an answer other than 200, with the envelope's first
// error.
type StatusError struct {
	Path, Code, Message string
	Status              int
}

// gone reports whether the upstream answered 404: the record went away
// between the list and its detail.
func gone(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Status == 404
}

func (e *StatusError) Error() string {
	path, _, _ := strings.Cut(e.Path, "?") // the query (include lists, paging) says nothing here
	if e.Code != "" {
		return fmt.Sprintf("GET %s: %d %s: %s", path, e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("GET %s: %d", path, e.Status)
}

// reader reads envelopes through the client.
type reader struct {
	c   *upstream.Client
	ctx context.Context
}

// data returns the data object of a 200 answer; numbers stay exact
// (json.Number), so a recorded record writes them as they were read.
func (r *reader) data(path string) (map[string]any, error) {
	resp, err := r.c.Get(r.ctx, path)
	if err != nil {
		return nil, err
	}
	var env struct {
		Data   any `json:"data"`
		Errors []struct {
			ErrorCode string `json:"errorCode"`
			Message   string `json:"message"`
		} `json:"errors"`
	}
	dec := json.NewDecoder(bytes.NewReader(resp.Body))
	dec.UseNumber()
	decErr := dec.Decode(&env)
	if resp.Status != 200 {
		se := &StatusError{Path: path, Status: resp.Status}
		if decErr == nil && len(env.Errors) > 0 {
			se.Code, se.Message = env.Errors[0].ErrorCode, env.Errors[0].Message
		}
		return nil, se
	}
	if decErr != nil {
		return nil, fmt.Errorf("GET %s: the answer is not the JSON envelope: %v", path, decErr)
	}
	m, ok := env.Data.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("GET %s: data is not an object", path)
	}
	return m, nil
}

// list reads the items under key, page after page for a paged list,
// until max items (0: no bound). truncated says the list had more.
func (r *reader) list(path, key string, paged bool, max int, query ...string) (items []any, truncated bool, err error) {
	if !paged {
		d, err := r.data(withQuery(path, query...))
		if err != nil {
			return nil, false, err
		}
		items, err = itemsOf(d, key, path)
		if max > 0 && len(items) > max {
			return items[:max], true, err
		}
		return items, false, err
	}
	size := perPage
	if max > 0 && max < size {
		size = max
	}
	for page := 1; ; page++ {
		q := append([]string{"page", strconv.Itoa(page), "itemsPerPage", strconv.Itoa(size)}, query...)
		d, err := r.data(withQuery(path, q...))
		if err != nil {
			return nil, false, err
		}
		got, err := itemsOf(d, key, path)
		if err != nil {
			return nil, false, err
		}
		items = append(items, got...)
		pages := 1
		if pg, ok := d["paginator"].(map[string]any); ok {
			if n, err := strconv.Atoi(fmt.Sprint(pg["pageCount"])); err == nil {
				pages = n
			}
		}
		if max > 0 && len(items) >= max {
			return items[:max], len(items) > max || page < pages, nil
		}
		if len(got) == 0 || page >= pages {
			return items, false, nil
		}
	}
}

func itemsOf(d map[string]any, key, path string) ([]any, error) {
	v, ok := d[key]
	if !ok || v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("GET %s: data.%s is not a list", path, key)
	}
	return items, nil
}

// each runs fn for every index with the client's concurrency (the client
// itself caps calls at three); the first error wins.
func each(n int, fn func(i int) error) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	next := 0
	for range upstream.MaxConcurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if first != nil || next >= n {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// str renders an identifier read from JSON.
func str(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case json.Number:
		return t.String()
	}
	return fmt.Sprint(v)
}
