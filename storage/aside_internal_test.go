package storage

import "testing"

func TestHashTag(t *testing.T) {
	for _, tt := range []struct{ key, want string }{
		{"p:g:{abc}", "abc"},
		{"p:g:{abc}:aside", "abc"},
		{"p:{g}g:abc", "g"},
		{"p:{}x{y}", "p:{}x{y}"}, // an empty first tag: the whole key
		{"p:{open", "p:{open"},
		{"plain", "plain"},
		{"{a}{b}", "a"},
	} {
		if got := hashTag(tt.key); got != tt.want {
			t.Errorf("hashTag(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
	k := keys{p: "x:"}
	if !oneHashTag([]string{k.game("G1"), k.aside("G1")}) {
		t.Error("a game's key and its aside key have different hash tags")
	}
	if oneHashTag([]string{k.game("G1"), k.chat(5)}) {
		t.Error("oneHashTag holds for keys of different tags")
	}
}
