package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

// TestMPCResumes fits a tiny table in one go and again in two sittings (the second resuming
// from the data file): the Go sources must be the same bytes and parse. A data file of another
// configuration and a corrupt one are refused.
func TestMPCResumes(t *testing.T) {
	dir := t.TempDir()
	args := func(data, out string, games string) []string {
		return []string{"-games", games, "-depth", "4", "-every", "6", "-data", data, "-out", out}
	}
	one, two := filepath.Join(dir, "one.go"), filepath.Join(dir, "two.go")
	if code := runMPC(args(filepath.Join(dir, "a.gob"), one, "2")); code != 0 {
		t.Fatalf("exit %d", code)
	}
	b := filepath.Join(dir, "b.gob")
	if code := runMPC(args(b, filepath.Join(dir, "half.go"), "1")); code != 0 {
		t.Fatalf("first sitting: exit %d", code)
	}
	if code := runMPC(args(b, two, "2")); code != 0 {
		t.Fatalf("second sitting: exit %d", code)
	}
	x, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(two)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Errorf("resumed fit differs:\n%s\nvs\n%s", x, y)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), one, x, 0); err != nil {
		t.Errorf("generated source does not parse: %v", err)
	}
	if code := runMPC([]string{"-games", "2", "-depth", "5", "-data", b, "-out", two}); code != 1 {
		t.Errorf("data of another depth: exit %d, want 1", code)
	}
	data, _ := os.ReadFile(b)
	for _, bad := range [][]byte{data[:len(data)/2], []byte("not a gob"), {}} {
		os.WriteFile(b, bad, 0o644)
		if code := runMPC(args(b, two, "2")); code != 1 {
			t.Errorf("corrupt data file of %d bytes: exit %d, want 1", len(bad), code)
		}
	}
}
