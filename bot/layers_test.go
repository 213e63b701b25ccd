package bot_test

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var showLayers = flag.Bool("layers", false, "print the files of package bot by level, with the arrows between them")

// maxArrowsInCircles is the most arrows between the files of package bot that may lie on a
// circle (file a uses a name of file b, which uses, maybe through others, a name of a): such
// files cannot be read one level at a time. Lower it when a change removes circles; never
// raise it.
const maxArrowsInCircles = 76

// TestFileLayers measures how the files of package bot lean on each other: an arrow from a to
// b when a uses a name b declares (a package-level function, type, variable or constant, a
// method or a field). It fails when more arrows than
// maxArrowsInCircles lie on circles. With -layers it prints every file by level (level 1
// uses no other file; a file's level is one above the highest it uses, a circle's files
// sharing one):
//
//	go test ./bot -run TestFileLayers -v -args -layers
func TestFileLayers(t *testing.T) {
	g, err := fileGraph(".")
	if err != nil {
		t.Fatal(err)
	}
	comp := circles(g)
	level := levels(g, comp)
	arrows, inCircles := 0, 0
	for a, to := range g {
		for b := range to {
			arrows++
			if comp[a] == comp[b] {
				inCircles++
			}
		}
	}
	top := 0
	for _, l := range level {
		top = max(top, l)
	}
	t.Logf("package bot: %d files on %d levels, %d arrows, %d of them on circles", len(g), top, arrows, inCircles)
	if *showLayers {
		files := slices.Sorted(maps.Keys(g))
		slices.SortStableFunc(files, func(a, b string) int { return level[b] - level[a] })
		for _, f := range files {
			t.Logf("level %2d  %-22s uses %s", level[f], f, strings.Join(slices.Sorted(maps.Keys(g[f])), " "))
		}
	}
	if inCircles > maxArrowsInCircles {
		t.Errorf("%d arrows between bot's files lie on circles, at most %d may", inCircles, maxArrowsInCircles)
	}
}

// fileGraph returns, for every non-test Go file of the package in dir, the other files that
// declare a name it uses: a package-level function, type, variable or constant, a method or a
// field (each where it is declared), as the type checker resolves them.
func fileGraph(dir string) (map[string]map[string]bool, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	// Only the package's own names matter: every import is an empty package, and the errors
	// that leaves (names of other packages not found) are ignored.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: emptyImports{}, Error: func(error) {}}
	pkg, _ := conf.Check(files[0].Name.Name, fset, files, info)
	g := map[string]map[string]bool{}
	for _, f := range files {
		g[filepath.Base(fset.File(f.Pos()).Name())] = map[string]bool{}
	}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		if v, ok := obj.(*types.Var); ok && !v.IsField() && obj.Parent() != pkg.Scope() {
			continue // a local variable or parameter
		}
		if _, ok := obj.(*types.Label); ok {
			continue
		}
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			continue // a local type or constant
		}
		from := filepath.Base(fset.File(id.Pos()).Name())
		to := filepath.Base(fset.File(obj.Pos()).Name())
		if from != to {
			g[from][to] = true
		}
	}
	return g, nil
}

// circles returns the strongly connected component of every file (Tarjan's algorithm): two
// files share one when each uses the other, directly or through others.
func circles(g map[string]map[string]bool) map[string]int {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	comp := map[string]int{}
	next, comps := 0, 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range slices.Sorted(maps.Keys(g[v])) {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = comps
				if w == v {
					break
				}
			}
			comps++
		}
	}
	for _, v := range slices.Sorted(maps.Keys(g)) {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	return comp
}

// levels returns the level of every file: 1 for a file (or circle) that uses no other, else one
// above the highest level it uses outside its own circle.
func levels(g map[string]map[string]bool, comp map[string]int) map[string]int {
	byComp := map[int][]string{}
	for f, c := range comp {
		byComp[c] = append(byComp[c], f)
	}
	memo := map[int]int{}
	var of func(c int) int
	of = func(c int) int {
		if l, ok := memo[c]; ok {
			return l
		}
		l := 1
		for _, f := range byComp[c] {
			for u := range g[f] {
				if comp[u] != c {
					l = max(l, of(comp[u])+1)
				}
			}
		}
		memo[c] = l
		return l
	}
	out := map[string]int{}
	for f, c := range comp {
		out[f] = of(c)
	}
	return out
}

// emptyImports imports every package as an empty one of the path's last element's name.
type emptyImports struct{}

func (emptyImports) Import(p string) (*types.Package, error) {
	pkg := types.NewPackage(p, path.Base(p))
	pkg.MarkComplete()
	return pkg, nil
}
