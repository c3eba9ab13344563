package orders

import "testing"

// TestSettingsCacheFollowsTheBytes: the parsed settings are reused while
// the stored bytes are the same and parsed anew when they change, per
// e-shop; without a cache they are parsed every time.
func TestSettingsCacheFollowsTheBytes(t *testing.T) {
	a := []byte(`{"_seq":1,"defaultStatus":-1,"statuses":[{"id":-1,"name":"New"}]}`)
	b := []byte(`{"_seq":1,"defaultStatus":-1,"statuses":[{"id":-1,"name":"New"},{"id":7,"name":"Packed"}]}`)
	c := newSettingsCache()
	first, err := c.statuses(1001, a)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.statuses(1001, append([]byte(nil), a...)); again != first {
		t.Error("equal bytes were parsed again")
	}
	if other, _ := c.statuses(1002, a); other == first {
		t.Error("another e-shop got the first one's parse")
	}
	changed, _ := c.statuses(1001, b)
	if _, ok := changed.Find(7); !ok || changed == first {
		t.Errorf("changed bytes gave %+v", changed)
	}
	if _, err := c.statuses(1001, []byte(`{"statuses":`)); err == nil {
		t.Error("a broken document parsed")
	}
	var none *settingsCache
	if p1, _ := none.statuses(1001, a); p1 == first || len(p1.List) != 1 {
		t.Errorf("without a cache: %+v", p1)
	}
	f := c.fields(1001, []byte(`{"contactInfo":{"email":"required"}}`))
	if g := c.fields(1001, []byte(`{"contactInfo":{"email":"required"}}`)); g["contactInfo"] == nil || len(g) != len(f) {
		t.Errorf("fields %v", g)
	}
	if g := c.fields(1001, []byte(`{}`)); len(g) != 0 {
		t.Errorf("changed fields %v", g)
	}
	// eshop.json's top-level fields: the first of duplicate keys, kept
	// while the bytes stay, found anew when they change; the fields do
	// not hang on the caller's buffer.
	doc := []byte(`{"settings":{"vatPayer":true},"currencies":[{"code":"CZK"}],"settings":{"vatPayer":false}}`)
	info := c.info(1001, doc)
	for i := range doc {
		doc[i] = ' '
	}
	if !info["settings"].Get("vatPayer").Bool() || info["currencies"].Get("0.code").String() != "CZK" {
		t.Errorf("info fields %v", info)
	}
	if again := c.info(1001, []byte(`{"settings":{"vatPayer":false}}`)); again["settings"].Get("vatPayer").Bool() || again["currencies"].Exists() {
		t.Errorf("changed info %v", again)
	}
	if none := none.info(1001, []byte(`{"a":1}`)); none["a"].Int() != 1 {
		t.Errorf("without a cache: %v", none)
	}
}

// TestMethodCacheGivesCopies: a method record is decoded once while its
// bytes stay the same, each caller gets a copy of its own (a change to
// one is not seen by the next), changed bytes are decoded anew, the
// store's "_seq" is dropped, and a broken record is an error.
func TestMethodCacheGivesCopies(t *testing.T) {
	a := []byte(`{"_seq":3,"guid":"g1","name":"Card","_branches":["A","B"],"shippingCompany":{"id":7}}`)
	b := []byte(`{"_seq":4,"guid":"g1","name":"Card online","_branches":["A"]}`)
	for _, c := range []*settingsCache{newSettingsCache(), nil} {
		first, err := c.method(1001, PaymentMethods, "g1", a)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := first["_seq"]; ok || first["name"] != "Card" {
			t.Fatalf("decoded %v", first)
		}
		first["name"] = "changed by a caller"
		first["_branches"].([]any)[0] = "Z"
		first["shippingCompany"].(map[string]any)["id"] = "x"
		again, _ := c.method(1001, PaymentMethods, "g1", append([]byte(nil), a...))
		if again["name"] != "Card" || again["_branches"].([]any)[0] != "A" || again["shippingCompany"].(map[string]any)["id"] == "x" {
			t.Fatalf("a caller's change reached the next caller: %v", again)
		}
		if other, _ := c.method(1001, ShippingMethods, "g1", b); other["name"] != "Card online" {
			t.Fatalf("another collection's record: %v", other)
		}
		if changed, _ := c.method(1001, PaymentMethods, "g1", b); changed["name"] != "Card online" {
			t.Fatalf("changed bytes gave %v", changed)
		}
		if _, err := c.method(1001, PaymentMethods, "g2", []byte(`{"guid":`)); err == nil {
			t.Fatal("a broken record decoded")
		}
	}
}
