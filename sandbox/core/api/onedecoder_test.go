package api

import (
	"go/ast"
	"go/token"
	"path"
	"strconv"
	"strings"
	"testing"
)

// apiImport is this package's import path: a file importing it serves
// routes (or reads what they resolved).
const apiImport = "github.com/eshop-sandbox/sandbox/sandbox/core/api"

// jsonSinks are the functions that parse JSON bytes or a reader, by
// package name.
var jsonSinks = map[string]map[string]bool{
	"json":  {"Unmarshal": true, "NewDecoder": true, "Valid": true},
	"gjson": {"GetBytes": true, "ParseBytes": true, "ValidBytes": true, "GetManyBytes": true},
	"yaml":  {"Unmarshal": true, "NewDecoder": true},
	"api":   {"DecodeJSON": true},
}

// requestBody reports whether an expression reads a request's body:
// X.RawBody(), or the Body field of a request (r.Body, req.Body,
// x.Request.Body).
func requestBody(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "RawBody" && len(x.Args) == 0 {
				found = true
			}
		case *ast.SelectorExpr:
			if x.Sel.Name != "Body" {
				return true
			}
			switch r := x.X.(type) {
			case *ast.Ident:
				if r.Name == "r" || r.Name == "req" || r.Name == "request" {
					found = true
				}
			case *ast.SelectorExpr:
				if r.Sel.Name == "Request" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// mentions reports whether an expression uses one of the names.
func mentions(e ast.Expr, names map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] {
			found = true
		}
		return !found
	})
	return found
}

// TestOneBodyDecoder: the JSON bodies of the API's and the control
// plane's requests are decoded by api.Decode alone (through
// Request.Body, Request.Decode, Request.DecodeBody), which bounds their
// size and nesting, keeps numbers exact and answers the spec's 413 and
// 422. A file that serves routes (it imports this package) may not decode
// a request body itself: no json, gjson or yaml decoding (nor
// api.DecodeJSON) of r.RawBody(), of a request's Body, or of a variable
// or parameter that holds either (followed through the package's own
// functions), and no io.ReadAll of a request's Body (the server read it
// once: r.RawBody(); api.ReadBody for an in-process receiver).
func TestOneBodyDecoder(t *testing.T) {
	fset := token.NewFileSet()
	byPkg := map[string][]sourceFile{}
	files := 0
	for _, sf := range filesAfterPipeline(t, fset) {
		if clients[path.Dir(sf.rel)] || !imports(sf.file, apiImport) {
			continue
		}
		files++
		dir := path.Dir(sf.rel)
		byPkg[dir] = append(byPkg[dir], sf)
	}
	if files < 50 {
		t.Fatalf("only %d files serve routes: the walk missed the module", files)
	}
	for _, pkg := range byPkg {
		checkBodies(t, fset, pkg)
	}
}

// clients are packages that import this one but speak to a sandbox from
// outside (their r.Body is an answer's): the Go test kit.
var clients = map[string]bool{"sandbox/sandboxtest": true}

// funcOf is one function of a package, with its parameters in order.
type funcOf struct {
	decl   *ast.FuncDecl
	file   sourceFile
	params []string
}

// checkBodies reports the request bodies one package decodes itself.
func checkBodies(t *testing.T, fset *token.FileSet, files []sourceFile) {
	funcs := map[string]*funcOf{}
	for _, sf := range files {
		for _, d := range sf.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			f := &funcOf{decl: fn, file: sf}
			for _, fld := range fn.Type.Params.List {
				if len(fld.Names) == 0 {
					f.params = append(f.params, "_")
				}
				for _, n := range fld.Names {
					f.params = append(f.params, n.Name)
				}
			}
			funcs[fn.Name.Name] = f
		}
	}
	// Which parameters receive a request's body, followed through calls
	// within the package until nothing changes.
	carries := map[string]map[int]bool{}
	walk := func(f *funcOf, visit func(tainted map[string]bool, call *ast.CallExpr)) {
		tainted := map[string]bool{}
		for i := range carries[f.decl.Name.Name] {
			tainted[f.params[i]] = true
		}
		ast.Inspect(f.decl.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				bodyParams(x.Type, tainted)
			case *ast.AssignStmt:
				for _, rhs := range x.Rhs {
					if requestBody(rhs) || mentions(rhs, tainted) {
						for _, lhs := range x.Lhs {
							if id, ok := lhs.(*ast.Ident); ok && id.Name != "_" && id.Name != "err" {
								tainted[id.Name] = true
							}
						}
					}
				}
			case *ast.CallExpr:
				visit(tainted, x)
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for _, f := range funcs {
			walk(f, func(tainted map[string]bool, call *ast.CallExpr) {
				var name string
				switch fn := call.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				callee := funcs[name]
				if callee == nil {
					return
				}
				for i, a := range call.Args {
					if i < len(callee.params) && (requestBody(a) || mentions(a, tainted)) && !carries[name][i] {
						if carries[name] == nil {
							carries[name] = map[int]bool{}
						}
						carries[name][i], changed = true, true
					}
				}
			})
		}
	}
	for _, f := range funcs {
		sf := f.file
		walk(f, func(tainted map[string]bool, call *ast.CallExpr) {
			report := func(what string) {
				t.Errorf("%s:%d: %s: decode request bodies with r.Body(), r.Decode or r.DecodeBody (api.Decode)", sf.rel, fset.Position(call.Pos()).Line, what)
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return
			}
			if pkg.Name == "io" && (sel.Sel.Name == "ReadAll" || sel.Sel.Name == "Copy") {
				for _, a := range call.Args {
					if requestBody(a) {
						report("io." + sel.Sel.Name + " reads the request body again")
					}
				}
				return
			}
			if !jsonSinks[pkg.Name][sel.Sel.Name] {
				return
			}
			for _, a := range call.Args {
				if requestBody(a) || mentions(a, tainted) {
					report(pkg.Name + "." + sel.Sel.Name + " decodes the request body")
					return
				}
			}
		})
	}
}

// bodyParams marks the parameters of a function literal that hold a
// request's body by their name and type (body or raw, a []byte): what an
// alias's When receives from the server.
func bodyParams(ft *ast.FuncType, tainted map[string]bool) {
	for _, fld := range ft.Params.List {
		arr, ok := fld.Type.(*ast.ArrayType)
		if !ok || arr.Len != nil {
			continue
		}
		if elt, ok := arr.Elt.(*ast.Ident); !ok || elt.Name != "byte" {
			continue
		}
		for _, n := range fld.Names {
			if n.Name == "body" || n.Name == "raw" {
				tainted[n.Name] = true
			}
		}
	}
}

// imports reports whether a file imports the path.
func imports(f *ast.File, path string) bool {
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && strings.TrimSpace(p) == path {
			return true
		}
	}
	return false
}
