package sandbox

import "testing"

func TestSlug(t *testing.T) {
	tests := map[string]string{
		"Gift wrapping":          "gift-wrapping",
		"Dárkové balení":         "darkove-baleni",
		"  Engraving -- 2 lines": "engraving-2-lines",
		"Größe/Farbe":            "grosse-farbe",
		"ŽLUŤOUČKÝ kůň":          "zlutoucky-kun",
		"!!!":                    "",
	}
	for in, want := range tests {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	for code, ok := range map[string]bool{"gift-wrapping": true, "Gift": false, "a--b": false, "": false, "x1": true, "-a": false} {
		if ValidCode(code) != ok {
			t.Errorf("ValidCode(%q) = %v", code, !ok)
		}
	}
}
