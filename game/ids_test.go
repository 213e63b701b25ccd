package game

import (
	"strings"
	"testing"
)

func TestValidIDs(t *testing.T) {
	good := []string{"a", "AbC09_-", strings.Repeat("x", MaxIDLen)}
	bad := []string{"", "a b", "{x}", "ä", strings.Repeat("x", MaxIDLen+1)}
	for _, id := range good {
		if !ValidID(id) {
			t.Errorf("ValidID(%q) = false, want true", id)
		}
	}
	for _, id := range bad {
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true, want false", id)
		}
	}
	for id, want := range map[string]bool{
		"AAMBAg": true, "x:y/z+": true, strings.Repeat("q", MaxInlineIDLen): true,
		"": false, "a b": false, "{tag}": false, "a\x7f": false, strings.Repeat("q", MaxInlineIDLen+1): false,
	} {
		if got := ValidInlineID(id); got != want {
			t.Errorf("ValidInlineID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestSortRanking(t *testing.T) {
	got := []RankEntry{
		{UserID: 5, Rating: 1200, Wins: 1},
		{UserID: 3, Rating: 1300},
		{UserID: 2, Rating: 1200, Wins: 4},
		{UserID: 1, Rating: 1200, Wins: 1},
	}
	SortRanking(got)
	var ids []int64
	for _, e := range got {
		ids = append(ids, e.UserID)
	}
	want := []int64{3, 2, 1, 5} // rating, then wins, then the lower id
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("SortRanking order = %v, want %v", ids, want)
		}
	}
}
