package storefront

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/store"
)

func TestRenderInsertsTemplates(t *testing.T) {
	st, err := store.Open(store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_ = st.Update(func(tx *store.Tx) error {
		_, _ = tx.Put(1, TemplatesCollection, CommonHeader, []byte(`{"html":"<meta name=\"x\" content=\"head\">"}`))
		_, _ = tx.Put(1, TemplatesCollection, CommonFooter, []byte(`{"html":"<script>footer()</script>"}`))
		_, _ = tx.Put(1, TemplatesCollection, OrderConfirmed, []byte(`{"html":"<img src=\"/pixel\">"}`))
		return nil
	})
	tests := []struct {
		name      string
		confirmed bool
		want      []string
		not       []string
	}{
		{"preview", false, []string{`<meta name="x" content="head">`, `<script>footer()</script>`, "<title>Shop &amp; co</title>"}, []string{"/pixel"}},
		{"confirmed", true, []string{`<img src="/pixel">`}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out string
			_ = st.View(func(tx *store.Tx) error {
				out = string(Render(tx, 1, Page{Title: "Shop & co", Body: "<p>hi</p>", OrderConfirmed: tc.confirmed}))
				return nil
			})
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("unexpected %q", n)
				}
			}
			if strings.Index(out, "head") > strings.Index(out, "</head>") || strings.Index(out, "footer()") < strings.Index(out, "<p>hi</p>") {
				t.Errorf("inserts in the wrong place:\n%s", out)
			}
		})
	}
	var other string
	_ = st.View(func(tx *store.Tx) error { other = string(Render(tx, 2, Page{Title: "x"})); return nil })
	if strings.Contains(other, "footer()") {
		t.Fatal("another e-shop's template leaked")
	}
}
