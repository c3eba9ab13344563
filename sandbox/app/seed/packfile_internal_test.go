package seed

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// FuzzDecodePack: any bytes, given a correct checksum so that the fuzzer
// reaches the layout, decode to a pack or to errBadPack, never a panic;
// what decodes has as many records as its header says, none empty, and
// a valid pack decodes to what was encoded.
func FuzzDecodePack(f *testing.F) {
	ids := []string{"1", "22", "333"}
	docs := [][]byte{[]byte(`{"id":1}`), []byte(`{"id":22}`), []byte(`{"id":333}`)}
	p, err := store.PackRecords(ids, docs, []string{"22"})
	if err != nil {
		f.Fatal(err)
	}
	valid, err := encodePack(packHeader{File: "eshops/1/things.json", Size: 9, CRC32C: 7, Schemas: "s", Records: 3, Marks: p.Marks}, p)
	if err != nil {
		f.Fatal(err)
	}
	h, q, err := decodePack(valid)
	if err != nil || h.File != "eshops/1/things.json" || len(q.IDs) != 3 || q.IDs[2] != "333" || string(q.Docs[1]) != string(p.Docs[1]) ||
		len(q.Marks["22"]) != 1 || q.Marks["22"][0] != 1 {
		f.Fatalf("a valid pack decodes to %+v %+v %v", h, q, err)
	}
	body := valid[:len(valid)-4]
	f.Add(body)
	f.Add(body[:len(body)/2])
	f.Add([]byte(packMagic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		raw := binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.Checksum(body, castagnoli))
		h, p, err := decodePack(raw)
		if err != nil {
			if err != errBadPack {
				t.Fatalf("error %v", err)
			}
			return
		}
		if len(p.IDs) != h.Records || len(p.Docs) != h.Records {
			t.Fatalf("%d ids, %d records, header says %d", len(p.IDs), len(p.Docs), h.Records)
		}
		for i := range p.IDs {
			if p.IDs[i] == "" || len(p.Docs[i]) == 0 {
				t.Fatalf("record %d empty", i)
			}
		}
	})
}
