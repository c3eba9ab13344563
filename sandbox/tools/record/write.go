package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
)

// write lays the recording out as an e-shop folder of the fixture layout
// (fixtures/README.md): eshop.json and the other single documents
// indented, each collection in the line layout (one compact record per
// line), and a fresh credentials.json. It writes into a temporary folder
// in Out (outside eshops/, where a start never looks) and renames it into
// place, so an interrupted recording leaves no half e-shop folder.
func (rec *recorder) write() error {
	eshops := filepath.Join(rec.opt.Out, "eshops")
	dir := filepath.Join(eshops, strconv.Itoa(rec.sum.Folder))
	if exists(dir) {
		return fmt.Errorf("%s already exists: record into another --out folder, or remove it first", dir)
	}
	if err := os.MkdirAll(eshops, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(rec.opt.Out, ".recording-"+strconv.Itoa(rec.sum.Folder)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // gone after the rename; left over only on failure
	if ci, ok := rec.singles["eshop"]["contactInformation"].(map[string]any); ok {
		ci["eshopId"] = json.Number(strconv.Itoa(rec.sum.Folder))
	}
	for name, doc := range rec.singles {
		if err := writeJSON(filepath.Join(tmp, name+".json"), doc); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(rec.files))
	for n := range rec.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := writeLines(filepath.Join(tmp, n+".json"), rec.files[n]); err != nil {
			return err
		}
	}
	token := rec.opt.Token
	if token == "" {
		if token, err = newToken(); err != nil {
			return err
		}
	}
	creds := map[string]any{"privateTokens": []any{map[string]any{"name": "Recorded: full access", "token": token, "rights": "all"}}}
	if err := writeJSON(filepath.Join(tmp, "credentials.json"), creds); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	rec.sum.Dir, rec.sum.Token = dir, token
	return nil
}

// encode renders a value as JSON without escaping <, > and & (texts
// with HTML stay readable) and without a trailing newline.
func encode(v any, indent bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func writeJSON(path string, v any) error {
	raw, err := encode(v, true)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(raw, '\n'), 0o644)
}

// writeLines writes a collection in the line layout the sandbox splits
// fast: "[", one compact record a line with a comma after all but the
// last, "]".
func writeLines(path string, recs []map[string]any) error {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, r := range recs {
		raw, err := encode(r, false)
		if err != nil {
			return fmt.Errorf("%s: record %d: %w", path, i+1, err)
		}
		b.Write(raw)
		if i < len(recs)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}
