package telegramtest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine/enginetest"
)

var botAPIPath = flag.String("botapi", filepath.FromSlash("../../../shared/botapi-spec/api.json"),
	"the Bot API's machine-readable description (api.json); the default is shared/ beside the repository")

// TestSpecFile derives the checks' description from api.json and compares it with
// testdata/botapi.json, or with -update rewrites the file. Without api.json (a clone without
// shared/ beside it) it is skipped: the committed file serves.
func TestSpecFile(t *testing.T) {
	api, err := os.ReadFile(*botAPIPath)
	if err != nil {
		if enginetest.Update() {
			t.Fatalf("-update needs the Bot API description: %v", err)
		}
		t.Skipf("no Bot API description (%v): testdata/botapi.json is used as committed", err)
	}
	got, err := deriveSpec(api)
	if err != nil {
		t.Fatalf("%s: %v", *botAPIPath, err)
	}
	if _, err := compileSpec(got); err != nil {
		t.Fatalf("the derived description does not compile: %v", err)
	}
	if !enginetest.Golden(t, filepath.Join("testdata", "botapi.json"), got) {
		t.Errorf("testdata/botapi.json is not what %s gives: run go test ./bot/telegramtest -run TestSpecFile -update -botapi PATH", *botAPIPath)
	}
}

// apiJSON is what deriveSpec reads of api.json.
type apiJSON struct {
	Version string             `json:"version"`
	Methods map[string]apiItem `json:"methods"`
	Types   map[string]apiItem `json:"types"`
}

// apiItem is a method or a type of api.json.
type apiItem struct {
	Description []string   `json:"description"`
	Fields      []apiField `json:"fields"`
	Subtypes    []string   `json:"subtypes"`
}

// apiField is a parameter or a field of api.json.
type apiField struct {
	Name        string   `json:"name"`
	Types       []string `json:"types"`
	Required    bool     `json:"required"`
	Description string   `json:"description"`
}

// Sentences of the description that the derived file turns into checks.
var (
	// "Type of the result, must be article"; "Type of the reaction, always "emoji"".
	constRE = regexp.MustCompile(`, (?:must be|always) "?([a-z0-9_]+)"?$`)
	// "1-64 bytes", "0-200 characters", unless counted "after entities parsing".
	lengthRE = regexp.MustCompile(`(?i)\b(\d+)-(\d+) (characters|bytes)( after entit)?`)
	// "Exactly one of the fields other than text, icon_custom_emoji_id, and style must be used".
	otherThanRE = regexp.MustCompile(`(Exactly|At most) one of the fields other than ([a-z_, ]+?) must be used`)
	// "Exactly one of the fields html or markdown must be used".
	eitherRE = regexp.MustCompile(`Exactly one of the fields ([a-z_]+) or ([a-z_]+) must be used`)
	// "You must use exactly one of the optional fields".
	optionalRE = regexp.MustCompile(`must use exactly one of the optional fields`)
	// Any sentence of that kind, so that a new wording fails the derivation.
	oneOfRE = regexp.MustCompile(`(?i)(exactly|at most) one of`)
)

// deriveSpec derives the checks' description (a specFile, one method or type a line) from
// api.json: every method, and every type a parameter can hold, directly or inside another.
func deriveSpec(data []byte) ([]byte, error) {
	var api apiJSON
	if err := json.Unmarshal(data, &api); err != nil {
		return nil, err
	}
	if len(api.Methods) == 0 {
		return nil, fmt.Errorf("no methods")
	}
	out := specFile{Version: api.Version, Methods: map[string][]specField{}, Types: map[string]specType{}}
	var queue []string
	for name, m := range api.Methods {
		out.Methods[name] = deriveFields(m.Fields)
		for _, f := range m.Fields {
			queue = append(queue, f.Types...)
		}
	}
	for len(queue) > 0 {
		name := baseType(queue[0])
		queue = queue[1:]
		if _, done := out.Types[name]; done || isPrimitive(name) {
			continue
		}
		t, ok := api.Types[name]
		if !ok {
			return nil, fmt.Errorf("type %q is used but not described", name)
		}
		st, err := deriveType(name, t)
		if err != nil {
			return nil, err
		}
		out.Types[name] = st
		for _, f := range t.Fields {
			queue = append(queue, f.Types...)
		}
		queue = append(queue, t.Subtypes...)
	}
	return writeSpec(out)
}

// baseType is s without its "Array of"s.
func baseType(s string) string {
	for {
		rest, ok := strings.CutPrefix(s, "Array of ")
		if !ok {
			return s
		}
		s = rest
	}
}

func isPrimitive(name string) bool {
	switch name {
	case "String", "Integer", "Float", "Boolean", "InputFile":
		return true
	}
	return false
}

// deriveFields derives fields with the constant and the length bounds their descriptions give.
func deriveFields(in []apiField) []specField {
	out := make([]specField, 0, len(in))
	for _, f := range in {
		sf := specField{Name: f.Name, Types: f.Types, Required: f.Required}
		if slices.Equal(f.Types, []string{"String"}) {
			if m := constRE.FindStringSubmatch(f.Description); m != nil && f.Required {
				sf.Const = m[1]
			}
			if m := lengthRE.FindStringSubmatch(f.Description); m != nil && m[4] == "" {
				sf.Min, _ = strconv.Atoi(m[1])
				sf.Max, _ = strconv.Atoi(m[2])
				sf.Bytes = strings.EqualFold(m[3], "bytes")
			}
		}
		out = append(out, sf)
	}
	return out
}

// deriveType derives a type: its fields, its subtypes and the rules its description states
// about which fields may be used together.
func deriveType(name string, t apiItem) (specType, error) {
	st := specType{Fields: deriveFields(t.Fields), Subtypes: t.Subtypes}
	desc := strings.Join(t.Description, " ")
	all := make([]string, len(t.Fields))
	var optional []string
	for i, f := range t.Fields {
		all[i] = f.Name
		if !f.Required {
			optional = append(optional, f.Name)
		}
	}
	switch m := otherThanRE.FindStringSubmatch(desc); {
	case m != nil:
		other := strings.FieldsFunc(strings.ReplaceAll(m[2], " and ", ","), func(r rune) bool { return r == ',' || r == ' ' })
		var rest []string
		for _, f := range all {
			if !slices.Contains(other, f) {
				rest = append(rest, f)
			}
		}
		if m[1] == "Exactly" {
			st.ExactlyOne = rest
		} else {
			st.AtMostOne = rest
		}
	case eitherRE.MatchString(desc):
		e := eitherRE.FindStringSubmatch(desc)
		st.ExactlyOne = []string{e[1], e[2]}
	case optionalRE.MatchString(desc):
		st.ExactlyOne = optional
	case oneOfRE.MatchString(desc):
		return st, fmt.Errorf("type %s: a rule the derivation does not read: %q", name, desc)
	}
	for _, f := range append(append([]string(nil), st.ExactlyOne...), st.AtMostOne...) {
		if !slices.Contains(all, f) {
			return st, fmt.Errorf("type %s: its rule names %q, which is no field of it", name, f)
		}
	}
	return st, nil
}

// writeSpec writes f as JSON with one method or type a line, in the order of their names, so
// that a new version of the Bot API changes only the lines of what changed.
func writeSpec(f specFile) ([]byte, error) {
	var b bytes.Buffer
	put := func(v any) error {
		data, err := json.Marshal(v)
		b.Write(data)
		return err
	}
	b.WriteString("{\"version\":")
	if err := put(f.Version); err != nil {
		return nil, err
	}
	section := func(key string, names []string, value func(string) any) error {
		fmt.Fprintf(&b, ",\n%q:{", key)
		for i, name := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n")
			if err := put(name); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := put(value(name)); err != nil {
				return err
			}
		}
		b.WriteString("\n}")
		return nil
	}
	methods := slices.Sorted(maps.Keys(f.Methods))
	if err := section("methods", methods, func(n string) any { return f.Methods[n] }); err != nil {
		return nil, err
	}
	types := slices.Sorted(maps.Keys(f.Types))
	if err := section("types", types, func(n string) any { return f.Types[n] }); err != nil {
		return nil, err
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}
