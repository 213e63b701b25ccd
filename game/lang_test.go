package game_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
)

// TestSetGameLang checks that a group's language reaches its game in play, and nothing else.
func TestSetGameLang(t *testing.T) {
	e := newEnv(t)
	_, err := e.svc.SetGameLang(e.ctx, group, "ru")
	wantErr(t, "a chat without a game", err, game.ErrNoGame)
	startGroupGame(t, e, 6, game.ChooseWhite)
	start := e.ok(e.svc.Current(e.ctx, group)).Game
	before, lang := start.Version, "ru"
	if start.Lang == "ru" {
		lang = "en"
	}
	g, err := e.svc.SetGameLang(e.ctx, group, lang)
	if err != nil {
		t.Fatal(err)
	}
	if g.Lang != lang || g.Version != before+1 {
		t.Fatalf("SetGameLang gave lang %q version %d (was %d)", g.Lang, g.Version, before)
	}
	if cur := e.ok(e.svc.Current(e.ctx, group)); cur.Game.Lang != lang {
		t.Fatalf("the stored game speaks %q", cur.Game.Lang)
	}
	if g2, err := e.svc.SetGameLang(e.ctx, group, lang); err != nil || g2.Version != g.Version {
		t.Fatalf("the same language again: %v, version %d want %d", err, g2.Version, g.Version)
	}
	_, err = e.svc.SetGameLang(e.ctx, alice.ChatID, "ru")
	wantErr(t, "a private chat without a game", err, game.ErrNoGame)
	_, err = e.svc.SetGameLang(e.ctx, group, "")
	wantErr(t, "no language", err, game.ErrBadRequest)
}
