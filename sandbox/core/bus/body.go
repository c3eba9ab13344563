package bus

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Body is a recorded HTTP body. It keeps the bytes in the parts they were
// written in, so that a part which is a cached answer (immutable, shared by
// every call that sends it) is referenced by the record instead of copied:
// recording a read then costs no copy of its body. Its JSON form is the
// whole body as base64, as a []byte marshals.
type Body struct {
	parts [][]byte
	n     int
}

// NewBody records b as one part (it is not copied).
func NewBody(b []byte) Body {
	if len(b) == 0 {
		return Body{}
	}
	return Body{parts: [][]byte{b}, n: len(b)}
}

// Append adds a part (not copied: the caller hands over b).
func (b *Body) Append(p []byte) {
	if len(p) == 0 {
		return
	}
	b.parts = append(b.parts, p)
	b.n += len(p)
}

// Grow makes room for n more parts, so that appending them allocates
// once.
func (b *Body) Grow(n int) { b.parts = slices.Grow(b.parts, n) }

// Len is the number of bytes recorded.
func (b Body) Len() int { return b.n }

// Bytes is the whole body; a body of one part is returned as it is, more
// parts are joined into a new slice.
func (b Body) Bytes() []byte {
	switch len(b.parts) {
	case 0:
		return nil
	case 1:
		return b.parts[0]
	}
	out := make([]byte, 0, b.n)
	for _, p := range b.parts {
		out = append(out, p...)
	}
	return out
}

// AppendTo appends the whole body to dst, for a reader that joins
// many bodies into one buffer of its own rather than a new one each.
func (b Body) AppendTo(dst []byte) []byte {
	for _, p := range b.parts {
		dst = append(dst, p...)
	}
	return dst
}

// Contains reports whether sub is within the body, across parts too,
// without joining them (Bytes copies a body of several parts).
func (b Body) Contains(sub []byte) bool {
	if len(b.parts) <= 1 {
		return bytes.Contains(b.Bytes(), sub)
	}
	for _, p := range b.parts {
		if bytes.Contains(p, sub) {
			return true
		}
	}
	// A match across the end of a part starts within its last
	// len(sub)-1 bytes and ends within as many bytes after it.
	k := len(sub) - 1
	if k < 1 {
		return false
	}
	var buf [128]byte
	for i := 0; i+1 < len(b.parts); i++ {
		p := b.parts[i]
		tail := p[max(0, len(p)-k):]
		win := append(buf[:0], tail...)
		for j := i + 1; j < len(b.parts) && len(win) < len(tail)+k; j++ {
			q := b.parts[j]
			win = append(win, q[:min(len(q), len(tail)+k-len(win))]...)
		}
		if bytes.Contains(win, sub) {
			return true
		}
	}
	return false
}

// Head appends the body's first n bytes (all of it when shorter) to dst,
// across parts, without joining the rest.
func (b Body) Head(dst []byte, n int) []byte {
	for _, p := range b.parts {
		if n <= 0 {
			break
		}
		k := min(n, len(p))
		dst = append(dst, p[:k]...)
		n -= k
	}
	return dst
}

// Tail appends the body's last n bytes (all of it when shorter) to dst,
// across parts, without joining the rest.
func (b Body) Tail(dst []byte, n int) []byte {
	n = min(n, b.n)
	skip := b.n - n
	for _, p := range b.parts {
		if skip >= len(p) {
			skip -= len(p)
			continue
		}
		dst = append(dst, p[skip:]...)
		skip = 0
	}
	return dst
}

// String is the whole body as text.
func (b Body) String() string { return string(b.Bytes()) }

// MarshalJSON writes the body as a base64 string, like []byte.
func (b Body) MarshalJSON() ([]byte, error) {
	if b.n == 0 {
		return []byte(`null`), nil
	}
	return json.Marshal(b.Bytes())
}

// UnmarshalJSON reads the base64 form MarshalJSON writes.
func (b *Body) UnmarshalJSON(data []byte) error {
	var raw []byte
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*b = NewBody(raw)
	return nil
}

// IsZero reports an empty body, so `omitempty`-style callers can skip it.
func (b Body) IsZero() bool { return b.n == 0 }
