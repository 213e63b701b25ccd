package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reversibot/reversi/engine/ai"
)

func TestChunkRoundTrip(t *testing.T) {
	dir := t.TempDir()
	name := chunkName(dir, 7)
	want := []ai.PatternSample{{P: 1, O: 2, Score: -6400}, {P: 0x8100000000000081, O: 1 << 20, Score: 123}}
	if err := writeChunk(name, 3, want); err != nil {
		t.Fatal(err)
	}
	if filepath.Base(name) != "chunk-00007.bin" {
		t.Errorf("chunkName = %s", name)
	}
	games, got, err := readChunk(name)
	if err != nil {
		t.Fatal(err)
	}
	if games != 3 || len(got) != len(want) {
		t.Fatalf("readChunk = %d games, %d samples; want 3, %d", games, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sample %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	data, _ := os.ReadFile(name)
	for _, bad := range [][]byte{data[:len(data)-1], data[:4], append([]byte("X"), data[1:]...)} {
		os.WriteFile(name, bad, 0o644)
		if _, _, err := readChunk(name); !errors.Is(err, errChunk) {
			t.Errorf("readChunk of %d bytes: %v, want errChunk", len(bad), err)
		}
	}
}
