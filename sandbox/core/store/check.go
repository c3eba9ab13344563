package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// A data file is BuntDB's append-only log of RESP commands:
//
//	*3\r\n$3\r\nset\r\n$N\r\n<key>\r\n$M\r\n<value>\r\n
//
// plus "del key", "flushdb" and "set key value ex|ae N". BuntDB, when it
// loads a file that ends inside a command, cuts the file there (a write
// to the file before anything was served), and it reports any other
// damage as "invalid database" without a place. Check reads the file
// itself, read-only, before BuntDB sees it, so a damaged file is named
// precisely and a failed start never changes it; Repair writes what
// reads to a new file.

// Damage is one stretch of a data file that does not read as commands.
type Damage struct {
	Offset    int64  // the first byte of the command that does not read
	At        int64  // the byte where reading failed
	End       int64  // where reading resumed: the next command that reads, or the file's size
	Truncated bool   // the file ends inside the command (a cut, or a write torn by a crash)
	Key       string // the key of that command, when it could be read
	Reason    string
}

// BadValue is a record whose stored value is not what the sandbox
// writes (a JSON object for a record, a number for a counter).
type BadValue struct {
	Key    string
	Offset int64 // the byte where the command that set it starts
	Reason string
}

// Report is what Check found in a data file.
type Report struct {
	Path      string
	Size      int64
	Commands  int   // commands that read
	Readable  int64 // bytes those commands take
	Keys      int   // keys they leave
	Records   int   // of which records (collection documents)
	Damage    []Damage
	BadValues []BadValue

	values map[string]entry    // the keys left, with values (Repair) or without
	marks  map[string]bool     // "v:" names left (see HasValue)
	bad    map[string]BadValue // keys left whose value is bad
}

type entry struct {
	value  string
	exat   time.Time // zero: no BuntDB expiry
	offset int64
}

// OK reports whether the whole file reads and every value is sound.
func (r *Report) OK() bool { return len(r.Damage) == 0 && len(r.BadValues) == 0 }

// HasValue reports whether the file sets the named small value (see
// Tx.SetValue), such as the seeding mark.
func (r *Report) HasValue(name string) bool { return r.marks[name] }

// Problems lists what is wrong, one line each, in file order.
func (r *Report) Problems() []string {
	var out []string
	for _, d := range r.Damage {
		s := ""
		switch {
		case d.Truncated:
			s = fmt.Sprintf("truncated at byte %d: the file ends inside the command that starts at byte %d", r.Size, d.Offset)
		case d.End < r.Size:
			s = fmt.Sprintf("damaged at byte %d (%s): bytes %d to %d do not read as commands", d.At, d.Reason, d.Offset, d.End)
		default:
			s = fmt.Sprintf("damaged at byte %d (%s): nothing from byte %d to the end (%d) reads as commands", d.At, d.Reason, d.Offset, r.Size)
		}
		if d.Key != "" {
			s += fmt.Sprintf(", a write of key %q", d.Key)
		}
		out = append(out, s)
	}
	for _, b := range r.BadValues {
		out = append(out, fmt.Sprintf("key %q (set at byte %d): %s", b.Key, b.Offset, b.Reason))
	}
	return out
}

// Summary is one line: how much of the file reads.
func (r *Report) Summary() string {
	return fmt.Sprintf("%d of %d bytes read as %d commands, leaving %d keys (%d records)", r.Readable, r.Size, r.Commands, r.Keys, r.Records)
}

// DamagedError is Open's error for a data file that Check finds wrong.
type DamagedError struct{ Report *Report }

func (e *DamagedError) Error() string {
	r := e.Report
	var b strings.Builder
	fmt.Fprintf(&b, "data file %s is damaged: %s; %s. The sandbox did not start and did not change the file. "+
		"`sandbox data check %s` says the same; `sandbox data repair %s --out NEW` writes every readable record to NEW and says what is lost",
		r.Path, strings.Join(r.Problems(), "; "), r.Summary(), r.Path, r.Path)
	return b.String()
}

// Check reads a data file without changing it and reports what reads.
// A file that does not exist is an error; an empty one is sound.
func Check(path string) (*Report, error) { return check(path, false) }

func check(path string, keepValues bool) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var mod time.Time
	if fi, err := os.Stat(path); err == nil {
		mod = fi.ModTime()
	}
	r := &Report{Path: path, Size: int64(len(data)), values: map[string]entry{}, marks: map[string]bool{}, bad: map[string]BadValue{}}
	now := time.Now()
	off := 0
	for off < len(data) {
		if data[off] == 0 { // BuntDB skips NUL bytes between commands
			off++
			r.Readable++
			continue
		}
		parts, end, perr := readCommand(data, off)
		if perr == nil {
			perr = r.apply(parts, int64(off), mod, now, keepValues)
		}
		if perr != nil {
			d := Damage{Offset: int64(off), At: int64(perr.at), Truncated: perr.truncated, Key: perr.key, Reason: perr.reason}
			if d.Key == "" && len(parts) > 1 {
				d.Key = string(parts[1])
			}
			next := resync(data, off+1)
			if d.Truncated && next < len(data) {
				// Commands read after it: a length was damaged, not the end.
				d.Truncated, d.Reason = false, "a length runs past the end of the file"
			}
			d.End = int64(next)
			r.Damage = append(r.Damage, d)
			off = next
			continue
		}
		r.Commands++
		r.Readable += int64(end - off)
		off = end
	}
	r.Keys = len(r.values)
	keys := make([]string, 0, len(r.values))
	for k := range r.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.HasPrefix(k, "e:") {
			r.Records++
		}
		if b, ok := r.bad[k]; ok {
			r.BadValues = append(r.BadValues, b)
		}
	}
	sort.Slice(r.BadValues, func(i, j int) bool { return r.BadValues[i].Offset < r.BadValues[j].Offset })
	return r, nil
}

// apply replays one command on the report's key set. Values are judged
// as they are read (only the last value of a key counts), so Check keeps
// no values unless Repair needs them.
func (r *Report) apply(parts [][]byte, off int64, mod, now time.Time, keepValues bool) *parseError {
	if len(parts) == 0 {
		return nil
	}
	bad := func(reason string) *parseError { return &parseError{at: int(off), reason: reason} }
	switch strings.ToLower(string(parts[0])) {
	case "set":
		if len(parts) != 3 && len(parts) != 5 {
			return bad(fmt.Sprintf("a set with %d parts", len(parts)))
		}
		key := string(parts[1])
		e := entry{offset: off}
		if len(parts) == 5 {
			n, err := strconv.ParseInt(string(parts[4]), 10, 64)
			switch strings.ToLower(string(parts[3])) {
			case "ex":
				e.exat = now.Add(time.Duration(n)*time.Second - now.Sub(mod))
			case "ae":
				e.exat = time.Unix(n, 0)
			default:
				err = errors.New("unknown expiry")
			}
			if err != nil {
				return bad("a set with an expiry that does not read")
			}
			if !e.exat.After(now) { // BuntDB drops it on load
				r.forget(key)
				return nil
			}
		}
		if keepValues {
			e.value = string(parts[2])
		}
		delete(r.bad, key)
		if why := badValue(key, string(parts[2])); why != "" {
			r.bad[key] = BadValue{Key: key, Offset: off, Reason: why}
		}
		r.values[key] = e
		if strings.HasPrefix(key, "v:") {
			r.marks[key[2:]] = true
		}
	case "del":
		if len(parts) != 2 {
			return bad(fmt.Sprintf("a del with %d parts", len(parts)))
		}
		r.forget(string(parts[1]))
	case "flushdb":
		r.values = map[string]entry{}
		r.marks = map[string]bool{}
		r.bad = map[string]BadValue{}
	default:
		return bad(fmt.Sprintf("unknown command %q", clip(parts[0])))
	}
	return nil
}

func (r *Report) forget(key string) {
	delete(r.values, key)
	delete(r.bad, key)
	if strings.HasPrefix(key, "v:") {
		delete(r.marks, key[2:])
	}
}

// badValue says what is wrong with the value of a key of the store's
// layout ("" when nothing is).
func badValue(key, value string) string {
	switch {
	case strings.HasPrefix(key, "e:"):
		if !strings.HasPrefix(value, "{") || !gjson.Valid(value) {
			return "the record's value is not a valid JSON object"
		}
	case strings.HasPrefix(key, "n:"), strings.HasPrefix(key, "q:"), strings.HasPrefix(key, "s:"):
		if _, err := strconv.ParseInt(value, 10, 64); err != nil {
			return "the counter's value is not a number"
		}
	}
	return ""
}

type parseError struct {
	at        int
	truncated bool
	key       string
	reason    string
}

// readCommand reads the command at data[off:], as BuntDB's loader does.
func readCommand(data []byte, off int) (parts [][]byte, end int, perr *parseError) {
	i := off
	n, i, perr := readHeader(data, i, '*')
	if perr != nil {
		return nil, 0, perr
	}
	for p := 0; p < n; p++ {
		size, j, perr := readHeader(data, i, '$')
		if perr != nil {
			if len(parts) > 1 {
				perr.key = string(parts[1])
			}
			return parts, 0, perr
		}
		if len(data)-j < size+2 {
			perr := &parseError{at: len(data), truncated: true, reason: "the file ends inside a value"}
			if len(parts) > 1 {
				perr.key = string(parts[1])
			} else if p == 1 {
				perr.key = clip(data[j:])
			}
			return parts, 0, perr
		}
		if data[j+size] != '\r' || data[j+size+1] != '\n' {
			perr := &parseError{at: j + size, reason: "a value is not followed by \\r\\n (its length does not match)"}
			if p == 1 {
				perr.key = clip(data[j : j+size])
			} else if len(parts) > 1 {
				perr.key = string(parts[1])
			}
			return parts, 0, perr
		}
		parts = append(parts, data[j:j+size])
		i = j + size + 2
	}
	return parts, i, nil
}

// readHeader reads "<mark><digits>\r\n" at data[i:].
func readHeader(data []byte, i int, mark byte) (int, int, *parseError) {
	if i >= len(data) {
		return 0, 0, &parseError{at: i, truncated: true, reason: "the file ends inside a command"}
	}
	if data[i] != mark {
		return 0, 0, &parseError{at: i, reason: fmt.Sprintf("expected %q, found %q", mark, data[i])}
	}
	nl := bytes.IndexByte(data[i:], '\n')
	if nl < 0 {
		if len(data)-i < 24 && digits(bytes.TrimSuffix(data[i+1:], []byte("\r"))) {
			return 0, 0, &parseError{at: len(data), truncated: true, reason: "the file ends inside a command"}
		}
		return 0, 0, &parseError{at: i, reason: "a length without its line end"}
	}
	line := data[i+1 : i+nl]
	if len(line) < 2 || line[len(line)-1] != '\r' || !digits(line[:len(line)-1]) || len(line) > 20 {
		return 0, 0, &parseError{at: i, reason: fmt.Sprintf("%q is not a length", clip(data[i:i+nl+1]))}
	}
	n, err := strconv.Atoi(string(line[:len(line)-1]))
	if err != nil {
		return 0, 0, &parseError{at: i, reason: "a length out of range"}
	}
	return n, i + nl + 1, nil
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// resync finds the next command that reads after damage: a "*" at the
// start of a line. JSON values never hold a raw line end, so a command
// boundary cannot be mistaken inside one of the sandbox's values.
func resync(data []byte, from int) int {
	for i := from; i < len(data); {
		k := bytes.Index(data[i:], []byte("\n*"))
		if k < 0 {
			return len(data)
		}
		at := i + k + 1
		if _, _, perr := readCommand(data, at); perr == nil {
			return at
		}
		i = at
	}
	return len(data)
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// Lost is what Repair left out of the new file.
type Lost struct {
	Damage    []Damage   // stretches that did not read (writes among them are lost)
	BadValues []BadValue // records left out for their value
	Counters  int        // record counters recomputed to match the records kept
	Written   int        // keys written to the new file
}

// Repair reads the data file at path without changing it and writes
// every key that reads, with a sound value, to a new file at out (which
// must not exist yet). Record counters and list-order sequences are set
// to match the records kept.
func Repair(path, out string) (*Report, *Lost, error) {
	r, err := check(path, true)
	if err != nil {
		return nil, nil, err
	}
	lost := &Lost{Damage: r.Damage, BadValues: r.BadValues}
	for _, b := range r.BadValues {
		delete(r.values, b.Key)
	}
	// Counters: n:<eshop>:<coll> counts the records of e:<eshop>:<coll>:*,
	// q:<eshop>:<coll> is at least their highest list-order number.
	counts, seqs := map[string]int64{}, map[string]int64{}
	for k, e := range r.values {
		if !strings.HasPrefix(k, "e:") {
			continue
		}
		i := strings.LastIndexByte(k, ':')
		coll := k[2:i]
		counts[coll]++
		if s := seqOf(e.value); s > seqs[coll] {
			seqs[coll] = s
		}
	}
	for k := range r.values {
		if _, ok := counts[k[2:]]; strings.HasPrefix(k, "n:") && !ok {
			counts[k[2:]] = 0
		}
	}
	for coll, n := range counts {
		k := "n:" + coll
		v := strconv.FormatInt(n, 10)
		if old, ok := r.values[k]; !ok || old.value != v {
			lost.Counters++
			r.values[k] = entry{value: v}
		}
	}
	for coll, s := range seqs {
		k := "q:" + coll
		old, _ := strconv.ParseInt(r.values[k].value, 10, 64)
		if s > old {
			r.values[k] = entry{value: strconv.FormatInt(s, 10)}
		}
	}
	keys := make([]string, 0, len(r.values))
	for k := range r.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	for _, k := range keys {
		e := r.values[k]
		if e.exat.IsZero() {
			writeCommand(&buf, "set", k, e.value)
		} else {
			writeCommand(&buf, "set", k, e.value, "ae", strconv.FormatInt(e.exat.Unix(), 10))
		}
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, nil, err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		os.Remove(out)
		return nil, nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(out)
		return nil, nil, err
	}
	if err := f.Close(); err != nil {
		os.Remove(out)
		return nil, nil, err
	}
	lost.Written = len(keys)
	return r, lost, nil
}

func writeCommand(b *bytes.Buffer, parts ...string) {
	fmt.Fprintf(b, "*%d\r\n", len(parts))
	for _, p := range parts {
		fmt.Fprintf(b, "$%d\r\n%s\r\n", len(p), p)
	}
}
