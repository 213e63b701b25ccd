package bot_test

import (
	"context"
	"testing"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// TestBoardAheadOfTheStore: a Redis failover that lost the game's last writes leaves the board
// ahead of the stored game. A tap there (a legal move on the board as shown) is answered with an
// alert, in the player's language, that the last move was lost; the board is redrawn as the
// game is stored, and the game plays on from there. A tap on that board before it was redrawn
// (its buttons name an older version than the store's) is the usual stale tap.
func TestBoardAheadOfTheStore(t *testing.T) {
	for _, lang := range i18n.Langs() {
		t.Run(lang, func(t *testing.T) {
			ctx := context.Background()
			h := newHarness(t)
			alice := h.user("Alice", lang)
			board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
			id := gameID(board)
			start := h.yourMoveAt(board, 0)
			saved, err := h.store.GameRecord(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if a := h.pressData(alice, start, legalMoves(start)[0].CallbackData); !applied(a) {
				t.Fatalf("first move answered %+v", a)
			}
			ahead := h.yourMoveAt(board, 2) // alice's move and the AI's
			// The failover: the store is back where it was before both moves.
			if err := h.store.PutGameRecord(ctx, id, saved); err != nil {
				t.Fatal(err)
			}

			a := h.pressData(alice, ahead, legalMoves(ahead)[0].CallbackData)
			if want := i18n.T(lang, i18n.KeyGameMoveLost); !a.ShowAlert || a.Text != want {
				t.Errorf("tap on a board ahead of the store answered %+v, want the alert %q", a, want)
			}
			now := h.yourMoveAt(board, 0)
			if discsOf(now) != discsOf(start) {
				t.Errorf("the board was redrawn as%s\nwant as stored:%s", dump([]telegramtest.ChatMessage{now}), dump([]telegramtest.ChatMessage{start}))
			}
			if a := h.pressData(alice, now, legalMoves(now)[0].CallbackData); !applied(a) {
				t.Fatalf("the move on the redrawn board answered %+v", a)
			}
			h.yourMoveAt(board, 2)
		})
	}
}

// TestMoveButtonsNameTheVersion: every move button of a board carries the version of the game
// it was drawn from (callback.Data.Arg): never above the stored game's, and greater on the
// board of a later step.
func TestMoveButtonsNameTheVersion(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	id := gameID(board)
	var last int
	for ply := 0; ply <= 2; ply += 2 {
		cur := h.yourMoveAt(board, ply)
		g, err := h.store.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		named := map[int]bool{}
		for _, row := range cur.Buttons() {
			for _, b := range row {
				if c, err := callback.Parse(b.CallbackData); err == nil && c.Action == callback.ActionMove {
					named[c.Arg] = true
				}
			}
		}
		if len(named) != 1 {
			t.Fatalf("ply %d: the move buttons name the versions %v, want one", ply, named)
		}
		for v := range named {
			if v <= last || int64(v) > g.Version {
				t.Fatalf("ply %d: the move buttons name version %d, want one above %d and at most the game's %d", ply, v, last, g.Version)
			}
			last = v
		}
		if ply == 0 {
			if a := h.pressData(alice, cur, legalMoves(cur)[0].CallbackData); !applied(a) {
				t.Fatalf("move answered %+v", a)
			}
		}
	}
}
