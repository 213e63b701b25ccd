package game

import (
	"cmp"
	"slices"
)

// The bounds of the identifiers a store accepts.
const (
	// MaxIDLen is the longest game ID: IDs travel in callback data and deep links.
	MaxIDLen = 12
	// MaxInlineIDLen is the longest inline message ID a store keeps.
	MaxInlineIDLen = 256
)

// ValidID reports whether id could be a game ID: 1…MaxIDLen characters from [A-Za-z0-9_-].
// IDs come back in callback data, which anyone can forge, so every store checks them.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > MaxIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// ValidInlineID reports whether id may be an inline message ID: 1…MaxInlineIDLen printable
// ASCII bytes without braces (so that no Redis key's hash tag depends on what a client sent).
func ValidInlineID(id string) bool {
	if len(id) == 0 || len(id) > MaxInlineIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c >= 0x7f || c == '{' || c == '}' {
			return false
		}
	}
	return true
}

// SortRanking puts a leaderboard in order: higher rating first, then more wins, then the
// lower user ID, so that every store ranks the same players the same way.
func SortRanking(entries []RankEntry) {
	slices.SortFunc(entries, func(a, b RankEntry) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Wins, a.Wins); c != 0 {
			return c
		}
		return cmp.Compare(a.UserID, b.UserID)
	})
}
