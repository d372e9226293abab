//go:build e2e

// The seam checks type-check package crawler with go/types. go/types and
// go/importer pull some twenty standard packages into the build that
// nothing else here needs, about ten seconds of a learner's first
// go test ./... on a 2-core machine; so they run with -tags e2e, as CI
// runs them, and seam_off_test.go says so in a plain run.

package crawler

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// typedPackage is package crawler, type-checked: its files by name, and
// what each identifier in them refers to.
type typedPackage struct {
	fset  *token.FileSet
	files map[string]*ast.File
	info  *types.Info
}

var (
	typedOnce sync.Once
	typed     *typedPackage
	typedErr  error
)

// typeCheck type-checks the package's own files (not its tests), with the
// export data go list gives for what it imports: once, for every test
// that asks.
func typeCheck(t *testing.T) *typedPackage {
	t.Helper()
	typedOnce.Do(func() { typed, typedErr = checkPackage() })
	if typedErr != nil {
		t.Fatal(typedErr)
	}
	return typed
}

func checkPackage() (*typedPackage, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".").Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(string(bytes.TrimSpace(out)), "\n") {
		path, file, _ := strings.Cut(line, "\t")
		exports[path] = file
	}
	p := &typedPackage{fset: token.NewFileSet(), files: map[string]*ast.File{},
		info: &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}}
	names, err := filepath.Glob("*.go")
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(p.fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		p.files[name] = f
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(p.fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})}
	if _, err := conf.Check("loopkit/crawler", p.fset, files, p.info); err != nil {
		return nil, err
	}
	return p, nil
}

// fileOf is the name of the file that declares obj, or "" if another
// package does.
func (p *typedPackage) fileOf(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "loopkit/crawler" {
		return ""
	}
	return filepath.Base(p.fset.Position(obj.Pos()).Filename)
}

// The chapter's files read on their own: what lets a crawl outlive its
// memory, its process or its machine is reached through the seam, so the
// lesson files name few things the production files define.
func TestTheLessonFilesStandApart(t *testing.T) {
	t.Parallel()
	p := typeCheck(t)
	used := map[types.Object][]string{}
	for _, name := range lessonFiles {
		ast.Inspect(p.files[name], func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			obj := p.info.Uses[id]
			if slices.Contains(productionFiles, p.fileOf(obj)) {
				used[obj] = append(used[obj], name)
			}
			return true
		})
	}
	var names []string
	for obj, in := range used {
		names = append(names, obj.Name()+" ("+p.fileOf(obj)+", used in "+strings.Join(slices.Compact(in), " ")+")")
	}
	slices.Sort(names)
	t.Logf("the lesson files use %d names from the production files:\n  %s", len(names), strings.Join(names, "\n  "))
	if len(names) > 15 {
		t.Fatalf("the lesson files use %d names from the production files, more than 15: reach them through the seam (extension.go)", len(names))
	}
}

// Only todo.go changes the frontier's queues, gates and servers: every
// URL enters the frontier in one place, a host learns its robots.txt in
// one place and a server is held in one.
func TestOnlyTodoGoChangesTheFrontier(t *testing.T) {
	p := typeCheck(t)
	guarded := []string{"Push", "Gate", "Open", "SetDelay", "HoldUntil"}
	calls := 0
	for name, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s := p.info.Selections[sel]
			if s == nil || s.Kind() == types.FieldVal || !slices.Contains(guarded, s.Obj().Name()) {
				return true
			}
			if recv := s.Recv().String(); recv != "*loopkit/crawler/frontier.Frontier" {
				return true
			}
			calls++
			if name != "todo.go" {
				t.Errorf("%s: %s calls the frontier's %s: only todo.go may", p.fset.Position(sel.Pos()), name, s.Obj().Name())
			}
			return true
		})
	}
	if calls < len(guarded) {
		t.Fatalf("found %d calls of %v in all: the check is not looking at what it should", calls, guarded)
	}
}

// doc.go's map is true: each name it puts in a file is declared there,
// and a link's way from its page to its JSON line takes at most fifteen
// calls, crossing each production file at most once.
func TestDocMapIsTrue(t *testing.T) {
	p := typeCheck(t)
	declared := map[string][]string{} // name → the files that declare it (a method name may be in several)
	for name, f := range p.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				declared[d.Name.Name] = append(declared[d.Name.Name], name)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = append(declared[s.Name.Name], name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declared[n.Name] = append(declared[n.Name], name)
						}
					}
				}
			}
		}
	}
	doc := p.files["doc.go"].Doc.Text()
	pieces := regexp.MustCompile(`(?m)^\t(\w+\.go) +(.+?) — `)
	listed := map[string]bool{}
	for _, m := range pieces.FindAllStringSubmatch(doc, -1) {
		listed[m[1]] = true
		for _, name := range strings.Split(m[2], ", ") {
			if !slices.Contains(declared[name], m[1]) {
				t.Errorf("doc.go puts %s in %s; it is declared in %q", name, m[1], declared[name])
			}
		}
	}
	for _, name := range append(slices.Clone(lessonFiles), productionFiles...) {
		if !listed[name] && name != "doc.go" {
			t.Errorf("doc.go's map does not list %s", name)
		}
	}

	way := doc[strings.Index(doc, "A link's way"):]
	hops := regexp.MustCompile(`(?m)^\t(\S+) +(\w+) +\S`).FindAllStringSubmatch(way, -1)
	if len(hops) == 0 || len(hops) > 15 {
		t.Fatalf("doc.go lists %d calls from a found link to its JSON line; want 1 to 15", len(hops))
	}
	// The one step that is no call: a worker parked in next wakes when
	// dispatch completes its future.
	woken := map[[2]string]bool{{"dispatch", "work"}: true}
	crossed := map[string]bool{}
	last, caller := "", ""
	for _, h := range hops {
		file, fn := h[1], h[2]
		if !slices.Contains(declared[fn], file) {
			t.Errorf("doc.go's way: %s is not declared in %s, but in %q", fn, file, declared[fn])
		}
		if caller != "" && !woken[[2]string{caller, fn}] && !p.calls(last, caller, fn) {
			t.Errorf("doc.go's way: %s (%s) does not call %s: a step is missing", caller, last, fn)
		}
		if slices.Contains(productionFiles, file) && file != last {
			if crossed[file] {
				t.Errorf("doc.go's way crosses %s twice", file)
			}
			crossed[file] = true
		}
		last, caller = file, fn
	}
	// The side trips it names, (name, file.go), are declared there too.
	trips := regexp.MustCompile(`\((\w+)(?:: [^,()]*)?, (\w+\.go)\)`).FindAllStringSubmatch(way[:strings.Index(way, "With several loops")], -1)
	if len(trips) < 4 {
		t.Fatalf("doc.go's way names %d side trips; the check reads the wrong text", len(trips))
	}
	for _, m := range trips {
		if !slices.Contains(declared[m[1]], m[2]) {
			t.Errorf("doc.go's side trip: %s is not declared in %s, but in %q", m[1], m[2], declared[m[1]])
		}
	}
}

// calls says whether the function or method name, declared in file,
// names callee in its body: a call, or a function value handed on (to
// CallSoon, RunInExecutor).
func (p *typedPackage) calls(file, name, callee string) bool {
	for _, d := range p.files[file].Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != name || fn.Body == nil {
			continue
		}
		found := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == callee {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
