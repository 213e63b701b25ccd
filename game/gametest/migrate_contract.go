package gametest

import (
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// MigratingStore is a store of everything a group keeps under its chat id that can move it to
// the id the group gets as a supergroup: what TestMigration checks.
type MigratingStore interface {
	game.Store
	game.Reviews
	game.GameMover
	game.ChatMover
}

// TestMigration checks that the stores newStore makes keep the contract of game.GameMover and
// game.ChatMover: a game moves to the new chat with its binding in one compare-and-set, never
// into a chat busy with another game, exactly once among racing moves; a group's
// leaderboard, language and last finished game move, a choice made in the new chat wins, and
// a second move changes nothing. Each subtest gets a store of its own from newStore.
func TestMigration(t *testing.T, newStore func(t *testing.T) MigratingStore) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s MigratingStore)
	}{
		{"MoveGame", testMoveGame},
		{"MoveGameBusy", testMoveGameBusy},
		{"RacingMoves", testRacingMoves},
		{"MoveChat", testMoveChat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

// The chats of a group before and after it became a supergroup.
const (
	oldChat = -4000000001
	newChat = -1001000000001
)

// startedIn starts a group game hosted in chat with its board there.
func startedIn(t *testing.T, s game.Games, chat int64) *game.Game {
	t.Helper()
	g := playingGame(chat)
	g.Boards = []game.MessageRef{{ChatID: chat, MessageID: 5}}
	mustStart(t, s, g, game.Hosting{Chats: []int64{chat}})
	return g
}

// moved returns g read as stored, rehosted in newChat (its board dropped) as the Service does.
func moved(t *testing.T, s game.Games, id string) *game.Game {
	t.Helper()
	g, err := s.Game(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	g.ChatID, g.Boards = newChat, nil
	return g
}

func testMoveGame(t *testing.T, s MigratingStore) {
	g := startedIn(t, s, oldChat)
	stale := moved(t, s, g.ID)
	c := moved(t, s, g.ID)
	if err := s.MoveGame(bg, c, oldChat, newChat); err != nil {
		t.Fatalf("MoveGame: %v", err)
	}
	if c.Version != 2 {
		t.Fatalf("moved game has version %d, want 2", c.Version)
	}
	got, err := s.GameByChat(bg, newChat)
	if err != nil || got.ID != g.ID || got.ChatID != newChat || len(got.Boards) != 0 || got.Version != 2 {
		t.Fatalf("GameByChat(new chat) = %+v, %v; want the game moved", got, err)
	}
	_, err = s.GameByChat(bg, oldChat)
	wantCode(t, "GameByChat(old chat) after the move", err, game.ErrNotFound)
	for chat, want := range map[int64]int64{oldChat: newChat, newChat: 0, -4000000009: 0} {
		if to, err := s.MovedTo(bg, chat); err != nil || to != want {
			t.Fatalf("MovedTo(%d) = %d, %v; want %d", chat, to, err, want)
		}
	}
	// A move of the version read before fails and changes nothing.
	wantCode(t, "MoveGame of an old version", s.MoveGame(bg, stale, oldChat, newChat), game.ErrConflict)
	if got, _ := s.Game(bg, g.ID); got.Version != 2 {
		t.Fatalf("a refused move wrote version %d", got.Version)
	}
	// The game lives on in the new chat: an update keeps its binding.
	got.Moves = append(got.Moves, 0x24)
	if err := s.UpdateGame(bg, got); err != nil {
		t.Fatal(err)
	}
	if again, err := s.GameByChat(bg, newChat); err != nil || len(again.Moves) != 2 {
		t.Fatalf("GameByChat after an update = %+v, %v", again, err)
	}
	gone := moved(t, s, g.ID)
	gone.ID = "NoSuchGame"
	wantCode(t, "MoveGame of a game that is not there", s.MoveGame(bg, gone, oldChat, newChat), game.ErrNotFound)
}

func testMoveGameBusy(t *testing.T, s MigratingStore) {
	g := startedIn(t, s, oldChat)
	other := startedIn(t, s, newChat)
	c := moved(t, s, g.ID)
	err := s.MoveGame(bg, c, oldChat, newChat)
	var busy *game.BusyError
	if !errors.As(err, &busy) || busy.ChatID != newChat {
		t.Fatalf("MoveGame into a busy chat = %v, want a *BusyError naming it", err)
	}
	if got, err := s.GameByChat(bg, oldChat); err != nil || got.ID != g.ID || got.Version != 1 {
		t.Fatalf("the refused move changed the old chat: %+v, %v", got, err)
	}
	if got, err := s.GameByChat(bg, newChat); err != nil || got.ID != other.ID {
		t.Fatalf("the refused move changed the new chat: %+v, %v", got, err)
	}
	if to, err := s.MovedTo(bg, oldChat); err != nil || to != 0 {
		t.Fatalf("the refused move recorded a move to %d, %v", to, err)
	}
	// A finished game in the way is no obstacle.
	done, _ := s.Game(bg, other.ID)
	done.Status, done.Outcome, done.Reason = game.StatusFinished, game.OutcomeBlack, game.EndResign
	if err := s.UpdateGame(bg, done); err != nil {
		t.Fatal(err)
	}
	if err := s.MoveGame(bg, c, oldChat, newChat); err != nil {
		t.Fatalf("MoveGame over a finished game: %v", err)
	}
	if got, err := s.GameByChat(bg, newChat); err != nil || got.ID != g.ID {
		t.Fatalf("GameByChat(new chat) = %+v, %v", got, err)
	}
}

// testRacingMoves: moves of one version racing (the two service messages handled by two
// processes at once) leave one winner; the others conflict and find the game moved.
func testRacingMoves(t *testing.T, s MigratingStore) {
	g := startedIn(t, s, oldChat)
	const n = 8
	reads := make([]*game.Game, n)
	for i := range reads {
		reads[i] = moved(t, s, g.ID)
	}
	errs := race(n, func(i int) error { return s.MoveGame(bg, reads[i], oldChat, newChat) })
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, game.ErrConflict):
			t.Fatalf("move %d: %v, want nil or ErrConflict", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d racing moves won, want 1", won, n)
	}
	if got, err := s.GameByChat(bg, newChat); err != nil || got.Version != 2 {
		t.Fatalf("GameByChat(new chat) = %+v, %v", got, err)
	}
}

func testMoveChat(t *testing.T, s MigratingStore) {
	for _, u := range []int64{1, 2, 3} {
		if err := s.TouchUser(bg, u, "U"); err != nil {
			t.Fatal(err)
		}
	}
	// Two rated games in the old group, one in the new one (played before the move landed).
	for i, g := range []*game.Game{finished("Old1", 1, 2, game.OutcomeBlack), finished("Old2", 2, 1, game.OutcomeDraw),
		finished("New1", 3, 1, game.OutcomeWhite)} {
		g.ChatID = oldChat
		if i == 2 {
			g.ChatID = newChat
		}
		if _, err := s.RecordResult(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetChatLang(bg, oldChat, "ru"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLastGame(bg, oldChat, "Old2", time.Hour); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // moving twice is moving once
		if err := s.MoveChat(bg, oldChat, newChat); err != nil {
			t.Fatalf("MoveChat #%d: %v", i+1, err)
		}
		top, err := s.Top(bg, newChat, 10)
		if err != nil || len(top) != 3 {
			t.Fatalf("after move #%d: Top(new chat) = %+v, %v; want the three players of both groups", i+1, top, err)
		}
		if top, err := s.Top(bg, oldChat, 10); err != nil || len(top) != 0 {
			t.Fatalf("after move #%d: Top(old chat) = %+v, %v; want it empty", i+1, top, err)
		}
		if l, err := s.ChatLang(bg, newChat); err != nil || l != "ru" {
			t.Fatalf("after move #%d: ChatLang(new chat) = %q, %v; want ru", i+1, l, err)
		}
		if l, err := s.ChatLang(bg, oldChat); err != nil || l != "" {
			t.Fatalf("after move #%d: ChatLang(old chat) = %q, %v; want none", i+1, l, err)
		}
		if id, err := s.LastGame(bg, newChat); err != nil || id != "Old2" {
			t.Fatalf("after move #%d: LastGame(new chat) = %q, %v; want Old2", i+1, id, err)
		}
		if _, err := s.LastGame(bg, oldChat); !errors.Is(err, game.ErrNotFound) {
			t.Fatalf("after move #%d: LastGame(old chat) = %v, want ErrNotFound", i+1, err)
		}
	}
	// A choice made in the new chat wins over the old chat's.
	if err := s.SetChatLang(bg, -4000000002, "ru"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetChatLang(bg, -1001000000002, "en"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLastGame(bg, -4000000002, "Old1", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLastGame(bg, -1001000000002, "New1", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.MoveChat(bg, -4000000002, -1001000000002); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.ChatLang(bg, -1001000000002); l != "en" {
		t.Fatalf("the new chat's own language was replaced by %q", l)
	}
	if id, _ := s.LastGame(bg, -1001000000002); id != "New1" {
		t.Fatalf("the new chat's own last game was replaced by %q", id)
	}
	// A chat with nothing to move moves nothing.
	if err := s.MoveChat(bg, -4000000003, -1001000000003); err != nil {
		t.Fatal(err)
	}
	if top, err := s.Top(bg, -1001000000003, 10); err != nil || len(top) != 0 {
		t.Fatalf("Top after moving an empty chat = %+v, %v", top, err)
	}
}
