// Package files emulates the Files group: images uploaded from a URL
// (sourceUrl) are checked by their content (png, jpg, gif or webp only),
// listed, served at the e-shop's address and deleted 7 days later on the
// sandbox clock. The asynchronous multi-file upload runs as a job (see
// sandbox/shop/jobs), which calls Upload.
package files

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Collection is the per-e-shop store collection of uploaded files, by name.
const Collection = "files"

// Retention is how long an uploaded file is kept (spec, Limits).
const Retention = 7 * 24 * time.Hour

// Record is a stored upload; Content is metadata (never listed).
type Record struct {
	Name    string    `json:"name"`
	Kind    string    `json:"kind"`
	Size    int       `json:"size"`
	Source  string    `json:"sourceUrl"`
	Created time.Time `json:"created"`
	Content string    `json:"_content"` // base64
}

// Item is one file to upload.
type Item struct {
	Name      string // wanted file name; derived from the URL when empty
	SourceURL string
}

// Service serves the Files endpoints.
type Service struct {
	Store   *store.Store
	Site    *eshop.Site
	Fetcher *Fetcher
}

// Handlers returns the synchronous Files handlers keyed by operation; the
// asynchronous UploadFiles is a job.
func (s *Service) Handlers() map[string]api.HandlerFunc {
	return map[string]api.HandlerFunc{
		"UploadFile":             s.uploadOne,
		"GetListOfUploadedFiles": s.list,
	}
}

// Routes are the e-shop routes serving uploaded files.
func (s *Service) Routes() []api.Route {
	return []api.Route{{Operation: "files.serve", Method: http.MethodGet, Path: "/user/files/{name}", Handler: s.serve}}
}

// Entry is one file as the list and the upload answer show it.
type Entry struct {
	Name    string  `json:"name"`
	Created *string `json:"created"`
}

func entry(rec *Record) Entry {
	c := sandbox.FormatTime(rec.Created)
	return Entry{Name: rec.Name, Created: &c}
}

// URL is where an uploaded file is served.
func (s *Service) URL(eshopID int, name string) string {
	return s.Site.EshopURL(eshopID) + "/user/files/" + url.PathEscape(name)
}

func (s *Service) uploadOne(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data, _ := body["data"].(map[string]any)
	src, _ := data["sourceUrl"].(string)
	name, _ := data["name"].(string)
	if strings.TrimSpace(src) == "" {
		return nil, sandbox.Invalid("data.sourceUrl", "Field data.sourceUrl: the URL of the image to upload is required.")
	}
	if err := s.Store.View(func(tx *store.Tx) error { _, err := eshop.Get(tx, r.Eshop); return err }); err != nil {
		return nil, err
	}
	recs, errs := s.Upload(r.Context(), r.Eshop, []Item{{Name: name, SourceURL: src}})
	if errs[0] != nil {
		return nil, errs[0]
	}
	return &api.Result{Status: http.StatusCreated, Data: map[string]any{"file": nil, "image": entry(recs[0])}}, nil
}

// Upload downloads, checks and stores each item; errs[i] explains why
// item i was rejected (a 400 naming the field). Accepted files expire
// after Retention on the sandbox clock.
func (s *Service) Upload(ctx context.Context, eshopID int, items []Item) (recs []*Record, errs []error) {
	recs, errs = make([]*Record, len(items)), make([]error, len(items))
	for i, it := range items {
		field := "data.sourceUrl"
		if len(items) > 1 {
			field = fmt.Sprintf("data[%d].sourceUrl", i)
		}
		content, err := s.Fetcher.Fetch(ctx, it.SourceURL)
		if err != nil {
			errs[i] = sandbox.Invalid(field, "The file could not be downloaded: %v.", err)
			continue
		}
		kind, ok := Sniff(content)
		if !ok {
			errs[i] = sandbox.Invalid(field, "The file at %s is not an image the service accepts: only png, jpg, gif and webp are allowed, checked by content.", short(it.SourceURL))
			continue
		}
		name := it.Name
		if name == "" {
			name = nameFromURL(it.SourceURL, kind)
		}
		recs[i] = &Record{Name: name, Kind: kind, Size: len(content), Source: short(it.SourceURL), Content: base64.StdEncoding.EncodeToString(content)}
	}
	err := s.Store.Update(func(tx *store.Tx) error {
		now := tx.Now()
		for _, rec := range recs {
			if rec == nil {
				continue
			}
			rec.Created = now
			raw, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			if _, err := tx.PutExpiring(eshopID, Collection, rec.Name, raw, now.Add(Retention)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		for i := range errs {
			if errs[i] == nil {
				errs[i], recs[i] = err, nil
			}
		}
	}
	return recs, errs
}

var unsafeName = regexp.MustCompile(`[^0-9a-zA-Z_\-.]+`)

// nameFromURL derives a file name matching the reference's TypeFilename
// from the URL's last path segment.
func nameFromURL(raw, kind string) string {
	base := ""
	if u, err := url.Parse(raw); err == nil && u.Scheme != "data" {
		base = path.Base(u.Path)
	}
	base = strings.Trim(unsafeName.ReplaceAllString(base, "-"), "-.")
	if base == "" || base == "/" {
		base = "upload"
	}
	if path.Ext(base) == "" {
		base += "." + kind
	}
	if len(base) > 255 {
		base = base[len(base)-255:]
	}
	return base
}

func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

func (s *Service) list(r *api.Request) (any, error) {
	images := []Entry{}
	err := s.Store.View(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, r.Eshop); err != nil {
			return err
		}
		return tx.Scan(r.Eshop, Collection, func(_ string, doc []byte) bool {
			var rec Record
			if json.Unmarshal(doc, &rec) == nil {
				images = append(images, entry(&rec))
			}
			return true
		})
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"files": []Entry{}, "images": images}, nil
}

// Load returns an uploaded file, or 404 when it is unknown or expired.
func Load(tx *store.Tx, eshopID int, name string) (*Record, []byte, error) {
	raw, err := tx.Get(eshopID, Collection, name)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, nil, sandbox.NotFound(name, "File %q was not uploaded to this e-shop, or its 7 days are over.", name)
	}
	if err != nil {
		return nil, nil, err
	}
	var rec Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, nil, err
	}
	content, err := base64.StdEncoding.DecodeString(rec.Content)
	return &rec, content, err
}

func (s *Service) serve(r *api.Request) (any, error) {
	id, _ := strconv.Atoi(r.Var("eshopId"))
	var rec *Record
	var content []byte
	err := s.Store.View(func(tx *store.Tx) error {
		var err error
		rec, content, err = Load(tx, id, r.Var("name"))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &api.Raw{ContentType: MediaType(rec.Kind), Body: content}, nil
}
