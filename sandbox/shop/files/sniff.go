package files

import "bytes"

// Image kinds the service accepts (spec, Limits: png, jpg, gif, webp).
const (
	PNG  = "png"
	JPG  = "jpg"
	GIF  = "gif"
	WEBP = "webp"
)

// Sniff names the image kind of content by its leading bytes, never by a
// file name; ok is false for anything that is not png, jpg, gif or webp.
func Sniff(b []byte) (kind string, ok bool) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, true
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return JPG, true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return GIF, true
	case len(b) >= 12 && bytes.Equal(b[0:4], []byte("RIFF")) && bytes.Equal(b[8:12], []byte("WEBP")):
		return WEBP, true
	}
	return "", false
}

// MediaType is the Content-Type an image kind is served with.
func MediaType(kind string) string {
	switch kind {
	case JPG:
		return "image/jpeg"
	case "":
		return "application/octet-stream"
	}
	return "image/" + kind
}
