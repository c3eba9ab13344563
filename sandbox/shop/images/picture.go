package images

import (
	"bytes"
	"hash/fnv"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"path"
	"strings"
)

// MaxSide bounds a generated picture's width and height: a cut declared
// larger (a fixture's mistake, or a hostile one) is drawn at most this
// many pixels on a side, so one request never needs more than 16 MiB.
const MaxSide = 2048

// Orig sizes the "orig" cut, which GET /api/eshop?include=imageCuts gives
// without width and height (the original has the size it was uploaded
// in): the sandbox's originals are 1600×1200, 4:3 like the other cuts.
var Orig = Size{1600, 1200}

// Size is a picture's width and height in pixels.
type Size struct{ W, H int }

// SizeOf is the size drawn for a cut of the given width and height (0 for
// null): both given, that size; one given, the other at 4:3; neither,
// Orig. Each side is at least 1 and at most MaxSide.
func SizeOf(w, h int) Size {
	switch {
	case w <= 0 && h <= 0:
		w, h = Orig.W, Orig.H
	case w <= 0:
		w = h * 4 / 3
	case h <= 0:
		h = w * 3 / 4
	}
	return Size{min(max(w, 1), MaxSide), min(max(h, 1), MaxSide)}
}

// Format is how a picture is encoded, chosen by the image name's extension.
type Format struct {
	ContentType string
	encode      func(b *bytes.Buffer, name string, s Size) error
}

// FormatOf picks the encoding for an image name: JPEG for .jpg and .jpeg,
// GIF for .gif, PNG for .png and for anything else, .webp included (the
// standard library cannot write WebP; the Content-Type says PNG, which
// is what arrives).
func FormatOf(name string) Format {
	switch strings.ToLower(path.Ext(name)) {
	case ".jpg", ".jpeg":
		return Format{"image/jpeg", func(b *bytes.Buffer, name string, s Size) error {
			return jpeg.Encode(b, rgba(name, s), &jpeg.Options{Quality: 80})
		}}
	case ".gif":
		return Format{"image/gif", func(b *bytes.Buffer, name string, s Size) error {
			return gif.Encode(b, paletted(name, s), nil)
		}}
	}
	return Format{"image/png", func(b *bytes.Buffer, name string, s Size) error {
		return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(b, paletted(name, s))
	}}
}

// Encode draws the picture of an image (by its name) at a size and
// encodes it.
func (f Format) Encode(name string, s Size) ([]byte, error) {
	var b bytes.Buffer
	if err := f.encode(&b, name, s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// The picture is the same for a name at every size: a background colour
// of the image's own (so two images are told apart at a glance), diagonal
// stripes of a lighter shade and a dark frame one pixel in a hundred
// wide, so a cut's size shows in any viewer.
const (
	background = iota
	stripe
	frame
)

// palette is the picture's three colours for an image name.
func palette(name string) color.Palette {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	v := h.Sum32()
	r, g, b := uint8(v>>16)/2+64, uint8(v>>8)/2+64, uint8(v)/2+64 // mid tones: stripes and frame stay visible
	return color.Palette{
		color.RGBA{r, g, b, 255},
		color.RGBA{r + (255-r)/3, g + (255-g)/3, b + (255-b)/3, 255},
		color.RGBA{r / 3, g / 3, b / 3, 255},
	}
}

// paint calls set with the colour index of every pixel, row by row.
func paint(s Size, set func(i int, c uint8)) {
	border := max(1, min(s.W, s.H)/100)
	for y := 0; y < s.H; y++ {
		for x := 0; x < s.W; x++ {
			c := uint8(background)
			switch {
			case x < border || y < border || x >= s.W-border || y >= s.H-border:
				c = frame
			case (x+y)%32 < 8:
				c = stripe
			}
			set(y*s.W+x, c)
		}
	}
}

func paletted(name string, s Size) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, s.W, s.H), palette(name))
	paint(s, func(i int, c uint8) { img.Pix[i] = c })
	return img
}

func rgba(name string, s Size) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, s.W, s.H))
	var cols [3][4]uint8
	for i, c := range palette(name) {
		rgba := c.(color.RGBA)
		cols[i] = [4]uint8{rgba.R, rgba.G, rgba.B, rgba.A}
	}
	paint(s, func(i int, c uint8) { copy(img.Pix[4*i:4*i+4], cols[c][:]) })
	return img
}
