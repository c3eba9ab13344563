package images

import (
	"bytes"
	"image"
	"image/color"
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"
	"testing"
)

// TestSizeOf: a cut with both sides is drawn at that size, one side gives
// the other at 4:3, none gives Orig, and every side stays within 1 and
// MaxSide.
func TestSizeOf(t *testing.T) {
	for _, c := range []struct {
		w, h int
		want Size
	}{
		{1024, 768, Size{1024, 768}},
		{100, 100, Size{100, 100}},
		{0, 0, Orig},
		{0, 300, Size{400, 300}},
		{400, 0, Size{400, 300}},
		{1, 1, Size{1, 1}},
		{100000, 50, Size{MaxSide, 50}},
		{-5, 10, Size{13, 10}},
	} {
		if got := SizeOf(c.w, c.h); got != c.want {
			t.Errorf("SizeOf(%d, %d) = %v, want %v", c.w, c.h, got, c.want)
		}
	}
}

// TestPictures: each extension gets its format and Content-Type, and the
// picture decodes with the standard library at the size asked for, with
// a frame darker than its middle and two names in different colours.
func TestPictures(t *testing.T) {
	for _, c := range []struct {
		name, contentType, format string
	}{
		{"1_tent.jpg", "image/jpeg", "jpeg"},
		{"2_TENT.JPEG", "image/jpeg", "jpeg"},
		{"3_tent.png", "image/png", "png"},
		{"4_tent.gif", "image/gif", "gif"},
		{"5_tent.webp", "image/png", "png"},
		{"6_no-extension", "image/png", "png"},
	} {
		for _, s := range []Size{{360, 270}, {100, 100}, {1, 1}, {216, 105}} {
			f := FormatOf(c.name)
			if f.ContentType != c.contentType {
				t.Fatalf("%s: Content-Type %s, want %s", c.name, f.ContentType, c.contentType)
			}
			raw, err := f.Encode(c.name, s)
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, s, err)
			}
			img, format, err := image.Decode(bytes.NewReader(raw))
			if err != nil || format != c.format {
				t.Fatalf("%s %v: decoded as %q: %v", c.name, s, format, err)
			}
			if b := img.Bounds(); b.Dx() != s.W || b.Dy() != s.H {
				t.Fatalf("%s: %dx%d, want %dx%d", c.name, b.Dx(), b.Dy(), s.W, s.H)
			}
			if s.W > 10 && luma(img.At(0, 0)) >= luma(img.At(s.W/2+3, s.H/2)) {
				t.Errorf("%s %v: the frame is not darker than the middle", c.name, s)
			}
		}
	}
	a, _ := FormatOf("a.png").Encode("a.png", Size{50, 50})
	b, _ := FormatOf("b.png").Encode("b.png", Size{50, 50})
	if bytes.Equal(a, b) {
		t.Error("two images look the same")
	}
}

func luma(c color.Color) uint32 {
	r, g, b, _ := c.RGBA()
	return (299*r + 587*g + 114*b) / 1000
}
