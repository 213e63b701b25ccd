// Package enginetest is test support for the tests of every package of the project: golden
// files. It imports only the standard library, so the engine's own tests can use it.
//
// A golden file holds what a test's output was when someone last looked at it and found it
// right. Golden compares the output with the file; run the tests with -update to rewrite the
// files from the output after a change that is meant to change it, and read the diff.
package enginetest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files (and whatever else the tests keep current) from what the tests give")

// Update reports whether the tests run with -update: the golden files are to be written from
// what the tests give rather than compared with it.
func Update() bool { return *update }

// Golden compares got with the golden file at path (relative to the package's directory, as
// a test runs in it) and, when they differ, fails the test with the lines that differ; with
// -update it writes got to path instead, making its directory. It reports whether the file
// holds got now.
func Golden(t testing.TB, path string, got []byte) bool {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return true
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run go test -update to write it)", err)
		return false
	}
	if bytes.Equal(got, want) {
		return true
	}
	t.Errorf("%s differs from what the test gives (- the file, + the test):\n%s(run go test -update if the change is meant)",
		path, Diff(string(want), string(got)))
	return false
}

// maxShown is how many differing lines a Diff shows.
const maxShown = 40

// maxCells bounds the table of the line matching (lines of want times lines of got, past the
// common head and tail); beyond it Diff pairs the lines by their number.
const maxCells = 1 << 22

// Diff describes, line by line, how got differs from want: each run of changed lines under
// the numbers it starts at in want and in got, the lines of want marked "-" and those of got
// "+". Lines are matched by a longest common subsequence, so an inserted line shows as one.
// It shows at most 40 lines of change and says how many more there are. Equal texts give "".
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := lines(want), lines(got)
	head := 0
	for head < len(w) && head < len(g) && w[head] == g[head] {
		head++
	}
	tail := 0
	for tail < len(w)-head && tail < len(g)-head && w[len(w)-1-tail] == g[len(g)-1-tail] {
		tail++
	}
	ops := match(w[head:len(w)-tail], g[head:len(g)-tail])
	var sb strings.Builder
	shown, hidden := 0, 0
	wi, gi := head, head // line indexes in w and g
	for i := 0; i < len(ops); {
		if ops[i] == same {
			wi, gi, i = wi+1, gi+1, i+1
			continue
		}
		fmt.Fprintf(&sb, "@@ line %d of the file, %d of the test\n", wi+1, gi+1)
		for ; i < len(ops) && ops[i] != same; i++ {
			var line string
			if ops[i] == del {
				line, wi = "- "+w[wi], wi+1
			} else {
				line, gi = "+ "+g[gi], gi+1
			}
			if shown == maxShown {
				hidden++
				continue
			}
			sb.WriteString(line + "\n")
			shown++
		}
	}
	if hidden > 0 {
		fmt.Fprintf(&sb, "… and %d more lines of change\n", hidden)
	}
	return sb.String()
}

// lines splits s into its lines; a last line without its newline is marked so.
func lines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		if t, ok := strings.CutSuffix(l, "\n"); ok {
			ls[i] = t
		} else {
			ls[i] = l + " (no newline at the end)"
		}
	}
	return ls
}

// An op is one step of a Diff: a line in both, only in want, or only in got.
type op uint8

const (
	same op = iota
	del     // in want only
	ins     // in got only
)

// match returns the steps that turn w into g: a longest common subsequence of their lines
// when the table fits maxCells, else the lines paired by their number.
func match(w, g []string) []op {
	var ops []op
	if (len(w)+1)*(len(g)+1) > maxCells {
		for i := range max(len(w), len(g)) {
			switch {
			case i < len(w) && i < len(g) && w[i] == g[i]:
				ops = append(ops, same)
			case i < len(w) && i < len(g):
				ops = append(ops, del, ins)
			case i < len(w):
				ops = append(ops, del)
			default:
				ops = append(ops, ins)
			}
		}
		return ops
	}
	// lcs[i][j] is the length of a longest common subsequence of w[i:] and g[j:].
	cols := len(g) + 1
	lcs := make([]int, (len(w)+1)*cols)
	for i := len(w) - 1; i >= 0; i-- {
		for j := len(g) - 1; j >= 0; j-- {
			if w[i] == g[j] {
				lcs[i*cols+j] = lcs[(i+1)*cols+j+1] + 1
			} else {
				lcs[i*cols+j] = max(lcs[(i+1)*cols+j], lcs[i*cols+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(w) || j < len(g) {
		switch {
		case i < len(w) && j < len(g) && w[i] == g[j]:
			ops = append(ops, same)
			i, j = i+1, j+1
		case j == len(g) || i < len(w) && lcs[(i+1)*cols+j] >= lcs[i*cols+j+1]:
			ops = append(ops, del)
			i++
		default:
			ops = append(ops, ins)
			j++
		}
	}
	return ops
}
