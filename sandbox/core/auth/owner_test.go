package auth

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// TestNoOtherPackageTouchesAuthRecords: auth owns the token, revocation
// and add-on records. Their collection names are unexported, so no other
// package can name them through auth; this test catches the other way,
// spelling a collection out as a string literal in a call of a store
// method (tx.Get(5, "addons", "a")), in any Go file of the module outside
// sandbox/core/auth, tests included. It names the file and line to fix: call
// auth's functions (records.go) instead.
func TestNoOtherPackageTouchesAuthRecords(t *testing.T) {
	owned := map[string]bool{tokensCollection: true, addonsCollection: true, revokedCollection: true}
	// The store methods that take (e-shop, collection, ...).
	methods := map[string]bool{}
	tx := reflect.TypeOf(&store.Tx{})
	for i := 0; i < tx.NumMethod(); i++ {
		m := tx.Method(i).Type // receiver first
		if m.NumIn() >= 3 && m.In(1).Kind() == reflect.Int && m.In(2).Kind() == reflect.String {
			methods[tx.Method(i).Name] = true
		}
	}
	for _, want := range []string{"Get", "Put", "PutExpiring", "Scan", "Exists", "Delete"} {
		if !methods[want] {
			t.Fatalf("store.Tx.%s no longer takes (e-shop, collection): update this test", want)
		}
	}

	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	self, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path == self || (path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !methods[sel.Sel.Name] {
				return true
			}
			for _, arg := range call.Args {
				lit, ok := arg.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				if v, err := strconv.Unquote(lit.Value); err == nil && owned[v] {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s:%d: %s(..., %s, ...) reads auth's records by their store key; call auth's functions (sandbox/core/auth/records.go)",
						rel, fset.Position(lit.Pos()).Line, sel.Sel.Name, lit.Value)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files found under %s: the walk missed the module", files, root)
	}
}

// moduleRoot is the folder of the go.mod above the test's folder.
func moduleRoot() (string, error) {
	dir, err := filepath.Abs(".")
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
