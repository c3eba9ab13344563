package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeDataFile writes a small data file through the store: three
// orders in one transaction each, then a customer, and returns its bytes.
func writeDataFile(t *testing.T, path string) []byte {
	t.Helper()
	s, err := Open(Options{Path: path, Sync: SyncAlways})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, 1, "orders", "1", `{"code":"O1","note":"first"}`)
	put(t, s, 1, "orders", "2", `{"code":"O2","note":"second"}`)
	put(t, s, 1, "orders", "3", `{"code":"O3","note":"third"}`)
	put(t, s, 1, "customers", "c1", `{"name":"Last"}`)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestOpenRefusesADamagedFileWithoutChangingIt damages a data file in
// the ways a crash, a cut copy or a bad disk do, and checks that Open
// refuses it saying what and where, that Check says the same, and that
// the file is byte for byte what it was (BuntDB cut a torn last command
// off the file, and started without a word).
func TestOpenRefusesADamagedFileWithoutChangingIt(t *testing.T) {
	dir := t.TempDir()
	good := writeDataFile(t, filepath.Join(dir, "good.db"))
	// BuntDB writes the keys of a transaction in no fixed order: find
	// the last command and its key.
	lastSet := bytes.LastIndex(good, []byte("*3\r\n$3\r\nset\r\n"))
	order2 := bytes.Index(good, []byte("e:1:orders:2\r\n"))
	if lastSet < 0 || order2 < 0 {
		t.Fatalf("unexpected layout:\n%q", good)
	}
	parts, _, perr := readCommand(good, lastSet)
	if perr != nil {
		t.Fatal(perr.reason)
	}
	lastKey := string(parts[1])
	keyAt := bytes.Index(good[lastSet:], parts[1]) + lastSet
	replace := func(old, new string) []byte {
		if len(old) != len(new) || !bytes.Contains(good, []byte(old)) {
			t.Fatalf("bad replacement %q", old)
		}
		return bytes.Replace(good, []byte(old), []byte(new), 1)
	}
	tests := []struct {
		name string
		data []byte
		want []string // in the error, in order
	}{
		{"cut at half", good[:len(good)/2], []string{"truncated at byte", "data check", "data repair"}},
		{"cut inside the last record", good[:len(good)-3], []string{"truncated at byte", `key "` + lastKey + `"`}},
		{"cut inside the last key", good[:keyAt+5], []string{"truncated at byte", `key "` + lastKey[:5] + `"`}},
		{"cut one byte short", good[:len(good)-1], []string{"truncated"}},
		{"framing byte", append(append(append([]byte(nil), good[:order2-5]...), '#'), good[order2-4:]...), []string{"damaged at byte", "do not read as commands"}},
		{"length digit", replace("$16\r\ne:1:customers", "$17\r\ne:1:customers"), []string{"damaged at byte", "e:1:customers"}},
		{"broken JSON value", replace(`"note":"second"}`, `"note":"second"]`), []string{`key "e:1:orders:2"`, "not a valid JSON object"}},
		{"unknown command", replace("\r\nset\r\n$12\r\ne:1:orders:3", "\r\nsex\r\n$12\r\ne:1:orders:3"), []string{"unknown command", "e:1:orders:3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sandbox.db")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Open(Options{Path: path})
			if err == nil {
				s.Close()
				t.Fatal("a damaged file opened")
			}
			var de *DamagedError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a DamagedError", err)
			}
			msg := err.Error()
			at := 0
			for _, w := range tc.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error lacks %q (after byte %d):\n%s", w, at, msg)
				}
				at += i
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(after, tc.data) {
				t.Fatalf("a refused open changed the file: %d bytes, was %d", len(after), len(tc.data))
			}
			rep, err := Check(path)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() || rep.Readable >= rep.Size && len(rep.BadValues) == 0 {
				t.Fatalf("Check found nothing wrong: %s", rep.Summary())
			}
		})
	}
}

// TestOpenTakesAnEmptyOrSoundFile: an empty file (what a first start
// creates) and an undamaged one open as before.
func TestOpenTakesAnEmptyOrSoundFile(t *testing.T) {
	dir := t.TempDir()
	writeDataFile(t, filepath.Join(dir, "good.db"))
	if err := os.WriteFile(filepath.Join(dir, "empty.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, keys := range map[string]int{"good.db": 8, "empty.db": 0} {
		path := filepath.Join(dir, name)
		rep, err := Check(path)
		if err != nil || !rep.OK() {
			t.Fatalf("%s: Check = %v, %v", name, rep.Problems(), err)
		}
		s, err := Open(Options{Path: path})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := s.Keys(); got != keys || rep.Keys != keys {
			t.Errorf("%s: %d keys, Check says %d, want %d", name, got, rep.Keys, keys)
		}
		s.Close()
	}
}

// TestRepairKeepsEveryReadableRecord repairs damaged files into new ones
// that open, hold every record that read, and say what was lost; the
// damaged file is not changed.
func TestRepairKeepsEveryReadableRecord(t *testing.T) {
	dir := t.TempDir()
	good := writeDataFile(t, filepath.Join(dir, "good.db"))
	order2 := bytes.Index(good, []byte("e:1:orders:2\r\n"))
	tests := []struct {
		name    string
		data    []byte
		kept    []string
		missing []string
		damage  int
		bad     int
	}{
		{"torn last record", good[:bytes.Index(good, []byte("e:1:customers:c1"))+20], []string{"1", "2", "3"}, []string{"c1"}, 1, 0},
		{"framing in the middle", append(append(append([]byte(nil), good[:order2-5]...), '#'), good[order2-4:]...),
			[]string{"1", "3", "c1"}, []string{"2"}, 1, 0},
		{"broken JSON value", bytes.Replace(good, []byte(`"note":"second"}`), []byte(`"note":"second"]`), 1),
			[]string{"1", "3", "c1"}, []string{"2"}, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, out := filepath.Join(dir, "sandbox.db"), filepath.Join(dir, "repaired.db")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, lost, err := Repair(path, out)
			if err != nil {
				t.Fatal(err)
			}
			if len(lost.Damage) != tc.damage || len(lost.BadValues) != tc.bad {
				t.Fatalf("lost %d stretches and %d values, want %d and %d", len(lost.Damage), len(lost.BadValues), tc.damage, tc.bad)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, tc.data) {
				t.Fatal("repair changed the damaged file")
			}
			s, err := Open(Options{Path: out})
			if err != nil {
				t.Fatalf("the repaired file does not open: %v", err)
			}
			defer s.Close()
			_ = s.View(func(tx *Tx) error {
				for _, id := range tc.kept {
					coll := "orders"
					if id == "c1" {
						coll = "customers"
					}
					if !tx.Exists(1, coll, id) {
						t.Errorf("record %s lost", id)
					}
				}
				for _, id := range tc.missing {
					if tx.Exists(1, "orders", id) || tx.Exists(1, "customers", id) {
						t.Errorf("record %s kept", id)
					}
				}
				n := 0
				if err := tx.Scan(1, "orders", func(string, []byte) bool { n++; return true }); err != nil {
					t.Error(err)
				}
				if c := tx.Count(1, "orders"); c != n {
					t.Errorf("count %d, but %d orders", c, n)
				}
				return nil
			})
			if _, _, err := Repair(path, out); err == nil {
				t.Error("repair overwrote an existing file")
			}
		})
	}
}
