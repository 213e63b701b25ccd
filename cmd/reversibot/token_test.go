package main

import (
	"strings"
	"testing"
)

func TestTokenProblemSaysWhatIsWrong(t *testing.T) {
	tests := []struct {
		token string
		want  string // "" for a good token
	}{
		{goodToken, ""},
		{"123456:" + strings.Repeat("A", 35), ""},
		{"123456:ABC", "3 characters long"},
		{"123456" + strings.Repeat("A", 35), "no colon"},
		{":" + strings.Repeat("A", 35), "nothing stands before the colon"},
		{"12a456:" + strings.Repeat("A", 35), "character 3 of the bot's id"},
		{"123456:" + strings.Repeat("A", 30) + ":AAAA", "character 31 after the colon"},
		{"123456:" + strings.Repeat("A", 30) + " x", "character 31 after the colon"},
	}
	for _, tt := range tests {
		got := tokenProblem(tt.token)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("tokenProblem(%q) = %q, want one mentioning %q", tt.token, got, tt.want)
		}
		if got != "" && strings.Contains(got, "AAAA") {
			t.Errorf("tokenProblem(%q) = %q repeats part of the token", tt.token, got)
		}
	}
}

func FuzzTokenProblem(f *testing.F) {
	for _, s := range []string{goodToken, "123456:ABC", "", ":", "1:2:3", "12\x00:é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, token string) {
		why := tokenProblem(token)
		id, secret, ok := strings.Cut(token, ":")
		good := ok && id != "" && len(secret) >= minTokenSecret &&
			strings.Trim(id, "0123456789") == "" &&
			strings.Trim(secret, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == ""
		if good != (why == "") {
			t.Fatalf("tokenProblem(%q) = %q, good = %v", token, why, good)
		}
	})
}
