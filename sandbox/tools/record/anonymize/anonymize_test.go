package anonymize

import (
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"
)

var testKey = []byte("0123456789abcdef-test-key")

func newA(t *testing.T, key []byte) *Anonymizer {
	t.Helper()
	a, err := New(key)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFakeShapes(t *testing.T) {
	a := newA(t, testKey)
	for _, tc := range []struct {
		kind Kind
		in   string
		re   string
	}{
		{Email, "petr.novotny@example.cz", `^[a-z]+\.[a-z]+\.[0-9a-f]{6}@example\.com$`},
		{Person, "Petr Novotný", `^[A-Z][a-z]+ [A-Z][a-z]+$`},
		{Company, "Skalka Rent s.r.o.", `^[A-Z][a-z]+ [A-Z][a-z]+$`},
		{Street, "Korunní", `^[A-Z][a-z]+ [A-Z][a-z]+$`},
		{City, "Praha 10", `^[A-Z][a-z]+$`},
		{Phone, "+420 601 111 201", `^\+420 [0-9]{3} [0-9]{3} [0-9]{3}$`},
		{Phone, "601111201", `^[0-9]{9}$`},
		{Code, "101 00", `^[0-9]{3} [0-9]{2}$`},
		{Code, "1208/74", `^[0-9]{4}/[0-9]{2}$`},
		{Code, "CZ12345678", `^CZ[0-9]{8}$`},
		{Code, "CZ6508000000192000145399", `^CZ[0-9]{22}$`},
		{Code, "2900123456/2010", `^[0-9]{10}/[0-9]{4}$`},
		{Birthday, "1986-04-12", `^(19[5-9][0-9]|200[0-4])-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])$`},
		{Text, "Prosím volat předem, Petr", `^Recorded text [0-9a-f]{8}$`},
	} {
		t.Run(string(tc.kind)+" "+tc.in, func(t *testing.T) {
			got := a.Fake(tc.kind, tc.in)
			if !regexp.MustCompile(tc.re).MatchString(got) {
				t.Errorf("Fake(%s, %q) = %q, want the shape %s", tc.kind, tc.in, got, tc.re)
			}
			if got == tc.in {
				t.Errorf("Fake(%s, %q) kept the value", tc.kind, tc.in)
			}
			if tc.kind == Birthday {
				if _, err := time.Parse("2006-01-02", got); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for _, ip := range []string{"203.0.113.8", "10.1.2.3"} {
		f := net.ParseIP(a.Fake(IP, ip))
		if f == nil || f.To4() == nil || !(strings.HasPrefix(f.String(), "192.0.2.") || strings.HasPrefix(f.String(), "198.51.100.") || strings.HasPrefix(f.String(), "203.0.113.")) {
			t.Errorf("IPv4 %s faked as %v", ip, f)
		}
	}
	if f := a.Fake(IP, "2a00:1028:1::5"); !strings.HasPrefix(f, "2001:db8::") || net.ParseIP(f) == nil {
		t.Errorf("IPv6 faked as %q", f)
	}
}

// TestDeterministic: one key gives one fake per value wherever it
// appears; another key gives others.
func TestDeterministic(t *testing.T) {
	a, b := newA(t, testKey), newA(t, testKey)
	c := newA(t, []byte("another-key-of-16-bytes"))
	for _, kind := range []Kind{Email, Person, Phone, Code, Street} {
		v := "jana.horakova@trailvik.example"
		if a.Fake(kind, v) != b.Fake(kind, v) {
			t.Errorf("%s: two anonymizers with one key disagree", kind)
		}
		if a.Fake(kind, v) != a.Fake(kind, v) {
			t.Errorf("%s: not stable", kind)
		}
		if a.Fake(kind, v) == c.Fake(kind, v) {
			t.Errorf("%s: another key gives the same fake", kind)
		}
	}
}

// TestDistinctEmails: e-mail addresses identify records (unsubscribed
// addresses, mailing lists), so distinct ones stay distinct.
func TestDistinctEmails(t *testing.T) {
	a := newA(t, testKey)
	seen := map[string]string{}
	for i := range 20000 {
		o := fmt.Sprintf("user%d@example.org", i)
		f := a.Fake(Email, o)
		if prev, dup := seen[f]; dup {
			t.Fatalf("%s and %s both became %s", prev, o, f)
		}
		seen[f] = o
	}
}

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		changed []string // gjson-like dotted paths that must change
		kept    []string // paths that must stay
		sameAs  [][2]string
	}{
		{
			name: "order",
			in: `{"code":"2025000001","email":"petr.novotny@example.com","phone":"+420 601 111 201","clientIPAddress":"203.0.113.8",
				"billingAddress":{"fullName":"Petr Novotný","street":"Korunní","houseNumber":"1208/74","city":"Praha 10","zip":"101 00","company":null,"companyId":"12345678","countryCode":"CZ"},
				"deliveryAddress":{"fullName":"Petr Novotný","street":"Korunní","city":"Praha 10"},
				"notes":{"customerRemark":"Volejte předem","eshopRemark":null},"items":[{"name":"Stan Alpine 2","code":"TNT"}]}`,
			changed: []string{"email", "phone", "clientIPAddress", "billingAddress.fullName", "billingAddress.street", "billingAddress.houseNumber", "billingAddress.city", "billingAddress.zip", "billingAddress.companyId", "notes.customerRemark"},
			kept:    []string{"code", "billingAddress.countryCode", "billingAddress.company", "notes.eshopRemark", "items.0.name", "items.0.code"},
			sameAs:  [][2]string{{"billingAddress.fullName", "deliveryAddress.fullName"}, {"billingAddress.street", "deliveryAddress.street"}},
		},
		{
			name:    "a name beside an e-mail is a person's",
			in:      `{"id":1,"email":"petr.novotny@example.com","name":"Petr Novotný","title":"Vejdou se dva?","content":"Otázka","productGuid":"3eba"}`,
			changed: []string{"email", "name", "title", "content"},
			kept:    []string{"id", "productGuid"},
		},
		{
			name: "a name without a person beside it is kept",
			in:   `{"name":"Stan Alpine 2","description":"Lehký stan","email":null}`,
			kept: []string{"name", "description", "email"},
		},
		{
			name:    "an order history entry's user",
			in:      `{"id":2,"text":"Stav změněn","user":{"id":"admin","name":"Jana Horáková"}}`,
			changed: []string{"user.name"},
			kept:    []string{"text", "user.id"},
		},
		{
			name:    "lists of addresses",
			in:      `{"code":"newsletter","name":"Novinky","_emails":[{"email":"a.b@example.com","added":"2025"}],"emails":["c.d@example.com"]}`,
			changed: []string{"_emails.0.email", "emails.0"},
			kept:    []string{"code", "name", "_emails.0.added"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newA(t, testKey)
			orig := decode(t, tc.in)
			got := a.Value(decode(t, tc.in))
			for _, p := range tc.changed {
				if o, g := at(orig, p), at(got, p); o == g || g == nil {
					t.Errorf("%s kept %v", p, o)
				}
			}
			for _, p := range tc.kept {
				if o, g := at(orig, p), at(got, p); o != g {
					t.Errorf("%s changed from %v to %v", p, o, g)
				}
			}
			for _, pair := range tc.sameAs {
				if at(got, pair[0]) != at(got, pair[1]) {
					t.Errorf("%s and %s held one value and now differ", pair[0], pair[1])
				}
			}
		})
	}
}

// TestScrubLeavesNoOriginal: after Value and Scrub, no e-mail, phone,
// name or street of the input appears anywhere, free texts included.
func TestScrubLeavesNoOriginal(t *testing.T) {
	a := newA(t, testKey)
	recs := []any{
		decode(t, `{"email":"jana.horakova@trailvik.example","contactPerson":"Jana Horáková","phone":"+420 555 010 200","street":"Horská 128/7"}`),
		decode(t, `{"id":1,"text":"Stav změněn uživatelem Jana Horáková (jana.horakova@trailvik.example, +420 555 010 200)","system":false}`),
		decode(t, `{"registration":"Sídlo Horská 128/7, Brno"}`),
	}
	for _, r := range recs {
		a.Value(r)
	}
	s := a.Scrubber()
	raw, _ := json.Marshal(s.Value(recs))
	for _, o := range []string{"jana.horakova@trailvik.example", "Jana Horáková", "+420 555 010 200", "Horská 128/7"} {
		if strings.Contains(string(raw), o) {
			t.Errorf("%q is still in %s", o, raw)
		}
	}
	if !strings.Contains(string(raw), "Stav změněn uživatelem") {
		t.Errorf("the rest of the text went: %s", raw)
	}
}

// TestKeep: the e-shop's own name stays, even where it stands as a
// sender's name beside an e-mail address.
func TestKeep(t *testing.T) {
	a := newA(t, testKey)
	a.Keep("Trailvik Outdoor")
	got := a.Value(decode(t, `{"sender":{"name":"Trailvik Outdoor","email":"obchod@trailvik.example"},"customer":{"name":"Petr Novotný","email":"p@example.com"}}`))
	if at(got, "sender.name") != "Trailvik Outdoor" || at(got, "customer.name") == "Petr Novotný" {
		t.Errorf("got %v", got)
	}
	raw, _ := json.Marshal(a.Scrubber().Value(decode(t, `{"eshopName":"Trailvik Outdoor"}`)))
	if !strings.Contains(string(raw), "Trailvik Outdoor") {
		t.Errorf("scrubbed the kept name: %s", raw)
	}
}

func TestShortKey(t *testing.T) {
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("a 5-byte key was accepted")
	}
}

// at reads a dotted path (numbers index arrays).
func at(v any, path string) any {
	for _, step := range strings.Split(path, ".") {
		switch t := v.(type) {
		case map[string]any:
			v = t[step]
		case []any:
			var i int
			fmt.Sscan(step, &i)
			if i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}
