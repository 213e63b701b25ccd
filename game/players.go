package game

import (
	"context"
	"fmt"
)

// Players is what the bot knows of people, for the Telegram layer: their profiles (name,
// language, board style, results), the languages chosen for chats, and the leaderboards. It
// keeps them in a PlayerStore; the results of games are recorded by the Service. It is safe
// for concurrent use.
type Players struct {
	st PlayerStore
}

// NewPlayers returns the Players kept in st. It panics if st is nil: a programming error.
func NewPlayers(st PlayerStore) *Players {
	if st == nil {
		panic("game: NewPlayers needs a PlayerStore")
	}
	return &Players{st: st}
}

// Profile returns what is known of the user; one never seen has rating InitialRating and no
// results.
func (p *Players) Profile(ctx context.Context, userID int64) (*Profile, error) {
	return p.st.Profile(ctx, userID)
}

// TouchUser records the user's display name (leaderboards show it), making them known: only
// known people's results count. An empty name changes nothing.
func (p *Players) TouchUser(ctx context.Context, userID int64, name string) error {
	return p.st.TouchUser(ctx, userID, name)
}

// SetLang stores the language the user chose; "" forgets the choice. A code longer than
// MaxLang bytes gives ErrInvalid.
func (p *Players) SetLang(ctx context.Context, userID int64, lang string) error {
	if len(lang) > MaxLang {
		return fmt.Errorf("%w: language of %d bytes", ErrInvalid, len(lang))
	}
	return p.st.SetLang(ctx, userID, lang)
}

// SetStyle stores how the user wants 8×8 boards drawn; a style that is not Valid gives
// ErrInvalid.
func (p *Players) SetStyle(ctx context.Context, userID int64, style Style) error {
	if !style.Valid() {
		return fmt.Errorf("%w: board style %v", ErrInvalid, style)
	}
	return p.st.SetStyle(ctx, userID, style)
}

// ChatLang returns the language chosen for a chat, "" when none was.
func (p *Players) ChatLang(ctx context.Context, chatID int64) (string, error) {
	return p.st.ChatLang(ctx, chatID)
}

// SetChatLang stores the language of a chat; "" forgets the choice. A code longer than
// MaxLang bytes gives ErrInvalid.
func (p *Players) SetChatLang(ctx context.Context, chatID int64, lang string) error {
	if len(lang) > MaxLang {
		return fmt.Errorf("%w: language of %d bytes", ErrInvalid, len(lang))
	}
	return p.st.SetChatLang(ctx, chatID, lang)
}

// Top returns the leaderboard: up to n people with the best ratings, of everyone (chatID 0)
// or of those who played a rated game in that group.
func (p *Players) Top(ctx context.Context, chatID int64, n int) ([]RankEntry, error) {
	return p.st.Top(ctx, chatID, n)
}

// SwapTurnNotice records n as the newest turn notice in the user's private chat and returns
// the previous one (the zero TurnNotice: none), which the caller deletes (see PlayerStore).
func (p *Players) SwapTurnNotice(ctx context.Context, userID int64, n TurnNotice) (TurnNotice, error) {
	return p.st.SwapTurnNotice(ctx, userID, n)
}

// NewestTurnNotice returns the user's newest turn notice (the zero TurnNotice: none).
func (p *Players) NewestTurnNotice(ctx context.Context, userID int64) (TurnNotice, error) {
	return p.st.NewestTurnNotice(ctx, userID)
}

// DropTurnNotice forgets n if it is still the user's newest turn notice and reports whether it
// did, so that the caller, and only it, deletes the message (see PlayerStore).
func (p *Players) DropTurnNotice(ctx context.Context, userID int64, n TurnNotice) (bool, error) {
	return p.st.DropTurnNotice(ctx, userID, n)
}
