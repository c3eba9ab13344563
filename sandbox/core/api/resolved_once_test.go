package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The packages that resolve a call: the matcher (this package) and the
// token resolver (auth), and bus, which owns the published call's format
// (bus.Call.URLPath and Query cut its Path). Everything else comes after
// the pipeline and reads what it resolved.
var resolvers = []string{"sandbox/core/api", "sandbox/core/auth", "sandbox/core/bus"}

// afterPipeline are the trees of the packages that run after the
// pipeline or read what it published: the sandbox's packages (behaviour,
// tools, wiring), the terminal UI and the sandbox command. Not the root
// package sandbox (the vocabulary, where sandbox.NewHeaders spells the
// header names) nor the example add-on and the other programs, clients
// of the API that send tokens.
var afterPipeline = []string{"sandbox", "tui", "cmd/sandbox"}

// beforeOrBeside are the trees (or, for the root, the files directly in
// it) left out of afterPipeline.
var beforeOrBeside = []string{"sandbox/exampleaddon"}

// sourceFile is one parsed non-test Go file after the pipeline.
type sourceFile struct {
	rel  string // path from the module root, slash-separated
	file *ast.File
}

// filesAfterPipeline parses every non-test Go file of the packages after
// the pipeline (testdata, which holds stand-in add-ons, excluded).
func filesAfterPipeline(t *testing.T, fset *token.FileSet) []sourceFile {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	var out []sourceFile
	for _, top := range afterPipeline {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				name := d.Name()
				if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				for _, r := range append(resolvers, beforeOrBeside...) {
					if rel == r {
						return filepath.SkipDir
					}
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(rel) == "sandbox" {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			out = append(out, sourceFile{rel: rel, file: f})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 200 {
		t.Fatalf("only %d Go files found after the pipeline: the walk missed the module", len(out))
	}
	return out
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

// requestPath tells an expression that reads a request's URL path or
// URI, or the path of a published call: X.URL.Path, X.URL.RawPath,
// X.URL.EscapedPath(), X.URL.RequestURI(), X.RequestURI, and X.Path.
func requestPath(e ast.Expr) (string, bool) {
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 0 {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "EscapedPath" || sel.Sel.Name == "RequestURI") {
			if inner, ok := sel.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "URL" {
				return "URL." + sel.Sel.Name + "()", true
			}
		}
		return "", false
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	switch sel.Sel.Name {
	case "Path", "RawPath":
		if inner, ok := sel.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "URL" {
			return "URL." + sel.Sel.Name, true
		}
		if sel.Sel.Name == "Path" {
			return exprName(sel.X) + ".Path", true
		}
	case "RequestURI":
		return "RequestURI", true
	}
	return "", false
}

// exprName is a short spelling of an expression for messages.
func exprName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprName(x.X) + "." + x.Sel.Name
	case *ast.IndexExpr:
		return exprName(x.X) + "[...]"
	case *ast.CallExpr:
		return exprName(x.Fun) + "(...)"
	case *ast.StarExpr:
		return "*" + exprName(x.X)
	case *ast.ParenExpr:
		return exprName(x.X)
	}
	return "?"
}

// pathParsers are the packages whose functions cut or compare paths.
var pathParsers = map[string]bool{"strings": true, "path": true, "url": true, "regexp": true, "filepath": true}

// routeLiteral reports whether a string literal names a path (or, with
// areas, the start of an area of the sandbox: "/api/", "/_sandbox",
// "/eshops/").
func routeLiteral(e ast.Expr, areas bool) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	v, err := strconv.Unquote(lit.Value)
	if err != nil || !strings.HasPrefix(v, "/") {
		return false
	}
	if !areas {
		return true
	}
	for _, a := range []string{"/api", "/_sandbox", "/eshops"} {
		if strings.HasPrefix(v, a) {
			return true
		}
	}
	return false
}

// TestNothingAfterThePipelineRoutesAgain: the server resolves a request's
// route (operation, template, path parameters, area) once, into api.Call,
// and the traffic tap publishes it on bus.Call. No package after the
// pipeline may route the request again from its URL: no request path or
// URI (or a published call's Path) cut, prefixed, parsed or matched with
// strings, path, url or regexp, compared with or switched on a path
// literal, and no mux.Vars or api.AreaOf. (A fault's or an expectation's own path
// pattern is matched against bus.Call.URLPath or api.Call.Path, which the
// pipeline set; scenario.PathMatches takes the pattern apart, not the
// route.) It names the file and line to fix: read CallOf(r) or the
// bus.Call's Operation, Route, Params and Area instead.
func TestNothingAfterThePipelineRoutesAgain(t *testing.T) {
	fset := token.NewFileSet()
	for _, sf := range filesAfterPipeline(t, fset) {
		report := func(n ast.Node, what string) {
			t.Errorf("%s:%d: %s: read the route the pipeline resolved (api.CallOf(r), or bus.Call's Operation, Route, Params, Area) instead", sf.rel, fset.Position(n.Pos()).Line, what)
		}
		ast.Inspect(sf.file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, _ := sel.X.(*ast.Ident)
				if pkg != nil && pkg.Name == "mux" && sel.Sel.Name == "Vars" {
					report(x, "mux.Vars routes the request again")
					return true
				}
				if pkg != nil && pkg.Name == "api" && sel.Sel.Name == "AreaOf" {
					report(x, "api.AreaOf tells the area from the path again")
					return true
				}
				if pkg == nil || !pathParsers[pkg.Name] {
					return true
				}
				for _, arg := range x.Args {
					name, ok := requestPath(arg)
					if !ok {
						continue
					}
					// X.Path alone is the published call's, or a route
					// template's, or a pattern's: telling its area by a
					// path literal, or parsing it as a URL, is routing.
					if strings.HasPrefix(name, "URL.") || name == "RequestURI" || anyAreaLiteral(x.Args) || pkg.Name == "url" || pkg.Name == "regexp" {
						report(x, pkg.Name+"."+sel.Sel.Name+" on "+name)
					}
				}
			case *ast.BinaryExpr:
				if x.Op != token.EQL && x.Op != token.NEQ {
					return true
				}
				for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
					if name, ok := requestPath(pair[0]); ok && routeLiteral(pair[1], false) {
						report(x, name+" compared with a path")
					}
				}
			case *ast.SwitchStmt:
				if name, ok := requestPath(x.Tag); ok {
					report(x, "switch on "+name)
				}
			}
			return true
		})
	}
}

func anyAreaLiteral(args []ast.Expr) bool {
	for _, a := range args {
		if routeLiteral(a, true) {
			return true
		}
	}
	return false
}

// tokenHeaderNames are the fields of sandbox.Headers that name the token
// headers.
var tokenHeaderNames = map[string]bool{"AccessToken": true, "PrivateToken": true, "AccessTokenKey": true, "PrivateTokenKey": true}

// namesTokenHeader reports whether an expression names a token header:
// a sandbox.Headers token field, a literal spelling one (with any brand
// word), or a name that says it holds one (tokenHeader, h.access).
func namesTokenHeader(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if tokenHeaderNames[x.Sel.Name] {
			return true
		}
		return tokenish(x.Sel.Name)
	case *ast.Ident:
		return tokenish(x.Name)
	case *ast.BasicLit:
		v, err := strconv.Unquote(x.Value)
		return err == nil && tokenLiteral(v)
	case *ast.BinaryExpr:
		return namesTokenHeader(x.X) || namesTokenHeader(x.Y)
	case *ast.ParenExpr:
		return namesTokenHeader(x.X)
	}
	return false
}

// tokenish reports whether a variable's name says it holds a token
// header's name.
func tokenish(name string) bool {
	n := strings.ToLower(name)
	return n == "access" || n == "private" || (strings.Contains(n, "token") && (strings.Contains(n, "header") || strings.Contains(n, "key")))
}

// tokenLiteral reports whether a string spells a token header (or its
// brand-free tail, joined to the header word).
func tokenLiteral(v string) bool {
	for _, tail := range []string{"-Access-Token", "-Private-API-Token", "-Private-Api-Token"} {
		if strings.HasSuffix(v, tail) {
			return true
		}
	}
	return false
}

// TestNothingAfterThePipelineReadsTokenHeaders: the server reads the
// token headers once (auth.TokenOf, with its precedence and its refusals
// of duplicated or conflicting headers) and api.Call and bus.Call carry
// the token, its header, its access mode and its add-on. No package
// after the pipeline may read those headers again: no auth.TokenOf, no
// Get, Values or index of a header map by a token header's name (the
// sandbox.Headers fields, a literal with any brand word, or a variable
// named for one), and no literal spelling a token header's tail (only
// auth knows the spellings, e.g. auth.OtherWordHeaders). Sending a
// token (Set, a map literal) is a client's business and stays allowed.
func TestNothingAfterThePipelineReadsTokenHeaders(t *testing.T) {
	fset := token.NewFileSet()
	for _, sf := range filesAfterPipeline(t, fset) {
		report := func(n ast.Node, what string) {
			t.Errorf("%s:%d: %s: read the token the pipeline resolved (api.Call.Token/TokenHeader/Addon, or bus.Call's Token, TokenHeader, AccessMode, Addon) instead", sf.rel, fset.Position(n.Pos()).Line, what)
		}
		written := map[ast.Expr]bool{} // header[name] = ... sends, it does not read
		ast.Inspect(sf.file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range x.Lhs {
					written[lhs] = true
				}
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "auth" && sel.Sel.Name == "TokenOf" {
					report(x, "auth.TokenOf reads the token headers again")
					return true
				}
				if (sel.Sel.Name == "Get" || sel.Sel.Name == "Values") && len(x.Args) == 1 && namesTokenHeader(x.Args[0]) {
					report(x, sel.Sel.Name+"("+exprName(x.Args[0])+") reads a token header")
				}
			case *ast.IndexExpr:
				if !written[x] && namesTokenHeader(x.Index) {
					report(x, "["+exprName(x.Index)+"] reads a token header")
				}
			case *ast.BasicLit:
				if x.Kind != token.STRING {
					return true
				}
				if v, err := strconv.Unquote(x.Value); err == nil && tokenLiteral(v) && !strings.Contains(v, " ") {
					report(x, "the literal "+x.Value+" spells a token header")
				}
			}
			return true
		})
	}
}
