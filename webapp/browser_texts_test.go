package webapp_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/webapp/webapptest"
)

var latinWord = regexp.MustCompile(`[A-Za-z]+`)

// speaksRussian fails t unless all that the page b shows is Russian: no word in Latin letters
// but the players' names and the board's coordinates (a column's letter, a square as d3).
func speaksRussian(t *testing.T, b webapptest.Board) {
	t.Helper()
	var foreign []string
	for _, w := range latinWord.FindAllString(b.Text, -1) {
		if len(w) == 1 && w[0] >= 'a' && w[0] <= 'p' || w == alice.Name || w == bob.Name {
			continue
		}
		foreign = append(foreign, w)
	}
	if len(foreign) > 0 || !strings.ContainsFunc(b.Text, func(r rune) bool { return r >= 'а' && r <= 'я' }) {
		t.Errorf("a Russian user reads the words %q on the page:\n%s", foreign, b.Text)
	}
	if b.Lang != i18n.RU || b.Title != i18n.T(i18n.RU, i18n.KeyAppTitle) {
		t.Errorf("the page is in %q, titled %q", b.Lang, b.Title)
	}
}

// TestBrowserSpeaksRussian opens the page as Russian users, in every state a game has: every
// text is the Russian one of package i18n, plural forms included, and nothing is left in
// English.
func TestBrowserSpeaksRussian(t *testing.T) {
	ru := func(k i18n.Key, args ...any) string { return i18n.T(i18n.RU, k, args...) }
	discs := func(n int) string { return i18n.Plural(i18n.RU, i18n.KeyAppDiscs, n) }

	t.Run("by language_code", func(t *testing.T) {
		e := newEnv(t)
		g := e.peopleGame(game.FlowGroup, 8) // bob, whose Telegram speaks Russian, is white
		p := e.open(t, bob, g.Game.ID, webapptest.PageOptions{}, nil)
		b := p.Until(t, "the board drawn", ready)
		if b.Status != ru(i18n.KeyAppWaitingFor, "Alice") || b.White.Tag != ru(i18n.KeyAppYou) ||
			b.Black.Tag != ru(i18n.KeyAppBlack) || b.Black.Label != discs(2) || b.White.Label != "2 фишки" ||
			b.Info != [3]string{"8×8 · " + ru(i18n.KeyAppMoveNumber, 1), "", ""} {
			t.Errorf("bob sees %v, cards %+v %+v", b, b.Black, b.White)
		}
		speaksRussian(t, b)
		noErrors(t, p)
	})

	t.Run("by the choice made in the chat", func(t *testing.T) {
		e := newEnv(t)
		e.games.langs[alice.UserID] = i18n.RU // /lang ru, although her Telegram speaks English
		g := e.aiGame(alice, 8)
		p := e.open(t, alice, g.Game.ID, webapptest.PageOptions{}, nil)
		b := p.Until(t, "the board drawn", ready)
		if b.Status != ru(i18n.KeyAppYourMove) || b.Black.Tag != ru(i18n.KeyAppYou) || b.White.Name != ru(i18n.KeyAppBot) ||
			b.White.Tag != i18n.Level(i18n.RU, 1) {
			t.Errorf("alice sees %v, cards %+v %+v", b, b.Black, b.White)
		}
		speaksRussian(t, b)
		if err := p.Tap("f5"); err != nil {
			t.Fatal(err)
		}
		b = p.Until(t, "the AI's reply", func(b webapptest.Board) bool { return b.Ply == 2 && b.Status == ru(i18n.KeyAppYourMove) })
		if want := [3]string{"8×8 · Ход 3", "", ru(i18n.KeyAppLastMove, b.Last)}; b.Info != want || b.Last == "" {
			t.Errorf("after f5 and the reply the footer says %q, want %q", b.Info, want)
		}
		if b.Black.Label != discs(b.Black.Count) || b.White.Label != discs(b.White.Count) {
			t.Errorf("cards %+v %+v", b.Black, b.White)
		}
		speaksRussian(t, b)
		noErrors(t, p)
	})

	t.Run("a lobby", func(t *testing.T) {
		e := newEnv(t)
		e.games.langs[alice.UserID] = i18n.RU
		r, err := e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, ChatID: group, Creator: alice, Size: 10, Lang: "ru"})
		if err != nil {
			t.Fatal(err)
		}
		p := e.open(t, alice, r.Game.ID, webapptest.PageOptions{}, nil)
		b := p.Until(t, "the lobby drawn", ready)
		if b.Status != ru(i18n.KeyAppLobby) || b.Info != [3]string{"10×10", "", ""} || b.Black.Tag != ru(i18n.KeyAppYou) {
			t.Errorf("alice's lobby shows %v, cards %+v %+v", b, b.Black, b.White)
		}
		speaksRussian(t, b)
		noErrors(t, p)
	})

	t.Run("a finished game", func(t *testing.T) {
		e := newEnv(t)
		g := e.peopleGame(game.FlowInvite, 8)
		r := e.playOn(g.Game.ID, 200, 5)
		if r.Game.Status != game.StatusFinished {
			t.Fatalf("the game is still %v", r.Game.Status)
		}
		p := e.open(t, bob, g.Game.ID, webapptest.PageOptions{}, nil)
		b := p.Until(t, "the result", ready)
		played := r.Pos.Count(engine.Black) + r.Pos.Count(engine.White) - 4
		if b.Info[0] != "8×8 · "+i18n.Plural(i18n.RU, i18n.KeyAppMovesPlayed, played) || b.Status == "" || b.Info[2] == "" {
			t.Errorf("after %d moves the page shows %v", played, b)
		}
		speaksRussian(t, b)
		noErrors(t, p)
	})

	t.Run("the browser's plural rules are i18n's", func(t *testing.T) {
		e := newEnv(t)
		g := e.aiGame(alice, 8)
		p := e.open(t, alice, g.Game.ID, webapptest.PageOptions{}, nil)
		p.Until(t, "the board drawn", ready)
		for _, lang := range i18n.Langs() {
			var got []string
			if err := p.Eval(`Array.from({length: 1001}, (_, n) => new Intl.PluralRules('`+lang+`').select(n))`, &got); err != nil {
				t.Fatal(err)
			}
			var want []string
			for n := range 1001 {
				want = append(want, i18n.PluralForm(lang, n))
			}
			if !slices.Equal(got, want) {
				n := 0
				for n < min(len(got), len(want)) && got[n] == want[n] {
					n++
				}
				t.Errorf("%s: the browser's plural forms are not i18n's from %d on (%d forms)", lang, n, len(got))
			}
		}
		noErrors(t, p)
	})
}
