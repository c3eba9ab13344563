package webhooks

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Payload is the body of a webhook notification, in the reference's
// field order: eshopId, event, eventCreated, eventInstance.
type Payload struct {
	EshopID       int     `json:"eshopId"`
	Event         string  `json:"event"`
	EventCreated  *string `json:"eventCreated"`
	EventInstance string  `json:"eventInstance"`
}

// NewPayload builds the payload of an event; eventCreated is the event's
// time in the service's date format.
func NewPayload(ev sandbox.Event) Payload {
	p := Payload{EshopID: ev.EshopID, Event: ev.Kind, EventInstance: ev.Instance}
	if !ev.Time.IsZero() {
		s := sandbox.FormatTime(ev.Time)
		p.EventCreated = &s
	}
	return p
}

// Encode renders the payload exactly as the service's PHP side does with
// json_encode defaults: compact, "/" escaped as "\/", every non-ASCII
// character as a lowercase \uXXXX escape (surrogate pairs above U+FFFF).
// The signature covers these bytes, so a receiver that re-encodes a
// decoded body the PHP way gets the same signature.
func (p Payload) Encode() []byte {
	b := make([]byte, 0, 128)
	b = append(b, `{"eshopId":`...)
	b = strconv.AppendInt(b, int64(p.EshopID), 10)
	b = append(b, `,"event":`...)
	b = AppendPHPString(b, p.Event)
	b = append(b, `,"eventCreated":`...)
	if p.EventCreated == nil {
		b = append(b, "null"...)
	} else {
		b = AppendPHPString(b, *p.EventCreated)
	}
	b = append(b, `,"eventInstance":`...)
	b = AppendPHPString(b, p.EventInstance)
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// AppendPHPString appends s as a JSON string the way PHP's json_encode
// writes it by default. Invalid UTF-8 becomes U+FFFD.
func AppendPHPString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '/':
				b = append(b, '\\', '/')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				if c < 0x20 {
					b = appendU(b, rune(c))
				} else {
					b = append(b, c)
				}
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			b = appendU(b, 0xD800+(r>>10))
			b = appendU(b, 0xDC00+(r&0x3FF))
			continue
		}
		b = appendU(b, r)
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}

// EncodeList renders a list of identifiers the PHP way; mass events carry
// it, serialised, as their eventInstance.
func EncodeList(ids []string) string {
	b := []byte{'['}
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendPHPString(b, id)
	}
	return string(append(b, ']'))
}

// Sign is the value of the signature header: lowercase hex HMAC-SHA1 of
// the exact body bytes, keyed with the e-shop's signature key.
func Sign(key string, body []byte) string {
	m := hmac.New(sha1.New, []byte(key))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify is what a receiver does: compare the header with the body's
// signature in constant time.
func Verify(key string, body []byte, signature string) bool {
	want := Sign(key, body)
	return hmac.Equal([]byte(want), []byte(signature))
}

// formatPtr renders an optional time for records.
func formatPtr(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := sandbox.FormatTime(t)
	return &s
}
