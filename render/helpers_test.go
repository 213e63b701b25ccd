package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata and the examples in docs/boards")

// sizes are every board size the engine supports.
var sizes = []int{4, 6, 8, 10, 12, 14, 16}

// golden compares got (as indented JSON) with testdata/name, or rewrites the file under -update.
func golden(t *testing.T, name string, got any) {
	t.Helper()
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(data, want) {
		// Report the first differing line: the files are line-oriented JSON.
		gl, wl := strings.Split(string(data), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs from the golden at line %d:\n got: %s\nwant: %s\n(run go test -update if the change is intended)", path, i+1, g, w)
			}
		}
	}
}

// sameWhenConcurrent checks that draw, run on four goroutines at once, gives each the bytes it
// gives alone.
func sameWhenConcurrent(t *testing.T, what string, draw func() ([]byte, error)) {
	t.Helper()
	want, err := draw()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			got, err := draw()
			if err == nil && !bytes.Equal(got, want) {
				err = errors.New("a concurrent " + what + " differs")
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
