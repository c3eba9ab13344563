package products

import (
	"encoding/json"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// prepareProductLink checks that an alternative or related product
// exists and is not the product itself, and numbers it after the others.
func prepareProductLink(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
	g := crud.IDString(rec["guid"])
	if g == k.ParentID {
		return sandbox.Invalid("data.guid", "A product cannot be linked to itself.")
	}
	pk, err := c.Coll(c.Row("products"))
	if err != nil {
		return err
	}
	_, p, err := pk.Find(g)
	if err != nil {
		return sandbox.NotFound("data.guid", "Field guid: product %q does not exist in this e-shop.", g)
	}
	if rec["visibility"] == nil {
		rec["visibility"] = p["visibility"]
	}
	if rec["linkType"] == nil {
		rec["linkType"] = "unidirectional"
	}
	if rec["priority"] == nil {
		rec["priority"] = json.Number(strconv.Itoa(len(k.Elements()) + 1))
	}
	return nil
}

// variantOwner finds the product holding a variant code.
func variantOwner(c *crud.Ctx, code, field string) (map[string]any, error) {
	pk, err := c.Coll(c.Row("products"))
	if err != nil {
		return nil, err
	}
	recs, err := pk.All(func(doc []byte) bool { return crud.FieldEquals(doc, "variants.#.code", code) })
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, sandbox.NotFound(field, "Field %s: no product variant has code %q in this e-shop.", field, code)
	}
	return recs[0], nil
}

func prepareGift(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
	if _, err := variantOwner(c, crud.IDString(rec["code"]), "data.giftCode"); err != nil {
		return err
	}
	if rec["priority"] == nil {
		rec["priority"] = json.Number(strconv.Itoa(len(k.Elements()) + 1))
	}
	return nil
}

func prepareSetItem(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
	p, err := variantOwner(c, crud.IDString(rec["code"]), "data.code")
	if err != nil {
		return err
	}
	rec["guid"] = p["guid"]
	if rec["amount"] == nil {
		rec["amount"] = "1.000"
	}
	return nil
}

func prepareRelatedFile(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
	if name := str(orig["sourceFileName"]); name != "" {
		rec["url"] = "{eshop_url}/user/related_files/" + name
	}
	if d := str(orig["description"]); d != "" {
		rec["name"] = d
	} else if rec["name"] == nil {
		rec["name"] = orig["sourceFileName"]
	}
	return nil
}
