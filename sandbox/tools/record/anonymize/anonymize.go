// Package anonymize replaces the personal data in records read from a
// real e-shop (names, e-mail addresses, phone numbers, postal addresses,
// IP addresses, company and bank identifiers, birth dates and the texts
// customers write) with fakes, so that a recorded fixture set can be
// shared and committed.
//
// A fake is derived from the original value by a keyed hash (HMAC-SHA256):
// the same value always gets the same fake under one key, wherever it
// appears, so references between records stay whole (an order's e-mail is
// still its customer's, an unsubscribed address is still on the mailing
// list), while without the key nobody can test a guess of the original
// against the fake. Fakes keep the shape the schemas expect: e-mails stay
// e-mails (at the reserved example.com domain), dates stay dates, digits
// stay digits.
//
// Which fields hold personal data is decided by their names (Fields),
// plus two context rules: a name, title or text beside a plain "email" or
// "phone" (a review, a discussion post, a shipment's recipient) is a
// person's, and so is the name of an order history entry's user.
// Finally Scrub replaces, inside every other text, any e-mail, phone,
// full name or street that was replaced somewhere, so that "Status changed
// by Jana Horáková" does not keep the name the customer record lost.
package anonymize

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net"
	"strings"
	"sync"
	"unicode"
)

// Kind is what sort of personal datum a value is; it picks the fake.
type Kind string

// The kinds of personal data and how each is faked.
const (
	Email    Kind = "email"    // first.last.hex@example.com
	Phone    Kind = "phone"    // digits replaced, a leading +country code kept
	Person   Kind = "person"   // a first and last name
	Company  Kind = "company"  // a surname and a trade word
	Street   Kind = "street"   // a street name
	City     Kind = "city"     // a town name
	Code     Kind = "code"     // digits and letters replaced one by one (zip, house number, company id, IBAN)
	IP       Kind = "ip"       // an address of the documentation ranges
	Birthday Kind = "birthday" // a date between 1950 and 2004
	Text     Kind = "text"     // free text a person wrote: "Recorded text <hex>"
)

// Fields maps a field name to the kind of personal data it holds
// wherever it appears. Only string values are replaced (a null stays
// null), and an array of strings under the name has each element
// replaced.
var Fields = map[string]Kind{
	"email": Email, "billingEmail": Email, "contactEmail": Email, "reactionEmail": Email,
	"unsubscribedEmail": Email, "userEmail": Email, "emails": Email,
	"phone": Phone, "mobilePhone": Phone, "contactPhone": Phone, "fax": Phone,
	"fullName": Person, "billFullName": Person, "reactionFullName": Person, "contactPerson": Person,
	"ownerName": Person, "firstName": Person, "lastName": Person, "customerName": Person,
	"company": Company, "billCompany": Company, "billingName": Company, "companyName": Company,
	"street": Street, "billStreet": Street, "streetAddress": Street, "streetWithNr": Street,
	"city": City, "billCity": City, "district": City, "billDistrict": City,
	"houseNumber": Code, "billHouseNumber": Code, "zip": Code, "zipCode": Code, "billZip": Code,
	"companyId": Code, "vatId": Code, "taxId": Code, "identificationNumber": Code,
	"iban": Code, "billIban": Code, "bankAccount": Code, "billBankAccount": Code, "accountNumber": Code,
	"bic": Code, "billBic": Code,
	"ipAddress": IP, "clientIPAddress": IP, "ip": IP,
	"birthDate": Birthday, "birthday": Birthday,
	"additional": Text, "billAdditional": Text, "customerRemark": Text, "remark": Text,
	"reactionText": Text, "referer": Text,
}

// personMarkers are the fields that make their object a person's: a
// customer's, a reviewer's, a shipment's recipient's. A business contact
// (a brand's contactEmail, a carrier's contactPhone) does not.
var personMarkers = map[string]bool{"email": true, "phone": true, "mobilePhone": true}

// besidePerson are the fields that are a person's (or a person's words)
// when their object is a person's (personMarkers).
var besidePerson = map[string]Kind{
	"name": Person, "title": Text, "description": Text, "text": Text, "content": Text, "note": Text,
}

// ownedBy are objects whose name is always a person's.
var ownedBy = map[string]bool{"user": true, "author": true}

// scrubbed are the kinds Scrub looks for inside other texts: distinctive
// enough that a match is the datum, not a common word.
var scrubbed = map[Kind]bool{Email: true, Phone: true, Person: true, Street: true, Company: true}

// Anonymizer replaces personal data under one key. It is safe for
// concurrent use.
type Anonymizer struct {
	key []byte

	mu    sync.Mutex
	fakes map[Kind]map[string]string // kind -> original -> fake
	taken map[Kind]map[string]string // kind -> fake -> original (collisions)
	keep  map[string]bool
}

// Keep names values that are never replaced, wherever they appear: the
// e-shop's own name, which a shipment's sender or a carrier's address
// repeat beside an e-mail address, is the shop's, not a person's.
func (a *Anonymizer) Keep(values ...string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.keep == nil {
		a.keep = map[string]bool{}
	}
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			a.keep[v] = true
		}
	}
}

// New returns an anonymizer whose fakes derive from key (at least 16
// bytes: a short key would let a guess of the original be tested).
func New(key []byte) (*Anonymizer, error) {
	if len(key) < 16 {
		return nil, fmt.Errorf("the anonymizing key needs at least 16 bytes, got %d", len(key))
	}
	return &Anonymizer{key: append([]byte(nil), key...), fakes: map[Kind]map[string]string{}, taken: map[Kind]map[string]string{}}, nil
}

// Replaced counts the distinct values replaced, by kind.
func (a *Anonymizer) Replaced() map[Kind]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[Kind]int{}
	for k, m := range a.fakes {
		out[k] = len(m)
	}
	return out
}

// Value replaces the personal data inside a decoded JSON value
// (map[string]any, []any, strings, ...) in place and returns it.
func (a *Anonymizer) Value(v any) any {
	return a.walk(v, "")
}

func (a *Anonymizer) walk(v any, key string) any {
	switch t := v.(type) {
	case map[string]any:
		personal := false
		for k := range personMarkers {
			if s, ok := t[k].(string); ok && s != "" {
				personal = true
				break
			}
		}
		for k, x := range t {
			kind, ok := Fields[k]
			if !ok && personal {
				kind, ok = besidePerson[k]
			}
			if !ok && ownedBy[key] && k == "name" {
				kind, ok = Person, true
			}
			if ok {
				t[k] = a.replaceAll(kind, x)
				continue
			}
			t[k] = a.walk(x, k)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = a.walk(x, key)
		}
		return t
	}
	return v
}

// replaceAll fakes a string, or each string of an array; other values
// (null, numbers, objects) are walked as usual.
func (a *Anonymizer) replaceAll(kind Kind, v any) any {
	switch t := v.(type) {
	case string:
		return a.Fake(kind, t)
	case []any:
		for i, x := range t {
			if s, ok := x.(string); ok {
				t[i] = a.Fake(kind, s)
			} else {
				t[i] = a.walk(x, "")
			}
		}
		return t
	}
	return a.walk(v, "")
}

// Fake returns the fake of one value of a kind: always the same for the
// same value and key, distinct for distinct e-mail addresses (which
// identify records). An empty string stays empty.
func (a *Anonymizer) Fake(kind Kind, s string) string {
	if strings.TrimSpace(s) == "" {
		return s
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.keep[s] {
		return s
	}
	if f, ok := a.fakes[kind][s]; ok {
		return f
	}
	var f string
	for n := 0; ; n++ {
		f = a.make(kind, s, n)
		if o, used := a.taken[kind][f]; !used || o == s || kind != Email {
			break
		}
	}
	if a.fakes[kind] == nil {
		a.fakes[kind], a.taken[kind] = map[string]string{}, map[string]string{}
	}
	a.fakes[kind][s], a.taken[kind][f] = f, s
	return f
}

// make derives the fake of s (attempt n > 0 after a collision).
func (a *Anonymizer) make(kind Kind, s string, n int) string {
	st := a.stream(kind, s, n)
	switch kind {
	case Email:
		first, last := st.pick(firstNames), st.pick(lastNames)
		return strings.ToLower(first+"."+last) + "." + st.hex(3) + "@example.com"
	case Person:
		return st.pick(firstNames) + " " + st.pick(lastNames)
	case Company:
		return st.pick(lastNames) + " " + st.pick(tradeWords)
	case Street:
		return st.pick(streetNames) + " " + st.pick(streetKinds)
	case City:
		return st.pick(towns)
	case Phone:
		return fakePhone(st, s)
	case IP:
		return fakeIP(st, s)
	case Birthday:
		if len(s) == 10 && s[4] == '-' && s[7] == '-' {
			return fmt.Sprintf("%04d-%02d-%02d", 1950+st.n(55), 1+st.n(12), 1+st.n(28))
		}
		return scramble(st, s, 0)
	case Text:
		return "Recorded text " + st.hex(4)
	}
	return scramble(st, s, countryPrefix(s))
}

// countryPrefix keeps the two-letter country code of a VAT number or an
// IBAN (CZ12345678), which says nothing about the person.
func countryPrefix(s string) int {
	if len(s) > 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && s[2] >= '0' && s[2] <= '9' {
		return 2
	}
	return 0
}

// scramble replaces every digit with a digit and every letter with a
// letter of the same case, from keep on; other characters stay, so a
// postcode or an account number keeps its format.
func scramble(st *stream, s string, keep int) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case i < keep:
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			b.WriteByte(byte('0' + st.n(10)))
		case unicode.IsUpper(r):
			b.WriteByte(byte('A' + st.n(26)))
		case unicode.IsLetter(r):
			b.WriteByte(byte('a' + st.n(26)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fakePhone keeps a leading "+" and the country code before the first
// space (+420 ...), and replaces every other digit.
func fakePhone(st *stream, s string) string {
	keep := 0
	if strings.HasPrefix(s, "+") {
		if i := strings.IndexByte(s, ' '); i > 0 && i <= 4 {
			keep = i
		} else {
			keep = 1
		}
	}
	return scramble(st, s, keep)
}

// fakeIP gives an address of the documentation ranges (RFC 5737, 3849)
// of the same family.
func fakeIP(st *stream, s string) string {
	ip := net.ParseIP(strings.TrimSpace(s))
	if ip != nil && ip.To4() == nil {
		return fmt.Sprintf("2001:db8::%x:%x", st.n(0xffff), 1+st.n(0xfffe))
	}
	nets := []string{"192.0.2.", "198.51.100.", "203.0.113."}
	return nets[st.n(len(nets))] + fmt.Sprint(1+st.n(254))
}

// stream is a deterministic byte source keyed by the value.
type stream struct {
	key   []byte
	seed  string
	block int
	buf   []byte
}

func (a *Anonymizer) stream(kind Kind, s string, n int) *stream {
	return &stream{key: a.key, seed: fmt.Sprintf("%s\x00%d\x00%s", kind, n, s)}
}

func (st *stream) next() byte {
	if len(st.buf) == 0 {
		m := hmac.New(sha256.New, st.key)
		var ctr [4]byte
		binary.BigEndian.PutUint32(ctr[:], uint32(st.block))
		st.block++
		m.Write(ctr[:])
		m.Write([]byte(st.seed))
		st.buf = m.Sum(nil)
	}
	b := st.buf[0]
	st.buf = st.buf[1:]
	return b
}

// n returns a number in [0, m) (m <= 65536).
func (st *stream) n(m int) int {
	v := int(st.next())<<8 | int(st.next())
	return v % m
}

func (st *stream) pick(list []string) string { return list[st.n(len(list))] }

func (st *stream) hex(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = st.next()
	}
	return hex.EncodeToString(b)
}
