package jobs

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/files"
)

// checkUploads validates POST /api/system/files: a list of files, each
// with a sourceUrl.
func checkUploads(_ *api.Request, _ *store.Tx, body map[string]any) error {
	rows, _ := body["data"].([]any)
	if len(rows) == 0 {
		return sandbox.Invalid("data", "Field data: a list of files, each {\"sourceUrl\": \"https://...\"}, is required.")
	}
	for i, row := range rows {
		m, _ := row.(map[string]any)
		if trimmed(m, "sourceUrl") == "" {
			return sandbox.Invalid(fmt.Sprintf("data[%d].sourceUrl", i), "Field data[%d].sourceUrl: the URL of the image to upload is required.", i)
		}
	}
	return nil
}

// uploadFiles uploads every file of the request; the job fails (keeping
// the files that were accepted) when any is rejected.
func (s *Service) uploadFiles(ctx context.Context, j *Job) (Result, error) {
	rows, _ := j.body()["data"].([]any)
	items := make([]files.Item, len(rows))
	for i, row := range rows {
		m, _ := row.(map[string]any)
		items[i] = files.Item{Name: trimmed(m, "name"), SourceURL: trimmed(m, "sourceUrl")}
	}
	recs, errs := s.Files.Upload(ctx, j.EshopID, items)
	var ok, bad []string
	for i := range items {
		if errs[i] != nil {
			bad = append(bad, sandbox.AsError(errs[i]).Instance+": "+sandbox.AsError(errs[i]).Message)
			continue
		}
		ok = append(ok, recs[i].Name)
	}
	log := fmt.Sprintf("%d of %d files uploaded: %s.", len(ok), len(items), strings.Join(ok, ", "))
	if len(bad) > 0 {
		return Result{}, errors.New(log + " Rejected: " + strings.Join(bad, " "))
	}
	return Result{Log: log}, nil
}

// checkImages validates the product image jobs: the product exists and
// each image has a sourceUrl (and, to replace a source, the name of an
// existing image).
func (s *Service) checkImages(r *api.Request, tx *store.Tx, body map[string]any) error {
	guid := r.Var("guid")
	raw, err := tx.Get(r.Eshop, "products", guid)
	if errors.Is(err, sandbox.ErrNotFound) {
		return sandbox.NotFound(guid, "Product %q does not exist in this e-shop.", guid)
	}
	if err != nil {
		return err
	}
	data, _ := body["data"].(map[string]any)
	imgs, _ := data["images"].([]any)
	if len(imgs) == 0 {
		return sandbox.Invalid("data.images", "Field data.images: a list of images, each with sourceUrl, is required.")
	}
	rec, err := api.DecodeObject(raw)
	if err != nil {
		return err
	}
	for i, img := range imgs {
		m, _ := img.(map[string]any)
		if trimmed(m, "sourceUrl") == "" {
			return sandbox.Invalid(fmt.Sprintf("data.images[%d].sourceUrl", i), "Field data.images[%d].sourceUrl: the image URL is required.", i)
		}
		if r.Route.Operation == "UpdateProductImagesSource" {
			if name := trimmed(m, "name"); findImage(rec, name) == nil {
				return sandbox.NotFound(fmt.Sprintf("data.images[%d].name", i), "Product %s has no image %q.", guid, name)
			}
		}
	}
	return nil
}

func findImage(rec map[string]any, name string) map[string]any {
	imgs, _ := rec["images"].([]any)
	for _, img := range imgs {
		if m, ok := img.(map[string]any); ok && m["name"] == name && name != "" {
			return m
		}
	}
	return nil
}

// cuts are the image sizes a new image gets signed names for.
var cuts = []string{"orig", "big", "detail", "category", "related"}

// productImages downloads the images (png, jpg, gif, webp by content)
// and adds them to the product's gallery, or replaces the source of the
// named ones; product:update follows.
func (s *Service) productImages(ctx context.Context, j *Job) (Result, error) {
	data, _ := j.body()["data"].(map[string]any)
	imgs, _ := data["images"].([]any)
	type fetched struct {
		row  map[string]any
		hash string
		kind string
	}
	var good []fetched
	var bad []string
	for i, img := range imgs {
		m, _ := img.(map[string]any)
		content, err := s.Fetcher.Fetch(ctx, trimmed(m, "sourceUrl"))
		if err != nil {
			bad = append(bad, fmt.Sprintf("images[%d]: %v.", i, err))
			continue
		}
		kind, ok := files.Sniff(content)
		if !ok {
			bad = append(bad, fmt.Sprintf("images[%d]: not a png, jpg, gif or webp image.", i))
			continue
		}
		sum := sha1.Sum(content)
		good = append(good, fetched{row: m, hash: hex.EncodeToString(sum[:5]), kind: kind})
	}
	guid, gallery := j.Vars["guid"], j.Vars["gallery"]
	var names []string
	req := crud.Background(j.EshopID, j.Operation, j.Endpoint, j.Vars, j.Query)
	err := s.engine.Update(req, func(c *crud.Ctx) error {
		names = nil
		k, err := c.CollOf("products")
		if err != nil {
			return err
		}
		guid, rec, err := k.Find(guid)
		if err != nil {
			return err
		}
		list, _ := rec["images"].([]any)
		now := c.Now()
		for _, f := range good {
			img := findImage(rec, trimmed(f.row, "name"))
			if j.Operation == "CreateProductImages" || img == nil {
				name, seo, err := newImageNames(c, rec, list, trimmed(f.row, "sourceUrl"), f.kind)
				if err != nil {
					return err
				}
				img = map[string]any{"name": name, "seoName": seo, "gallery": gallery, "isMainImage": len(list) == 0}
				list = append(list, img)
			}
			name, _ := img["name"].(string)
			img["cdnName"] = name + "?" + f.hash
			signed := make([]any, len(cuts))
			for i, c := range cuts {
				signed[i] = map[string]any{"type": c, "name": name + "?" + f.hash[:4] + c[:2]}
			}
			img["signedCdnNames"] = signed
			img["changeTime"] = now
			for _, k := range []string{"description", "priority"} {
				if v, ok := f.row[k]; ok {
					img[k] = v
				}
			}
			names = append(names, name)
		}
		if len(names) == 0 {
			return nil
		}
		// The product's update goes through the generic write: change
		// time, change log and product:update as for a PATCH.
		_, err = c.UpdateOne(k, guid, map[string]any{"images": list}, false)
		return err
	})
	if err != nil {
		return Result{}, err
	}
	log := fmt.Sprintf("%d of %d images stored: %s.", len(names), len(imgs), strings.Join(names, ", "))
	if len(bad) > 0 {
		return Result{}, errors.New(log + " Rejected: " + strings.Join(bad, " "))
	}
	return Result{Log: log}, nil
}

// imageNumberSeq numbers the products of an e-shop that have images: an
// image's file name starts with its product's number ("3_tent.jpg"), as
// in the fixtures, so the names of one e-shop's images never collide
// (they share one folder per cut, {eshop_url}/user/shop/<cut>/).
const imageNumberSeq = "image-product-number"

// imageNumberRe reads the product number an image name starts with.
var imageNumberRe = regexp.MustCompile(`^([0-9]+)_`)

// newImageNames names an uploaded image of the product rec, whose images
// so far are list: the file name is the product's number, the source's
// base name and the format found ("3_tent-green.png"; "3_image.png" for
// a data: URL or a name with nothing left), made unique in the e-shop;
// the seoName is the product's URL slug and the image's position
// ("stan-alpine-2-4.png"), as the fixtures name theirs.
func newImageNames(c *crud.Ctx, rec map[string]any, list []any, sourceURL, kind string) (name, seo string, err error) {
	base := sandbox.Slug(strings.TrimSuffix(path.Base(sourceURL), path.Ext(sourceURL)))
	if base == "" || strings.HasPrefix(sourceURL, "data:") {
		base = "image"
	}
	n, err := productImageNumber(c, list)
	if err != nil {
		return "", "", err
	}
	taken := map[string]bool{}
	for _, it := range list {
		if m, ok := it.(map[string]any); ok {
			for _, f := range []string{"name", "seoName"} {
				if v, _ := m[f].(string); v != "" {
					taken[v] = true
				}
			}
		}
	}
	name = fmt.Sprintf("%d_%s.%s", n, base, kind)
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%d_%s-%d.%s", n, base, i, kind)
	}
	url, _ := rec["url"].(string)
	slug := ""
	if p := strings.Trim(strings.TrimPrefix(url, "{eshop_url}"), "/"); p != "" {
		slug = sandbox.Slug(path.Base(p)) // the product's own segment of its address
	}
	if slug == "" {
		name, _ := rec["name"].(string)
		slug = sandbox.Slug(name)
	}
	if slug == "" {
		slug = "image"
	}
	seo = fmt.Sprintf("%s-%d.%s", slug, len(list)+1, kind)
	for i := len(list) + 2; taken[seo]; i++ {
		seo = fmt.Sprintf("%s-%d.%s", slug, i, kind)
	}
	return name, seo, nil
}

// productImageNumber is the number the product's image names start
// with: the one its images already have, else the e-shop's next (after
// the largest any product's image has, seeded ones included).
func productImageNumber(c *crud.Ctx, list []any) (int64, error) {
	for _, it := range list {
		m, _ := it.(map[string]any)
		v, _ := m["name"].(string)
		if g := imageNumberRe.FindStringSubmatch(v); g != nil {
			if n, err := strconv.ParseInt(g[1], 10, 64); err == nil {
				return n, nil
			}
		}
	}
	tx, id := c.Tx, c.R.Eshop
	return tx.NextAfter(id, imageNumberSeq, func() (int64, error) {
		var max int64
		err := tx.Scan(id, "products", func(_ string, doc []byte) bool {
			gjson.GetBytes(doc, "images.#.name").ForEach(func(_, v gjson.Result) bool {
				if g := imageNumberRe.FindStringSubmatch(v.String()); g != nil {
					if n, err := strconv.ParseInt(g[1], 10, 64); err == nil && n > max {
						max = n
					}
				}
				return true
			})
			return true
		})
		return max, err
	})
}
