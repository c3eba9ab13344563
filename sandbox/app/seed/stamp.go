package seed

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// StampFile is the file at the root of a fixture folder in which the
// sandbox notes which collection files it has already checked in full
// (JSON syntax, identifiers, the reference's schemas): their size and
// CRC-32C, and the digest of the schemas they were checked against. A
// start that finds a file unchanged under an equal digest skips those
// checks, which for a set of 100,000 products and orders take a minute;
// any change to the file or to the schemas makes it checked again.
// `sandbox fixtures generate` writes it for the set it generates, and
// `sandbox fixtures check --stamp` for any folder.
const StampFile = ".sandbox-checked.json"

// layoutLines says a file has one record per line (see splitLines), which
// lets a start split it without reading every byte of JSON.
const layoutLines = "lines"

type stamp struct {
	Schemas string                `json:"schemas"`
	Files   map[string]*stampFile `json:"files"`
}

type stampFile struct {
	Size   int64  `json:"size"`
	CRC32C uint32 `json:"crc32c"`
	// Modified is the file's modification time when it was checked: a
	// file of the same size and time is taken as unchanged without
	// reading its checksum (as git and make do); any other is compared
	// by checksum.
	Modified time.Time `json:"modified"`
	Layout   string    `json:"layout,omitempty"`
	// Meta says some record carries a field of the store's own ("_seq",
	// "_expiresAt"), which loading must strip.
	Meta bool `json:"meta,omitempty"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func fingerprint(raw []byte) *stampFile {
	return &stampFile{Size: int64(len(raw)), CRC32C: crc32.Checksum(raw, castagnoli)}
}

// readStamp returns the loader's stamp, or nil when there is none, it is
// unreadable or it was made against other schemas (then every file is
// checked).
func (l *Loader) readStamp() *stamp {
	raw, err := fs.ReadFile(l.FS, StampFile)
	if err != nil {
		return nil
	}
	var st stamp
	if json.Unmarshal(raw, &st) != nil || st.Schemas != schemas.DefsDigest() {
		return nil
	}
	return &st
}

// trusted returns the stamp entry of a file when the file is the one the
// stamp describes.
func (st *stamp) trusted(file string, raw []byte, modified time.Time) *stampFile {
	if st == nil {
		return nil
	}
	f := st.Files[file]
	if f == nil || f.Size != int64(len(raw)) {
		return nil
	}
	if !f.Modified.Equal(modified) && f.CRC32C != crc32.Checksum(raw, castagnoli) {
		return nil
	}
	return f
}

// Check reads and checks every fixture file as a start with validation
// does, without writing anything, and when dir is not empty writes the
// stamp into dir (the folder the loader's FS reads). It is what
// `sandbox fixtures check` runs.
func (l *Loader) Check(dir string) (*Summary, error) {
	saved := l.Validate
	l.Validate = true
	l.noStamp = true
	l.checked = &stamp{Schemas: schemas.DefsDigest(), Files: map[string]*stampFile{}}
	defer func() { l.Validate, l.noStamp, l.checked = saved, false, nil }()
	sum, _, err := l.readAll()
	if err != nil || dir == "" {
		return sum, err
	}
	if err := writeStamp(dir, l.checked); err != nil {
		return nil, err
	}
	return sum, nil
}

// WrittenFile is what the writer of a fixture file knows of it: its path
// inside the folder (slash-separated, eshops/1001/products.json), its
// size and CRC-32C (Castagnoli), whether it is in the line layout (see
// splitLines) and whether some record carries a field of the store's own
// ("_seq", "_expiresAt").
type WrittenFile struct {
	Path   string
	Size   int64
	CRC32C uint32
	Lines  bool
	Meta   bool
}

// WriteStamp writes dir's stamp for files its writer made valid by
// construction, without checking them: `sandbox fixtures generate`, whose
// records are template records re-numbered (its tests check generated
// sets in full, and that this stamp is the one Check writes). Files a
// start always reads in full (eshop.json, credentials.json and the other
// single-object files) are left out, as Check leaves them out. A file
// whose size is not the one given is refused.
func WriteStamp(dir string, files []WrittenFile) error {
	st := &stamp{Schemas: schemas.DefsDigest(), Files: map[string]*stampFile{}}
	for _, f := range files {
		switch filepath.Base(f.Path) {
		case FileEshop, FileCredentials, FileCustomerFields, FileOrderStatuses:
			continue
		}
		info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			return err
		}
		if info.Size() != f.Size {
			return fmt.Errorf("stamp %s: %d bytes written, %d on disk", f.Path, f.Size, info.Size())
		}
		e := &stampFile{Size: f.Size, CRC32C: f.CRC32C, Modified: info.ModTime(), Meta: f.Meta}
		if f.Lines {
			e.Layout = layoutLines
		}
		st.Files[f.Path] = e
	}
	return writeStamp(dir, st)
}

func writeStamp(dir string, st *stamp) error {
	raw, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, StampFile), append(raw, '\n'), 0o644); err != nil {
		return fmt.Errorf("write the stamp: %w", err)
	}
	return nil
}

// noteChecked records a collection file that passed every check.
func (l *Loader) noteChecked(file string, raw []byte, recs []record) {
	if l.checked == nil {
		return
	}
	f := fingerprint(raw)
	if info, err := fs.Stat(l.FS, file); err == nil {
		f.Modified = info.ModTime()
	}
	for _, r := range recs {
		f.Meta = f.Meta || r.meta
	}
	byLine, ok := splitLines(raw)
	if all, _ := splitArray(raw); ok && slices.Equal(byLine, all) {
		f.Layout = layoutLines
	}
	l.checked.Files[file] = f
}

// StampedFiles lists the files a folder's stamp vouches for, for tests
// and `sandbox fixtures check`.
func StampedFiles(fsys fs.FS) ([]string, error) {
	raw, err := fs.ReadFile(fsys, StampFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st stamp
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, err
	}
	var out []string
	for f := range st.Files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out, nil
}
