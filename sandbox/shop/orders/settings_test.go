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
}
