// Gold for Go: type-checks every package of a module with go/types (standard library only)
// and answers each query (file, line, name, kind, qual) with the position of the object
// the identifier `name` on that line refers to: of its occurrences there, the one that
// fits the query best (as fit.py: a `call` followed by `(` or `[T](`, qual "pb" → `pb.Name`,
// no qual → a `Name` not after a `.`; a `type_ref` not followed by `(` or a key's `:`),
// the first one among equals; a declaring identifier (`recChecker recChecker`) last.
//
//	go run oracle_go.go ROOT QUERIES.jsonl > GOLD.jsonl
//
// ROOT is the indexed directory (holding go.mod). Packages inside the module are
// type-checked from source with one shared FileSet, so their objects carry positions in
// ROOT; imports outside the module (the standard library) come from the "source"
// importer. Target: {"file","line"} when the object is declared under ROOT, null when it
// is declared elsewhere (standard library, universe scope: `string`, `nil`, `append`),
// "unknown" when no identifier of that name is on the line or the package did not
// type-check there. An in-module package named by an import spec has no single
// declaration line: "unknown". A package-level declaration that files left out by build
// constraints declare too (pointer_purego.go / pointer_unsafe.go) has those as "alts".
// Test files are checked as the go tool does: in-package
// _test.go files together with the package, external (package x_test) files as their
// own package importing the test variant.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type query struct {
	Lang string  `json:"lang"`
	File string  `json:"file"`
	Line int     `json:"line"`
	Name string  `json:"name"`
	Kind string  `json:"kind"`
	Qual *string `json:"qual"` // null (or absent: an index without refs.qual): bare
}

// The occurrence of a query's name that fits it best (fit.py): 4 when written as its qual
// says, + 2 for a member where the qual is a path, + 1 when as its kind says.
var (
	callAfter  = regexp.MustCompile(`^\s*(?:<[^()]*>|\[[^()]*\])?\s*\(`)
	parenAfter = regexp.MustCompile(`^\s*\(`)
	keyAfter   = regexp.MustCompile(`^\s*:(?:[^:]|$)`) // a key or label: `Bar1: Bar1{…}`
	bangAfter  = regexp.MustCompile(`^\s*!`)
	prevIdent  = regexp.MustCompile(`([A-Za-z0-9_$]+)[?!]*$`)
)

func qualFits(text string, col int, q query, hasQual bool, qual *string) bool {
	if !hasQual {
		return true
	}
	before := strings.TrimRight(text[:col], " \t")
	sep := ""
	for _, s := range []string{"::", "->", "."} {
		if strings.HasSuffix(before, s) {
			sep = s
			break
		}
	}
	switch {
	case qual == nil:
		return sep == ""
	case *qual == "?":
		return sep != ""
	case *qual == "!":
		return bangAfter.MatchString(text[col+len(q.Name):])
	case sep == "":
		return false
	}
	m := prevIdent.FindStringSubmatch(strings.TrimRight(before[:len(before)-len(sep)], " \t"))
	if m == nil {
		return false
	}
	segs := strings.Split(*qual, ".")
	if m[1] == segs[len(segs)-1] {
		return true
	}
	return len(segs) == 1 && (m[1] == "self" || m[1] == "this" || m[1] == "Self" || m[1] == "cls")
}

func fit(text string, col int, q query, hasQual bool, qual *string) int {
	if col < 0 || col+len(q.Name) > len(text) {
		return 0
	}
	n := 0
	if qualFits(text, col, q, hasQual, qual) {
		n += 4
	}
	if hasQual && qual != nil && *qual != "?" && *qual != "!" {
		// a path qual (a receiver's class need not be what is written) meets a member
		before := strings.TrimRight(text[:col], " \t")
		for _, s := range []string{"::", "->", "."} {
			if strings.HasSuffix(before, s) {
				n += 2
				break
			}
		}
	}
	after := text[col+len(q.Name):]
	switch q.Kind {
	case "call":
		if callAfter.MatchString(after) {
			n++
		}
	case "type_ref":
		if !parenAfter.MatchString(after) && !keyAfter.MatchString(after) {
			n++
		}
	default:
		n++
	}
	return n
}

var srcLines = map[string][]string{}

func lineOf(file string, line int) string {
	ls, ok := srcLines[file]
	if !ok {
		b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		ls = strings.Split(string(b), "\n")
		srcLines[file] = ls
	}
	if line < 1 || line > len(ls) {
		return ""
	}
	return ls[line-1]
}

type occ struct {
	col    int
	target interface{} // map, nil, or "unknown"
	alts   []map[string]interface{}
	def    bool // a declaring identifier (info.Defs): the reference is never that one
}

var (
	root    string
	modPath string
	fset    = token.NewFileSet()
	stdImp  types.Importer
	dirs    = map[string]*pkgDir{} // import path -> dir
	mainImp = imp{map[string]*types.Package{}, true}
	// occurrences: rel file -> line -> name -> list
	occs = map[string]map[int]map[string][]occ{}
	// import specs: rel file -> line -> import path
	imports = map[string]map[int]string{}
	errs    []string
)

type pkgDir struct {
	dir                     string
	path                    string
	files, inTests, extTest []*ast.File
}

func rel(p string) (string, bool) {
	r, err := filepath.Rel(root, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return "", false
	}
	return filepath.ToSlash(r), true
}

type dirKey struct{ dir, key string }

// Top-level declarations of files other builds use, by directory and name
// ("Recv.Method" for methods).
var otherBuilds = map[dirKey][]map[string]interface{}{}

type declKey struct {
	key string
	pos token.Pos
}

func declKeys(d ast.Decl) []declKey {
	var out []declKey
	switch d := d.(type) {
	case *ast.FuncDecl:
		k := d.Name.Name
		if d.Recv != nil && len(d.Recv.List) > 0 {
			t := d.Recv.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if ix, ok := t.(*ast.IndexExpr); ok {
				t = ix.X
			}
			if id, ok := t.(*ast.Ident); ok {
				k = id.Name + "." + k
			}
		}
		out = append(out, declKey{k, d.Name.Pos()})
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				out = append(out, declKey{sp.Name.Name, sp.Name.Pos()})
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					out = append(out, declKey{n.Name, n.Pos()})
				}
			}
		}
	}
	return out
}

// alts of a package-level object: the same declaration in files of other builds.
func altsOf(obj types.Object) []map[string]interface{} {
	if obj == nil || !obj.Pos().IsValid() || obj.Pkg() == nil {
		return nil
	}
	key := obj.Name()
	if f, ok := obj.(*types.Func); ok {
		if sig, ok := f.Type().(*types.Signature); ok && sig.Recv() != nil {
			t := sig.Recv().Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := t.(*types.Named); ok {
				key = n.Obj().Name() + "." + key
			} else {
				return nil
			}
		}
	} else if obj.Parent() != obj.Pkg().Scope() {
		return nil
	}
	return otherBuilds[dirKey{filepath.Dir(fset.Position(obj.Pos()).Filename), key}]
}

func targetOf(obj types.Object) interface{} {
	if obj == nil {
		return "unknown"
	}
	if pn, ok := obj.(*types.PkgName); ok {
		// A package: outside the module → null; inside, no single declaration line.
		if p := pn.Imported().Path(); p == modPath || strings.HasPrefix(p, modPath+"/") {
			return "unknown"
		}
		return nil
	}
	if !obj.Pos().IsValid() {
		return nil // universe scope
	}
	pos := fset.Position(obj.Pos())
	r, ok := rel(pos.Filename)
	if !ok {
		return nil
	}
	return map[string]interface{}{"file": r, "line": pos.Line, "name": obj.Name()}
}

// imp imports in-module packages from source through its own cache: the main one, or,
// for an external test package, a fresh one where the package under test is its test
// variant and every in-module package importing it is checked again against that variant
// (as the go tool builds tests).
type imp struct {
	cache map[string]*types.Package
	main  bool // record occurrences (the main pass); test passes only re-check
}

func (m imp) Import(path string) (*types.Package, error) { return m.ImportFrom(path, "", 0) }
func (m imp) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if d, ok := dirs[path]; ok {
		return check(m, d, false, nil)
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	return stdImp.(types.ImporterFrom).ImportFrom(path, dir, mode)
}

// check type-checks a package (files only, or files + in-package tests) and records the
// occurrences of the files it is asked to record.
func check(m imp, d *pkgDir, withTests bool, record []*ast.File) (*types.Package, error) {
	key := d.path
	if withTests {
		key += " [test]"
	}
	if p, ok := m.cache[key]; ok && record == nil {
		return p, nil
	}
	files := append([]*ast.File{}, d.files...)
	if withTests {
		files = append(files, d.inTests...)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}
	conf := types.Config{Importer: m, Error: func(err error) { errs = append(errs, err.Error()) }}
	p, _ := conf.Check(d.path, fset, files, info)
	m.cache[key] = p
	if record == nil && !withTests && m.main {
		record = d.files
	}
	recordInfo(info, record)
	return p, nil
}

func recordInfo(info *types.Info, files []*ast.File) {
	want := map[string]bool{}
	for _, f := range files {
		want[fset.Position(f.Pos()).Filename] = true
	}
	add := func(id *ast.Ident, obj types.Object, def bool) {
		pos := fset.Position(id.Pos())
		if !want[pos.Filename] {
			return
		}
		r, _ := rel(pos.Filename)
		if occs[r] == nil {
			occs[r] = map[int]map[string][]occ{}
		}
		if occs[r][pos.Line] == nil {
			occs[r][pos.Line] = map[string][]occ{}
		}
		occs[r][pos.Line][id.Name] = append(occs[r][pos.Line][id.Name], occ{pos.Column - 1, targetOf(obj), altsOf(obj), def})
	}
	for id, obj := range info.Uses {
		add(id, obj, false)
	}
	// A declaring identifier names itself: a query landing on one (a ref on the line of a
	// definition of the same name) is answered with that definition, when nothing else on
	// the line is that name (`recChecker recChecker`: the field's type, not the field).
	for id, obj := range info.Defs {
		if obj != nil {
			add(id, obj, true)
		}
	}
}

func main() {
	root, _ = filepath.Abs(os.Args[1])
	gm, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		panic(err)
	}
	for _, l := range strings.Split(string(gm), "\n") {
		if strings.HasPrefix(l, "module ") {
			modPath = strings.TrimSpace(strings.TrimPrefix(l, "module "))
		}
	}
	ctx := build.Default
	ctx.GOPATH = ""
	ctx.CgoEnabled = false
	stdImp = importer.ForCompiler(fset, "source", nil)
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !fi.IsDir() {
			return nil
		}
		if p != root && (strings.HasPrefix(fi.Name(), ".") || strings.HasPrefix(fi.Name(), "_") || fi.Name() == "testdata" || fi.Name() == "vendor") {
			return filepath.SkipDir
		}
		ents, _ := os.ReadDir(p)
		r, _ := rel(p)
		ip := modPath
		if r != "." {
			ip = modPath + "/" + r
		}
		d := &pkgDir{dir: p, path: ip}
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") {
				continue
			}
			if ok, _ := ctx.MatchFile(p, n); !ok {
				// Left out by build constraints: its top-level declarations are other
				// builds' versions of this build's (alts).
				if f, err := parser.ParseFile(fset, filepath.Join(p, n), nil, 0); err == nil {
					for _, decl := range f.Decls {
						for _, k := range declKeys(decl) {
							pos := fset.Position(k.pos)
							rf, _ := rel(pos.Filename)
							otherBuilds[dirKey{p, k.key}] = append(otherBuilds[dirKey{p, k.key}], map[string]interface{}{"file": rf, "line": pos.Line})
						}
					}
				}
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(p, n), nil, parser.ParseComments)
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			rf, _ := rel(filepath.Join(p, n))
			for _, is := range f.Imports {
				if imports[rf] == nil {
					imports[rf] = map[int]string{}
				}
				path, _ := strconv.Unquote(is.Path.Value)
				imports[rf][fset.Position(is.Pos()).Line] = path
			}
			switch {
			case strings.HasSuffix(n, "_test.go") && strings.HasSuffix(f.Name.Name, "_test"):
				d.extTest = append(d.extTest, f)
			case strings.HasSuffix(n, "_test.go"):
				d.inTests = append(d.inTests, f)
			default:
				d.files = append(d.files, f)
			}
		}
		if len(d.files)+len(d.inTests)+len(d.extTest) > 0 {
			dirs[ip] = d
		}
		return nil
	})
	paths := make([]string, 0, len(dirs))
	for p := range dirs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		d := dirs[p]
		check(mainImp, d, false, nil)
		if len(d.inTests) > 0 {
			check(mainImp, d, true, d.inTests)
		}
		if len(d.extTest) > 0 {
			ti := imp{map[string]*types.Package{}, false}
			testPkg, _ := check(ti, d, true, []*ast.File{})
			ti.cache[d.path] = testPkg
			info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
			conf := types.Config{Importer: ti, Error: func(err error) { errs = append(errs, err.Error()) }}
			conf.Check(d.path+"_test", fset, d.extTest, info)
			recordInfo(info, d.extTest)
		}
	}
	for _, e := range errs {
		fmt.Fprintln(os.Stderr, "oracle_go: type error:", e)
	}
	// Answer the queries.
	qf, err := os.Open(os.Args[2])
	if err != nil {
		panic(err)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	sc := bufio.NewScanner(qf)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var q query
		if json.Unmarshal(sc.Bytes(), &q) != nil || q.File == "" {
			continue
		}
		var keys map[string]json.RawMessage
		json.Unmarshal(sc.Bytes(), &keys)
		_, hasQual := keys["qual"]
		if q.Lang != "" && q.Lang != "go" {
			continue
		}
		var target interface{} = "unknown"
		var alts []map[string]interface{}
		note := ""
		if path, ok := imports[q.File][q.Line]; ok && q.Kind == "import" {
			if path == modPath || strings.HasPrefix(path, modPath+"/") {
				note = "in-module package"
			} else {
				target = nil
			}
		} else if os := occs[q.File][q.Line][q.Name]; len(os) > 0 {
			qual := q.Qual
			text := lineOf(q.File, q.Line)
			rank := func(o occ) int {
				f := fit(text, o.col, q, hasQual, qual)
				if o.def {
					f -= 4
				}
				return f
			}
			best, bestFit := os[0], rank(os[0])
			for _, o := range os[1:] {
				f := rank(o)
				if f > bestFit || f == bestFit && o.col < best.col {
					best, bestFit = o, f
				}
			}
			target = best.target
			alts = best.alts
		} else {
			note = "no identifier on the line"
		}
		g := map[string]interface{}{"lang": "go", "file": q.File, "line": q.Line, "name": q.Name, "kind": q.Kind, "target": target}
		if hasQual {
			g["qual"] = q.Qual
		}
		if _, ok := target.(map[string]interface{}); ok && len(alts) > 0 {
			g["alts"] = alts
		}
		if note != "" {
			g["note"] = note
		}
		b, _ := json.Marshal(g)
		out.Write(b)
		out.WriteByte('\n')
	}
}
