package stages

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The documents name the project's functions: in prose (`task.Gather`), and
// in quoted output, as the Go runtime names them — the loop's stats and
// trace name the longest callback "loopkit/task.(*Task[...]).step.func3",
// a closure inside a method. A rename leaves such a name pointing at
// nothing. TestQuotedNamesExist checks each against the source.

// pkgIndex is what one package declares, by package name: its top-level
// names, and for each function or method ("Name", "Type.Name") its body.
type pkgIndex struct {
	names map[string]bool
	funcs map[string]*ast.FuncDecl
}

// indexPackages parses every package of the module, test files aside,
// whatever their build tags: a name is there if any build has it.
func indexPackages(t *testing.T) map[string][]*pkgIndex {
	t.Helper()
	byDir := map[string]*pkgIndex{}
	byName := map[string][]*pkgIndex{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		idx := byDir[dir]
		if idx == nil {
			idx = &pkgIndex{names: map[string]bool{}, funcs: map[string]*ast.FuncDecl{}}
			byDir[dir] = idx
			byName[f.Name.Name] = append(byName[f.Name.Name], idx)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				key := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					key = receiverType(d.Recv.List[0].Type) + "." + key
				}
				idx.funcs[key] = d
				idx.names[d.Name.Name] = true // a method's name: "loop.Time" in prose
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						idx.names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							idx.names[n.Name] = true
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return byName
}

// receiverType is T for a receiver of type T, *T, T[K] or *T[K].
func receiverType(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverType(x.X)
	case *ast.IndexExpr:
		return receiverType(x.X)
	case *ast.IndexListExpr:
		return receiverType(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

// runtimeName is a function as the Go runtime names it: a package path,
// maybe a receiver, a name, maybe type arguments, maybe closures.
var runtimeName = regexp.MustCompile(`\b([a-z][a-z0-9]*(?:/[a-z][a-z0-9]*)*)\.(?:\((\*?)([A-Za-z_]\w*)(?:\[\.\.\.\])?\)\.)?([A-Za-z_]\w*)((?:\[\.\.\.\])?)((?:\.func\d+(?:\.\d+)*)?)`)

// notNames are what follows "pkg." when it is a file, not a name.
var notNames = map[string]bool{"go": true, "md": true, "svg": true, "json": true, "jsonl": true, "txt": true, "sh": true, "pprof": true, "html": true}

// TestQuotedNamesExist checks that every name of a package of the module
// in the documents is declared there: an exported name in prose, and a
// function in a runtime-style name. A closure's number ("step.func3") is
// not checked. Without inlining it counts the function literals of the
// function itself; but a closure made by a function the compiler inlined
// is numbered in its caller, so "step.func3" can name a closure that
// step's own source does not have.
func TestQuotedNamesExist(t *testing.T) {
	pkgs := indexPackages(t)
	checked := 0
	for _, doc := range allDocuments(t) {
		text, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(text), "\n") {
			for _, m := range runtimeName.FindAllStringSubmatch(line, -1) {
				path, recv, name, generic, funcs := m[1], m[3], m[4], m[5], m[6]
				pkg := path[strings.LastIndex(path, "/")+1:]
				idxs := pkgs[pkg]
				if len(idxs) == 0 || notNames[name] {
					continue // another module's package (asyncio.Future), or a file name
				}
				// In prose, only exported names and runtime-style ones
				// are names for sure: "the loop.run" is not a function.
				runtimeStyle := recv != "" || generic != "" || funcs != "" || strings.Contains(path, "/")
				if !runtimeStyle && !ast.IsExported(name) {
					continue
				}
				checked++
				where := doc + ":" + strconv.Itoa(i+1)
				if !runtimeStyle {
					if !anyHas(idxs, func(p *pkgIndex) bool { return p.names[name] }) {
						t.Errorf("%s names %s.%s, which package %s does not declare", where, pkg, name, pkg)
					}
					continue
				}
				key := name
				if recv != "" {
					key = recv + "." + name
				}
				if !anyHas(idxs, func(p *pkgIndex) bool { return p.funcs[key] != nil }) {
					t.Errorf("%s names %s, but package %s has no function %s", where, m[0], pkg, key)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no names found: is the check reading the right files?")
	}
}

func anyHas(idxs []*pkgIndex, f func(*pkgIndex) bool) bool {
	for _, p := range idxs {
		if f(p) {
			return true
		}
	}
	return false
}
