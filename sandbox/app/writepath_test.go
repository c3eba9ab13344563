package app_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// TestRegistryTablesWrittenOnlyThroughCrud: in a running sandbox, a raw
// store write (Tx.Put, Tx.Delete) of any registry table is refused with
// store.ErrReserved, so a behaviour package cannot write a record without
// crud's write path (store write, change log and event in one place).
// Every top-level registry row is tried, in every seeded e-shop; a
// collection that is not a registry table still takes raw writes.
func TestRegistryTablesWrittenOnlyThroughCrud(t *testing.T) {
	s, _ := start(t)
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	var shops []*eshop.Meta
	if err := s.App.Store.View(func(tx *store.Tx) error {
		shops, err = eshop.List(tx)
		return err
	}); err != nil || len(shops) == 0 {
		t.Fatalf("no e-shops: %v", err)
	}
	tried := map[string]bool{}
	for _, row := range reg.Resources() {
		if row.Parent != nil {
			continue // an element of its parent's record, not a collection
		}
		tried[row.Name] = true
		for _, m := range shops {
			err := s.App.Store.Update(func(tx *store.Tx) error {
				if _, err := tx.Put(m.ID, row.Name, "raw-write", []byte(`{"raw":true}`)); !errors.Is(err, store.ErrReserved) {
					t.Errorf("e-shop %d: a raw Put of %s gave %v, want store.ErrReserved", m.ID, row.Name, err)
				}
				// Deleting a seeded record, or one that is not there.
				id := "raw-write"
				_ = tx.Scan(m.ID, row.Name, func(rid string, _ []byte) bool { id = rid; return false })
				if err := tx.Delete(m.ID, row.Name, id); !errors.Is(err, store.ErrReserved) {
					t.Errorf("e-shop %d: a raw Delete of %s %s gave %v, want store.ErrReserved", m.ID, row.Name, id, err)
				}
				return errors.New("roll back")
			})
			if err == nil {
				t.Fatal("the transaction was not rolled back")
			}
		}
	}
	// The tables the order flow used to write through a stack of its own.
	for _, name := range []string{"orders", "invoices", "proforma-invoices", "credit-notes", "delivery-notes", "proof-payments",
		"stocks", "products", "stock-movements", "order-history", "payment-methods"} {
		if !tried[name] {
			t.Errorf("%s is not a registry table", name)
		}
	}
	err = s.App.Store.Update(func(tx *store.Tx) error {
		_, err := tx.Put(shops[0].ID, "not-a-registry-table", "x", []byte(`{}`))
		return err
	})
	if err != nil {
		t.Errorf("a collection outside the registry: %v", err)
	}
}

// TestOnlyCrudAndTheSeedHoldTheWriteCapability: the capability that
// writes registry tables (store.Store.Reserve) is asked for only by crud
// (its Writer is the one write path) and by the seed loader (fixtures
// are the records' first state, before any change log), and only crud's
// Writer appends change entries. Any other caller would be a second
// write path.
func TestOnlyCrudAndTheSeedHoldTheWriteCapability(t *testing.T) {
	root := filepath.Join("..", "..")
	allowed := map[string]bool{
		filepath.Join("sandbox", "core", "crud", "crud.go"): true, // the engine reserves its registry's tables
		filepath.Join("sandbox", "app", "seed", "seed.go"):  true, // fixtures
	}
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if strings.HasPrefix(rel, filepath.Join("sandbox", "core", "store")+string(filepath.Separator)) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !strings.Contains(string(src), "Reserve") && !strings.Contains(string(src), "changelog.Record") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if sel.Sel.Name == "Reserve" && !allowed[rel] {
					found = append(found, rel+" asks for the registry tables' write capability (store.Reserve)")
				}
				// A change entry written by hand is a second write path.
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "changelog" && strings.HasPrefix(sel.Sel.Name, "Record") &&
					rel != filepath.Join("sandbox", "core", "crud", "writer.go") {
					found = append(found, rel+" writes a change entry by hand (changelog."+sel.Sel.Name+")")
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: write through crud's Writer instead", f)
	}
}
