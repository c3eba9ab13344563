package seed

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// PackDir is the folder, at the root of a fixture folder, that holds the
// packed form of its large collection files (see store.Packed): one file
// per collection file, eshops/1001/products.json packed into
// .sandbox-packed/eshops/1001/products.json.pack. A start that finds a
// collection file vouched for by the stamp (same size and modification
// time) and a pack made from that very file (same size and checksum, same
// schemas) attaches the pack as it is, instead of reading the JSON file
// and packing it in the background: for 100,000 products and orders it
// reads a sixth of the bytes and never holds the records as read. Any
// other pack (stale, damaged, cut short) is ignored and the file is read.
// `sandbox fixtures generate` and `sandbox fixtures check --stamp` write
// the packs (WritePacks).
const PackDir = ".sandbox-packed"

// packMagic opens every pack file; the number is the layout's version.
const packMagic = "sandbox packed records 1\n"

// packHeader says which file a pack was made from.
type packHeader struct {
	File    string `json:"file"` // eshops/1001/products.json
	Size    int64  `json:"size"`
	CRC32C  uint32 `json:"crc32c"`
	Schemas string `json:"schemas"` // the stamp's digest when it was made
	Records int    `json:"records"`
	// Marks: see store.Packed.Marks (the loader's Marks when it was made).
	Marks map[string][]int32 `json:"marks,omitempty"`
}

// packName is the pack of a collection file (slash-separated, inside the
// fixture folder).
func packName(file string) string { return PackDir + "/" + file + ".pack" }

// encodePack lays a pack out: the magic, the header (JSON), the
// dictionary, each record's id and frame (each length-prefixed with a
// uvarint), and a CRC-32C of all that.
func encodePack(h packHeader, p *store.Packed) ([]byte, error) {
	hdr, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	n := len(packMagic) + len(hdr) + len(p.Dict) + 4 + 3*binary.MaxVarintLen64
	for i := range p.IDs {
		n += len(p.IDs[i]) + len(p.Docs[i]) + 2*binary.MaxVarintLen64
	}
	out := make([]byte, 0, n)
	out = append(out, packMagic...)
	out = binary.AppendUvarint(out, uint64(len(hdr)))
	out = append(out, hdr...)
	out = binary.AppendUvarint(out, uint64(len(p.Dict)))
	out = append(out, p.Dict...)
	for i, id := range p.IDs {
		out = binary.AppendUvarint(out, uint64(len(id)))
		out = append(out, id...)
		out = binary.AppendUvarint(out, uint64(len(p.Docs[i])))
		out = append(out, p.Docs[i]...)
	}
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli)), nil
}

// errBadPack is any pack that is not laid out as encodePack lays it out.
var errBadPack = errors.New("not a pack of this sandbox, or damaged")

// decodePack reads a pack laid out by encodePack. The records' frames
// stay in raw; the ids are copied.
func decodePack(raw []byte) (packHeader, *store.Packed, error) {
	var h packHeader
	if len(raw) < len(packMagic)+4 || string(raw[:len(packMagic)]) != packMagic {
		return h, nil, errBadPack
	}
	body := raw[:len(raw)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(raw[len(body):]) {
		return h, nil, errBadPack
	}
	rest := body[len(packMagic):]
	next := func() ([]byte, bool) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return nil, false
		}
		v := rest[k : k+int(n) : k+int(n)]
		rest = rest[k+int(n):]
		return v, true
	}
	hdr, ok := next()
	if !ok || json.Unmarshal(hdr, &h) != nil || h.Records < 0 || h.Records > len(rest) {
		return h, nil, errBadPack
	}
	d, ok := next()
	if !ok {
		return h, nil, errBadPack
	}
	p := &store.Packed{IDs: make([]string, 0, h.Records), Docs: make([][]byte, 0, h.Records), Marks: h.Marks}
	if len(d) > 0 {
		p.Dict = d
	}
	for len(rest) > 0 {
		id, ok1 := next()
		doc, ok2 := next()
		if !ok1 || !ok2 || len(id) == 0 || len(doc) == 0 {
			return h, nil, errBadPack
		}
		p.IDs = append(p.IDs, string(id))
		p.Docs = append(p.Docs, doc)
	}
	if len(p.IDs) != h.Records {
		return h, nil, errBadPack
	}
	return h, p, nil
}

// readPack returns the pack of a collection file when the stamp vouches
// for the file as it is on disk (same size and modification time: the
// file is not read) and the pack was made from that file under the same
// schemas; else nil, and the file is read.
func (l *Loader) readPack(file string, info fs.FileInfo, st *stamp) *store.Packed {
	f := st.Files[file]
	if f == nil || f.Size != info.Size() || !f.Modified.Equal(info.ModTime()) {
		return nil
	}
	raw, err := fs.ReadFile(l.FS, packName(file))
	if err != nil {
		return nil
	}
	h, p, err := decodePack(raw)
	if err != nil || h.File != file || h.Size != f.Size || h.CRC32C != f.CRC32C || h.Schemas != st.Schemas {
		return nil
	}
	return p
}

// WritePacks writes into dir's PackDir the packed form of each collection
// file of dir that its stamp vouches for and that holds at least minBytes
// (see store.DefaultPackAbove), and removes every other pack there (of a
// file now smaller, changed or gone). The loader must read dir (its FS is
// os.DirFS(dir)). It returns the files packed, and fails when dir has no
// stamp made against the sandbox's schemas.
func (l *Loader) WritePacks(dir string, minBytes int64) ([]string, error) {
	st := l.readStamp()
	if st == nil {
		return nil, fmt.Errorf("%s has no stamp: sandbox fixtures check --stamp writes one", l.path(StampFile))
	}
	files := make([]string, 0, len(st.Files))
	for f := range st.Files {
		files = append(files, f)
	}
	sort.Strings(files)
	keep := map[string]bool{}
	var packed []string
	for _, file := range files {
		ok, err := l.writePack(dir, file, st, minBytes)
		if err != nil {
			return packed, err
		}
		if ok {
			packed = append(packed, file)
			keep[filepath.Join(dir, filepath.FromSlash(packName(file)))] = true
		}
	}
	root := filepath.Join(dir, PackDir)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist) && p == root:
			return filepath.SkipDir
		case err != nil:
			return err
		case d.IsDir() || keep[p]:
			return nil
		}
		return os.Remove(p)
	})
	return packed, err
}

// writePack packs one stamped file when it is large enough and still the
// file the stamp vouches for; it reports whether it did.
func (l *Loader) writePack(dir, file string, st *stamp, minBytes int64) (bool, error) {
	f := st.Files[file]
	if f.Size < max(minBytes, 1) {
		return false, nil
	}
	info, err := fs.Stat(l.FS, file)
	if err != nil {
		return false, nil // gone since the stamp: nothing to pack
	}
	raw, err := fs.ReadFile(l.FS, file)
	if err != nil {
		return false, &Error{File: l.path(file), Reason: err.Error()}
	}
	trusted := st.trusted(file, raw, info.ModTime())
	if trusted == nil {
		return false, nil // changed since the stamp: a start reads it
	}
	res := strings.TrimSuffix(path.Base(file), ".json")
	row, ok := l.Registry.Resource(res)
	if !ok {
		return false, nil
	}
	recs, err := l.readRecords(file, raw, row, trusted)
	if err != nil || len(recs) == 0 {
		return false, err
	}
	ids := make([]string, len(recs))
	docs := make([][]byte, len(recs))
	for i, r := range recs {
		ids[i], docs[i] = r.id, r.raw
	}
	p, err := store.PackRecords(ids, docs, l.Marks[res])
	if err != nil {
		return false, fmt.Errorf("pack %s: %w", l.path(file), err)
	}
	// The header names the file as the stamp vouched for it (the checksum
	// of the bytes just read, which trusted says are the stamped ones).
	h := packHeader{File: file, Size: int64(len(raw)), CRC32C: crc32.Checksum(raw, castagnoli), Schemas: st.Schemas, Records: len(ids), Marks: p.Marks}
	if h.CRC32C != f.CRC32C {
		return false, nil
	}
	out, err := encodePack(h, p)
	if err != nil {
		return false, err
	}
	// Written beside and renamed into place: a start never reads half a
	// pack, and one reading the old pack keeps its own copy.
	target := filepath.Join(dir, filepath.FromSlash(packName(file)))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), ".writing-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return false, err
	}
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write %s: %w", target, err)
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return false, err
	}
	return true, nil
}
