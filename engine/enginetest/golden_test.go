package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name, want, got, diff string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"changed", "a\nb\nc\n", "a\nB\nc\n", "@@ line 2 of the file, 2 of the test\n- b\n+ B\n"},
		{"inserted", "a\nb\nc\n", "a\nb\nx\nc\n", "@@ line 3 of the file, 3 of the test\n+ x\n"},
		{"deleted", "a\nb\nc\nd\n", "a\nd\n", "@@ line 2 of the file, 2 of the test\n- b\n- c\n"},
		{"two runs", "a\nb\nc\nd\ne\n", "a\nB\nc\nd\nE\n",
			"@@ line 2 of the file, 2 of the test\n- b\n+ B\n@@ line 5 of the file, 5 of the test\n- e\n+ E\n"},
		{"newline at the end", "a\nb", "a\nb\n", "@@ line 2 of the file, 2 of the test\n- b (no newline at the end)\n+ b\n"},
		{"empty file", "", "a\n", "@@ line 1 of the file, 1 of the test\n+ a\n"},
	} {
		if got := Diff(tc.want, tc.got); got != tc.diff {
			t.Errorf("%s: Diff(%q, %q) =\n%s\nwant\n%s", tc.name, tc.want, tc.got, got, tc.diff)
		}
	}
}

// A long change shows its first 40 lines and counts the rest.
func TestDiffLong(t *testing.T) {
	var want, got strings.Builder
	for i := range 100 {
		fmt.Fprintf(&want, "line %d\n", i)
		fmt.Fprintf(&got, "line %d changed\n", i)
	}
	d := Diff(want.String(), got.String())
	if n := strings.Count(d, "\n- ") + strings.Count(d, "\n+ "); n != 40 {
		t.Errorf("%d lines of change shown, want 40:\n%s", n, d)
	}
	if !strings.HasSuffix(d, "… and 160 more lines of change\n") {
		t.Errorf("Diff does not count the lines it leaves out:\n%s", d)
	}
}

// Beyond the table's bound the lines are paired by number, which still shows every change.
func TestDiffPairedBeyondTheBound(t *testing.T) {
	n := 3000 // 3001² cells > maxCells
	w, g := make([]string, n), make([]string, n)
	for i := range n {
		w[i] = fmt.Sprint("w", i)
		g[i] = fmt.Sprint("g", i)
	}
	ops := match(w, g[:n-1])
	dels, inss := 0, 0
	for _, o := range ops {
		switch o {
		case del:
			dels++
		case ins:
			inss++
		}
	}
	if dels != n || inss != n-1 {
		t.Fatalf("paired match: %d deleted, %d inserted; want %d, %d", dels, inss, n, n-1)
	}
}

// recorder is a testing.TB that keeps its errors.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestGolden(t *testing.T) {
	if Update() {
		t.Skip("-update: Golden writes rather than compares")
	}
	path := filepath.Join(t.TempDir(), "x.golden")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	if !Golden(r, path, []byte("one\ntwo\n")) || len(r.errors) != 0 {
		t.Fatalf("Golden of the file's own bytes failed: %q", r.errors)
	}
	if Golden(r, path, []byte("one\n2\n")) || len(r.errors) != 1 ||
		!strings.Contains(r.errors[0], "- two\n+ 2\n") || !strings.Contains(r.errors[0], path) {
		t.Fatalf("Golden of other bytes: %q", r.errors)
	}
	r.errors = nil
	if Golden(r, filepath.Join(t.TempDir(), "missing"), nil) || len(r.errors) != 1 ||
		!strings.Contains(r.errors[0], "-update") {
		t.Fatalf("Golden of a missing file: %q", r.errors)
	}
}
