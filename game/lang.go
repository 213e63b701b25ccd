package game

import (
	"context"
	"errors"
)

// SetGameLang sets the language in which the boards of the game hosted in a group chat speak
// (Game.Lang), after the group chose a language (/lang): a game that is in play or a lobby
// whose ChatID is chatID gets lang, and the game comes back (changed, or already in lang).
// Any other game, a finished one, or a chat without one gives ErrNoGame; a lang longer than
// MaxLang bytes ErrBadRequest. The change is a compare-and-set on the game's version, tried
// again when another write comes first.
func (s *Service) SetGameLang(ctx context.Context, chatID int64, lang string) (*Game, error) {
	if chatID == 0 || lang == "" || len(lang) > MaxLang {
		return nil, ErrBadRequest
	}
	var err error
	for range 5 {
		var g *Game
		if g, err = s.st.GameByChat(ctx, chatID); err != nil {
			return nil, storeErr(s.readable(ctx, err, MessageRef{ChatID: chatID}))
		}
		if g.ChatID != chatID || g.Status == StatusFinished {
			return nil, ErrNoGame
		}
		if g.Lang == lang {
			return g, nil
		}
		g.Lang = lang
		if err = s.update(ctx, g); err == nil {
			return g, nil
		}
		if !errors.Is(err, ErrConflict) {
			return nil, err
		}
	}
	return nil, err
}
