package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/reversibot/reversi/game"
)

// moduleSources returns the text of every Go file of the module that is no test, by path,
// except the files of texts (keys.go, en.go, ru.go) of this package.
func moduleSources(t *testing.T) map[string]string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no module root at %s: %v", root, err)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		if filepath.Dir(path) == here {
			switch filepath.Base(path) {
			case "keys.go", "en.go", "ru.go":
				return nil
			}
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out[path] = string(src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEveryTextIsUsed fails for each text that no code shows: a key is used when a Go file of
// the module (no test, none of keys.go, en.go, ru.go) names its constant (i18n.KeyX outside
// this package, KeyX in it) or its value as a string ("btn.resign"), or when it belongs to a
// family that code reaches by name: the error texts of game's codes (err.<code>), the level
// names (level.N, see Level) and the command menu (cmd.<command>, see Commands).
func TestEveryTextIsUsed(t *testing.T) {
	srcs := moduleSources(t)
	if len(srcs) < 50 {
		t.Fatalf("found only %d Go files: the walk is broken", len(srcs))
	}
	here, _ := filepath.Abs(".")
	reached := map[Key]bool{}
	for _, c := range game.Codes() {
		reached[Key("err."+string(c))] = true
	}
	for n := 1; n <= game.MaxLevel; n++ {
		reached[Key("level."+strconv.Itoa(n))] = true
	}
	for _, c := range commands {
		reached[Key("cmd."+c)] = true
	}
	// The constants the sources name: KeyX in this package, i18n.KeyX elsewhere.
	named := map[string]bool{}
	inside, outside := regexp.MustCompile(`\bKey[A-Z]\w*`), regexp.MustCompile(`\bi18n\.(Key[A-Z]\w*)`)
	for path, src := range srcs {
		if filepath.Dir(path) == here {
			for _, m := range inside.FindAllString(src, -1) {
				named[m] = true
			}
			continue
		}
		for _, m := range outside.FindAllStringSubmatch(src, -1) {
			named[m[1]] = true
		}
	}
	for name, k := range keyConstants(t) {
		if reached[k] || named[name] {
			continue
		}
		literal, used := strconv.Quote(string(k)), false
		for _, src := range srcs {
			if strings.Contains(src, literal) {
				used = true
				break
			}
		}
		if !used {
			t.Errorf("text %s (%q) is shown by no code: wire it in where it belongs, or delete it from keys.go, en.go and ru.go", name, k)
		}
	}
}
