package game

import (
	"context"
	"time"
)

// Games keeps the games the Service hosts and the chats and inline messages bound to them.
// Package storage implements it on Redis, package gametest in memory; both pass
// gametest.TestGames, which checks what follows. Every method is safe for concurrent use, and
// each is one atomic step, also among processes sharing the store.
//
// StartGame stores a new game (assigning its ID, Version 1 and its Created and Updated times)
// and binds the chats and inline message of Hosting to it; JoinGame and UpdateGame store a
// game read from the store and changed, with a compare-and-set on Game.Version (on success
// Version is one more and Updated now) that fails with ErrConflict when another write came
// first. Lookups of a game that is not there (never stored, expired, an id that cannot be
// one) fail with ErrNotFound, and one whose record cannot be read with a *CorruptError naming
// it. A chat has at most one lobby or game in play: StartGame and JoinGame refuse a chat bound
// to another one with a *BusyError, and they alone decide whether a chat is free, so racing
// requests leave one game per chat. Games expire by their Status (lobbies soonest, finished
// games after a while, games in play after a long idle time), and so do their bindings. Each
// user keeps at most UserGames lobbies and finished games: storing one more (a lobby, a game
// that ends) deletes the user's oldest, with what guards it (caps.go); a game's rematch mark
// lives no longer than the finished game.
type Games interface {
	// StartGame stores g as a new game and binds it where h says. When h.InlineID shows a
	// game already, or h.RematchOf has its rematch already, nothing is written and that game
	// comes back as existing (ErrNotFound when that rematch is gone). The mark that h.RematchOf
	// has its rematch lives as long as that finished game (none when it is gone). g is
	// unchanged on failure; on success it has its ID, Version, Created and Updated.
	StartGame(ctx context.Context, g *Game, h Hosting) (existing *Game, err error)
	// JoinGame is UpdateGame that also binds chats (each free or bound to g already).
	JoinGame(ctx context.Context, g *Game, chats []int64) error
	// Game returns the game with the given ID.
	Game(ctx context.Context, id string) (*Game, error)
	// UpdateGame stores g, a compare-and-set on g.Version, and resets the expiry of g and of
	// the bindings it names that still point at it.
	UpdateGame(ctx context.Context, g *Game) error
	// GameByChat returns the game bound to a chat (ErrNotFound for none).
	GameByChat(ctx context.Context, chatID int64) (*Game, error)
	// UnbindChat removes a chat's binding if it still points at gameID.
	UnbindChat(ctx context.Context, chatID int64, gameID string) error
	// GameByInline returns the game bound to an inline message (ErrNotFound for none).
	GameByInline(ctx context.Context, inlineID string) (*Game, error)
	// SetAside takes the record of a game that cannot be read out of play, keeping it under
	// the key it returns for the operator, and frees the chats and inline messages bound to it
	// (via: where it was reached). moved is false when it was set aside before; ErrNotFound
	// when there is no such record.
	SetAside(ctx context.Context, gameID string, via ...MessageRef) (key string, moved bool, err error)
}

// GameStyles is a Games that reads a game together with the board styles of some people in
// one step (a Redis store: one round trip). Service.GameAndStyles uses it when the Games has
// it, and reads the game and then the profiles otherwise.
type GameStyles interface {
	// GameAndStyles returns the game with the given ID, as Games.Game does, and the style
	// each of users has chosen (styles[i] is Profile(users[i]).Style; StyleButtons for user
	// 0). When the game cannot be read, g is nil and err says why; when only a style cannot
	// be read, g comes back with err, and that style is StyleButtons.
	GameAndStyles(ctx context.Context, id string, users ...int64) (g *Game, styles []Style, err error)
}

// Invitations keeps which message each inline invitation opened a game in, so that an
// invitation copied onto another message opens nothing there. Package storage's Store and
// gametest's Memory implement it; gametest.TestInvitations checks it.
type Invitations interface {
	// ClaimInvitation binds the invitation that creator made with nonce to the inline message
	// inlineID for ttl: true when it was free or is bound to that message already, false when
	// another message claimed it first. It keeps the newest UserInvitations claims of each
	// creator. An inline id that cannot be one, or a ttl <= 0, gives ErrInvalid.
	ClaimInvitation(ctx context.Context, creator, nonce int64, inlineID string, ttl time.Duration) (bool, error)
}
