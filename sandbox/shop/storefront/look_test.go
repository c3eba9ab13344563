package storefront

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestReadLook(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>`
	tests := []struct {
		name, info string
		want       Look
		err        string
	}{
		{"none", `{}`, DefaultLook, ""},
		{"null", `{"_storefront": null}`, DefaultLook, ""},
		{"colours", `{"_storefront": {"colors": {"primary": "#1F4D3A", "accent": "#c8641b"}}}`, Look{Primary: "#1f4d3a", Accent: "#c8641b"}, ""},
		{"one colour", `{"_storefront": {"colors": {"accent": "#000000"}}}`, Look{Primary: DefaultLook.Primary, Accent: "#000000"}, ""},
		{"logo address", `{"_storefront": {"logoUrl": "{eshop_url}/logo.png"}}`, Look{Primary: DefaultLook.Primary, Accent: DefaultLook.Accent, LogoURL: "{eshop_url}/logo.png"}, ""},
		{"logo svg", `{"_storefront": {"logoSvg": ` + quote(svg) + `}}`, Look{Primary: DefaultLook.Primary, Accent: DefaultLook.Accent, LogoSVG: svg}, ""},
		{"short colour", `{"_storefront": {"colors": {"primary": "#fff"}}}`, Look{}, `colors.primary is "#fff"`},
		{"named colour", `{"_storefront": {"colors": {"accent": "red"}}}`, Look{}, `colors.accent is "red"`},
		{"css injection", `{"_storefront": {"colors": {"accent": "#000000;}body{display:none"}}}`, Look{}, `colors.accent`},
		{"unknown key", `{"_storefront": {"logo": "x"}}`, Look{}, `unknown field "logo"`},
		{"not an object", `{"_storefront": "green"}`, Look{}, `_storefront: cannot unmarshal string`},
		{"both logos", `{"_storefront": {"logoUrl": "https://x.example/l.png", "logoSvg": ` + quote(svg) + `}}`, Look{}, "not both"},
		{"script address", `{"_storefront": {"logoUrl": "javascript:alert(1)"}}`, Look{}, `logoUrl is "javascript:alert(1)"`},
		{"relative address", `{"_storefront": {"logoUrl": "logo.png"}}`, Look{}, `logoUrl is "logo.png"`},
		{"quote in address", `{"_storefront": {"logoUrl": "https://x.example/\"onerror=\"x"}}`, Look{}, `logoUrl is`},
		{"html logo", `{"_storefront": {"logoSvg": "<html><svg/></html>"}}`, Look{}, `the root element is "html"`},
		{"broken svg", `{"_storefront": {"logoSvg": "<svg><g></svg>"}}`, Look{}, "not well-formed"},
		{"two roots", `{"_storefront": {"logoSvg": "<svg/><svg/>"}}`, Look{}, "more than one root"},
		{"huge svg", `{"_storefront": {"logoSvg": "<svg>` + strings.Repeat("<g/>", MaxLogoSVG/4) + `</svg>"}}`, Look{}, "at most"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadLook([]byte(tc.info))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func TestLookRendering(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg"/>`
	if got := (Look{LogoSVG: svg}).LogoSrc("http://b", "http://b/eshops/1"); string(got) != "data:image/svg+xml;base64,"+base64.StdEncoding.EncodeToString([]byte(svg)) {
		t.Errorf("svg logo src %q", got)
	}
	if got := (Look{LogoURL: "{eshop_url}/l.png"}).LogoSrc("http://b", "http://b/eshops/1"); got != "http://b/eshops/1/l.png" {
		t.Errorf("logo address %q", got)
	}
	if got := (Look{LogoURL: "{base_url}/l.png"}).LogoSrc("http://b", "http://b/eshops/1"); got != "http://b/l.png" {
		t.Errorf("logo address %q", got)
	}
	if got := (Look{}).LogoSrc("http://b", "http://b/eshops/1"); got != "" {
		t.Errorf("no logo: %q", got)
	}
	for _, tc := range []struct{ primary, want string }{
		{"#1f4d3a", "#ffffff"}, {"#000000", "#ffffff"}, {"#2d3748", "#ffffff"}, {"#ffffff", "#1a202c"}, {"#f2b134", "#1a202c"},
	} {
		if got := (Look{Primary: tc.primary}).OnPrimary(); got != tc.want {
			t.Errorf("text on %s: %s, want %s", tc.primary, got, tc.want)
		}
	}
	for _, tc := range []struct{ name, want string }{
		{"Trailvik Outdoor", "TO"}, {"lakelark paddle supply", "LP"}, {"Čerstvé ovoce", "ČO"}, {"  ", "?"}, {"42 shop", "4S"}, {"—", "?"},
	} {
		if got := initials(tc.name); got != tc.want {
			t.Errorf("initials(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
