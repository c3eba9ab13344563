package sandbox

import (
	crand "crypto/rand"
	"encoding/hex"
	"math/rand/v2"
	"sync"
)

// IDs generates identifiers. With a seed it is deterministic, so golden
// files and CI scenarios see the same request ids and GUIDs on every run;
// without one it draws from crypto/rand.
type IDs struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// NewIDs returns a generator; seed 0 means truly random.
func NewIDs(seed uint64) *IDs {
	if seed == 0 {
		return &IDs{}
	}
	return &IDs{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (g *IDs) fill(b []byte) {
	if g.rng == nil {
		_, _ = crand.Read(b)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := range b {
		b[i] = byte(g.rng.Uint32())
	}
}

// UUID returns a version-4-shaped UUID string, used for request ids and GUIDs.
func (g *IDs) UUID() string {
	var b [16]byte
	g.fill(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], b[10:16])
	return string(out[:])
}

// Token returns a random string of n characters from [A-Za-z0-9], used for
// OAuth codes (255 characters) and tokens.
func (g *IDs) Token(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	g.fill(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
