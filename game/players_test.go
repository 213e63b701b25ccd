package game_test

import (
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// Players keeps a user's choices and checks them before the store sees them.
func TestPlayers(t *testing.T) {
	e := newEnv(t)
	p := game.NewPlayers(e.store)
	if err := p.SetStyle(e.ctx, alice.UserID, game.StyleImage); err != nil {
		t.Fatal(err)
	}
	if err := p.SetLang(e.ctx, alice.UserID, "ru"); err != nil {
		t.Fatal(err)
	}
	if err := p.SetChatLang(e.ctx, group, "en"); err != nil {
		t.Fatal(err)
	}
	pr, err := p.Profile(e.ctx, alice.UserID)
	if err != nil || pr.Style != game.StyleImage || pr.Lang != "ru" || pr.Name != alice.Name {
		t.Fatalf("Profile = %+v, %v", pr, err)
	}
	if l, err := p.ChatLang(e.ctx, group); err != nil || l != "en" {
		t.Fatalf("ChatLang = %q, %v", l, err)
	}
	if err := p.SetStyle(e.ctx, alice.UserID, game.Style(7)); !errors.Is(err, game.ErrInvalid) || game.ErrorCode(err) != game.CodeInvalid {
		t.Fatalf("SetStyle of an unknown style = %v, want ErrInvalid", err)
	}
	if err := p.SetLang(e.ctx, alice.UserID, "a-language-code-far-too-long"); !errors.Is(err, game.ErrInvalid) {
		t.Fatalf("SetLang of a long code = %v, want ErrInvalid", err)
	}
	if top, err := p.Top(e.ctx, 0, 10); err != nil || len(top) != 0 {
		t.Fatalf("Top before any game = %+v, %v", top, err)
	}
}

// GameAndStyles over a store that is no GameStyles reads the game, then the profiles.
func TestGameAndStylesFallback(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
	if err := e.store.SetStyle(e.ctx, alice.UserID, game.StyleImage); err != nil {
		t.Fatal(err)
	}
	g, styles, err := e.svc.GameAndStyles(e.ctx, r.Game.ID, alice.UserID, 0, bob.UserID)
	if err != nil || g.ID != r.Game.ID || len(styles) != 3 ||
		styles[0] != game.StyleImage || styles[1] != game.StyleButtons || styles[2] != game.StyleButtons {
		t.Fatalf("GameAndStyles = %+v, %v, %v", g, styles, err)
	}
	if g, _, err := e.svc.GameAndStyles(e.ctx, "Nope", alice.UserID); g != nil || !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("GameAndStyles of no game = %v, %v; want ErrNotFound", g, err)
	}
	if g, err := e.svc.Lookup(e.ctx, r.Game.ID); err != nil || g.Version != r.Game.Version {
		t.Fatalf("Lookup = %+v, %v", g, err)
	}
	if g, err := e.svc.LookupChat(e.ctx, alice.ChatID); err != nil || g.ID != r.Game.ID {
		t.Fatalf("LookupChat = %+v, %v", g, err)
	}
	if _, err := e.svc.LookupInline(e.ctx, "AAAA"); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LookupInline of no message = %v, want ErrNotFound", err)
	}
}

// ClaimInvitation goes to the Store's Invitations.
func TestClaimInvitation(t *testing.T) {
	e := newEnv(t)
	if ok, err := e.svc.ClaimInvitation(e.ctx, 1, 2, "AAAA", time.Minute); !ok || err != nil {
		t.Fatalf("first claim = %v, %v", ok, err)
	}
	if ok, err := e.svc.ClaimInvitation(e.ctx, 1, 2, "BBBB", time.Minute); ok || err != nil {
		t.Fatalf("claim from another message = %v, %v; want false", ok, err)
	}
}
