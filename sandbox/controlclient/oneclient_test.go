package controlclient_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// serverSide are the folders that serve the control plane (they name its
// paths to route them) and the client itself; every other program and
// package reaches the control plane through this package's Client.
var serverSide = []string{"sandbox/core/", "sandbox/shop/", "sandbox/app/", "sandbox/controlclient/"}

// ownHTTP may speak HTTP to the control plane themselves, each for its
// reason.
var ownHTTP = map[string]string{
	"sandbox/exampleaddon/":       "the example add-on is an add-on: it shows an add-on author every call it makes, with net/http only",
	"cmd/benchmark/":              "the health-under-load row measures the bare probe on the wire",
	"cmd/sandbox/internal/built/": "the test harness waits for a built program's health before any client exists",
}

// httpSenders are the net/http calls whose argument is a request's URL.
var httpSenders = map[string]bool{"NewRequest": true, "NewRequestWithContext": true, "Get": true, "Post": true, "Head": true, "PostForm": true}

// TestOneControlPlaneClient: outside the server side, no code sends a
// request to a control-plane path (/_sandbox/...) through net/http itself,
// directly or through a function of its own that passes the path on (the
// old certify and runner had control(method, path) over send(...) over
// http.NewRequest, the completion its own GET /_sandbox/eshops): the CLI,
// the completion, the TUI, certify and the scenario runner all go through
// controlclient.Client.
func TestOneControlPlaneClient(t *testing.T) {
	root := filepath.Join("..", "..")
	byDir := map[string][]*ast.File{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for _, s := range serverSide {
			if strings.HasPrefix(rel, s) {
				return nil
			}
		}
		for s := range ownHTTP {
			if strings.HasPrefix(rel, s) {
				return nil
			}
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		byDir[filepath.Dir(rel)] = append(byDir[filepath.Dir(rel)], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for dir, files := range byDir {
		bad = append(bad, controlSends(fset, dir, files)...)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: sends to the control plane without sandbox/controlclient", b)
	}
	if len(byDir) < 10 {
		t.Fatalf("walked only %d folders; is the repository root %s?", len(byDir), root)
	}
}

// controlSends finds, in one package, the calls that hand a control-plane
// path to net/http: directly, or to a function of the package whose
// parameter reaches a net/http sender's URL (to a fixed point).
func controlSends(fset *token.FileSet, dir string, files []*ast.File) []string {
	// senders: function name -> indexes of the parameters that reach a URL.
	senders := map[string]map[int]bool{}
	funcs := map[string]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				funcs[fd.Name.Name] = fd
			}
		}
	}
	isSender := func(call *ast.CallExpr) (map[int]bool, bool) {
		switch fn := call.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fn.X.(*ast.Ident); ok && x.Name == "http" && httpSenders[fn.Sel.Name] {
				return nil, true // every argument counts
			}
			if httpSenders[fn.Sel.Name] && len(call.Args) <= 3 && fn.Sel.Name != "Get" || fn.Sel.Name == "Get" && len(call.Args) == 1 {
				if _, local := funcs[fn.Sel.Name]; !local {
					return nil, true // a client's Get(url), Post(url, ...)
				}
			}
			if p, ok := senders[fn.Sel.Name]; ok {
				return p, true
			}
		case *ast.Ident:
			if p, ok := senders[fn.Name]; ok {
				return p, true
			}
		}
		return nil, false
	}
	params := func(fd *ast.FuncDecl) map[string]int {
		m := map[string]int{}
		i := 0
		for _, fl := range fd.Type.Params.List {
			if len(fl.Names) == 0 {
				i++
			}
			for _, n := range fl.Names {
				m[n.Name] = i
				i++
			}
		}
		return m
	}
	for changed := true; changed; {
		changed = false
		for name, fd := range funcs {
			ps := params(fd)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				which, ok := isSender(call)
				if !ok {
					return true
				}
				for i, a := range call.Args {
					if which != nil && !which[i] {
						continue
					}
					ast.Inspect(a, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok {
							if pi, ok := ps[id.Name]; ok {
								if senders[name] == nil {
									senders[name] = map[int]bool{}
								}
								if !senders[name][pi] {
									senders[name][pi] = true
									changed = true
								}
							}
						}
						return true
					})
				}
				return true
			})
		}
	}
	var bad []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			which, ok := isSender(call)
			if !ok {
				return true
			}
			for i, a := range call.Args {
				if which != nil && !which[i] {
					continue
				}
				if namesControlPath(a) {
					bad = append(bad, fset.Position(call.Pos()).String())
					break
				}
			}
			return true
		})
	}
	return bad
}

// namesControlPath reports whether an expression holds a control-plane
// path: a string beginning /_sandbox, or a route's path constant of a
// sandbox package (scenario.ReportPath, traffic.HARPath, timectl.Path...).
func namesControlPath(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.BasicLit:
			if v.Kind == token.STRING {
				if s, err := strconv.Unquote(v.Value); err == nil && strings.HasPrefix(s, "/_sandbox") {
					found = true
				}
			}
		case *ast.SelectorExpr:
			if x, ok := v.X.(*ast.Ident); ok && x.Name != "http" && x.Name != "filepath" && x.Name != "os" && (v.Sel.Name == "Path" || strings.HasSuffix(v.Sel.Name, "Path")) && x.Obj == nil {
				found = true
			}
		}
		return !found
	})
	return found
}
