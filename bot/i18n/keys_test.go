package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// keyConstants reads keys.go and returns the value of every constant of type Key it declares,
// by the constant's name.
func keyConstants(t *testing.T) map[string]Key {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "keys.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Key{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Key" {
				continue
			}
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("constant %s is not a string literal", name.Name)
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out[name.Name] = Key(v)
			}
		}
	}
	return out
}

// TestKeyConstants checks that every key constant of keys.go has a text in every language,
// that no two constants name one key, and that every text has a constant.
func TestKeyConstants(t *testing.T) {
	consts := keyConstants(t)
	seen := map[Key]string{}
	for name, k := range consts {
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s both name %q", name, other, k)
		}
		seen[k] = name
		for _, lang := range Langs() {
			if !Has(lang, k) {
				t.Errorf("%s has no text for %s (%q)", lang, name, k)
			}
		}
	}
	for _, k := range Keys() {
		if _, ok := seen[k]; !ok {
			t.Errorf("the text %q has no constant in keys.go", k)
		}
	}
}
