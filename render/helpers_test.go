package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/reversibot/reversi/engine/enginetest"
)

// sizes are every board size the engine supports.
var sizes = []int{4, 6, 8, 10, 12, 14, 16}

// golden compares got, as indented JSON, with testdata/name, or writes the file under -update.
func golden(t *testing.T, name string, got any) {
	t.Helper()
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Golden(t, filepath.Join("testdata", name), append(data, '\n'))
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
