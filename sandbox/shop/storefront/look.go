package storefront

import (
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// LookKey is the eshop.json key (sandbox metadata, never shown to API
// clients) that gives an e-shop's storefront its logo and colours:
//
//	"_storefront": {"colors": {"primary": "#1f4d3a", "accent": "#d9822b"},
//	                "logoSvg": "<svg ...>...</svg>"}
//
// or "logoUrl": "{eshop_url}/..." / "https://..." instead of logoSvg.
const LookKey = "_storefront"

// MaxLogoSVG bounds an inline logo: it travels inside every page.
const MaxLogoSVG = 16 << 10

// Look is how an e-shop's storefront looks.
type Look struct {
	Primary string // header and button colour, #rrggbb
	Accent  string // prices and highlights, #rrggbb
	LogoURL string // an image address, placeholders allowed
	LogoSVG string // an SVG document shown as the logo image
}

// DefaultLook is the look of an e-shop whose fixtures give none: neutral
// slate and blue, the name's initials as the logo.
var DefaultLook = Look{Primary: "#2d3748", Accent: "#2b6cb0"}

var hexColour = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// ReadLook reads and checks the storefront look of eshop.json; a bad
// value is an error that names the field, so a fixture set with a typo
// refuses to load instead of showing a broken page.
func ReadLook(info []byte) (Look, error) {
	look := DefaultLook
	raw := gjson.GetBytes(info, LookKey)
	if !raw.Exists() || raw.Type == gjson.Null {
		return look, nil
	}
	var in struct {
		Colors *struct {
			Primary *string `json:"primary"`
			Accent  *string `json:"accent"`
		} `json:"colors"`
		LogoURL *string `json:"logoUrl"`
		LogoSVG *string `json:"logoSvg"`
	}
	dec := json.NewDecoder(strings.NewReader(raw.Raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return look, fmt.Errorf("%s: %v (the keys are colors.primary, colors.accent, logoUrl, logoSvg)", LookKey, strings.TrimPrefix(err.Error(), "json: "))
	}
	if c := in.Colors; c != nil {
		for _, f := range []struct {
			name string
			in   *string
			out  *string
		}{{"primary", c.Primary, &look.Primary}, {"accent", c.Accent, &look.Accent}} {
			if f.in == nil {
				continue
			}
			if !hexColour.MatchString(*f.in) {
				return look, fmt.Errorf("%s.colors.%s is %q: give a colour as #rrggbb", LookKey, f.name, *f.in)
			}
			*f.out = strings.ToLower(*f.in)
		}
	}
	if in.LogoURL != nil && in.LogoSVG != nil {
		return look, fmt.Errorf("%s: give logoUrl or logoSvg, not both", LookKey)
	}
	if u := in.LogoURL; u != nil {
		if !validLogoURL(*u) {
			return look, fmt.Errorf("%s.logoUrl is %q: give an http(s) address or one starting with {eshop_url}/ or {base_url}/", LookKey, *u)
		}
		look.LogoURL = *u
	}
	if s := in.LogoSVG; s != nil {
		if err := checkSVG(*s); err != nil {
			return look, fmt.Errorf("%s.logoSvg: %v", LookKey, err)
		}
		look.LogoSVG = *s
	}
	return look, nil
}

func validLogoURL(u string) bool {
	if strings.ContainsAny(u, " \t\r\n\"'<>") {
		return false
	}
	for _, p := range []string{"https://", "http://", "{eshop_url}/", "{base_url}/"} {
		if strings.HasPrefix(u, p) && len(u) > len(p) {
			return true
		}
	}
	return false
}

// checkSVG accepts a well-formed XML document whose root is <svg>. The
// logo is shown through <img>, where a browser runs no script and loads
// nothing an SVG refers to, so well-formedness is all the page needs.
func checkSVG(s string) error {
	if len(s) > MaxLogoSVG {
		return fmt.Errorf("%d bytes; at most %d", len(s), MaxLogoSVG)
	}
	dec := xml.NewDecoder(strings.NewReader(s))
	root := ""
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root != "" {
					return errors.New("more than one root element")
				}
				root = t.Name.Local
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if root != "svg" {
		return fmt.Errorf("the root element is %q, want svg", root)
	}
	return nil
}

// LogoSrc is the logo's image address: the SVG as a data: URL, or the
// logo address with its placeholders filled; "" when the e-shop has no
// logo.
func (l Look) LogoSrc(baseURL, eshopURL string) template.URL {
	if l.LogoSVG != "" {
		return template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(l.LogoSVG)))
	}
	if l.LogoURL != "" {
		return template.URL(strings.NewReplacer("{eshop_url}", eshopURL, "{base_url}", baseURL).Replace(l.LogoURL))
	}
	return ""
}

// OnPrimary is the text colour that reads on the primary colour: white on
// a dark one, near-black on a light one.
func (l Look) OnPrimary() string {
	if luminance(l.Primary) > 0.5 {
		return "#1a202c"
	}
	return "#ffffff"
}

// luminance is a colour's relative luminance (WCAG), 0 for black to 1
// for white.
func luminance(hex string) float64 {
	if !hexColour.MatchString(hex) {
		return 0
	}
	var lin [3]float64
	for i := range 3 {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			lin[i] = c / 12.92
		} else {
			lin[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
}

// initials are the first letters of the e-shop name's first two words,
// the logo of an e-shop without one.
func initials(name string) string {
	var out []rune
	for _, w := range strings.Fields(name) {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, unicode.ToUpper(r))
		}
		if len(out) == 2 {
			break
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return string(out)
}
