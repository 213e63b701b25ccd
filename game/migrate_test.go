package game_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// The supergroup the group (group) becomes.
const supergroup = -1001999

// A group game in play moves to the supergroup with its language and style, its board in the
// old chat dropped; a second migration (the other service message) finds it moved and says
// so; the game goes on to its end in the supergroup, whose leaderboard then counts it.
func TestMigrateGameInPlay(t *testing.T) {
	e := newEnv(t)
	r := startGroupGame(t, e, 6, game.ChooseBlack)
	g := e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.Ply(r.Game))).Game
	if _, err := e.svc.AddBoard(e.ctx, g.ID, game.MessageRef{ChatID: group, MessageID: 9}); err != nil {
		t.Fatal(err)
	}
	m, err := e.svc.MigrateChat(e.ctx, group, supergroup)
	if err != nil || !m.Moved || m.Game == nil {
		t.Fatalf("MigrateChat = %+v, %v; want the game moved", m, err)
	}
	moved := m.Game.Game
	if moved.ID != g.ID || moved.ChatID != supergroup || len(moved.Boards) != 0 || moved.Lang != "ru" ||
		len(moved.Moves) != 1 || moved.Status != game.StatusPlaying {
		t.Fatalf("moved game %+v", moved)
	}
	again, err := e.svc.MigrateChat(e.ctx, group, supergroup)
	if err != nil || again.Moved || again.Game == nil || again.Game.Game.ID != g.ID {
		t.Fatalf("second MigrateChat = %+v, %v; want the game found moved", again, err)
	}
	_, err = e.svc.Current(e.ctx, group)
	wantErr(t, "Current(old chat)", err, game.ErrNoGame)
	cur := e.ok(e.svc.Current(e.ctx, supergroup))
	end := playPeople(t, e, cur)
	if end.Game.ChatID != supergroup {
		t.Fatalf("the game ended hosted in %d", end.Game.ChatID)
	}
	top, err := e.store.Top(e.ctx, supergroup, 10)
	if err != nil || len(top) != 2 {
		t.Fatalf("Top(supergroup) = %+v, %v; want both players", top, err)
	}
	// The supergroup is free for a new game once this one ended.
	e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: carol, ChatID: supergroup, Size: 8}))
}

// A lobby moves and is joined in the supergroup.
func TestMigrateLobby(t *testing.T) {
	e := newEnv(t)
	l := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: alice, ChatID: group, Size: 8,
		Style: game.StyleImage}))
	if _, err := e.svc.AddBoard(e.ctx, l.Game.ID, game.MessageRef{ChatID: group, MessageID: 3}); err != nil {
		t.Fatal(err)
	}
	m, err := e.svc.MigrateChat(e.ctx, group, supergroup)
	if err != nil || !m.Moved || m.Game.Game.Status != game.StatusLobby || m.Game.Game.Style != game.StyleImage {
		t.Fatalf("MigrateChat = %+v, %v; want the lobby moved with its style", m, err)
	}
	r := e.ok(e.svc.Join(e.ctx, l.Game.ID, bob))
	if r.Game.ChatID != supergroup || len(r.Lobby) != 0 {
		t.Fatalf("joined %+v (lobby messages %v)", r.Game, r.Lobby)
	}
	if cur := e.ok(e.svc.Current(e.ctx, supergroup)); cur.Game.ID != l.Game.ID {
		t.Fatalf("the supergroup shows %s", cur.Game.ID)
	}
}

// The group's leaderboard, language and last finished game move with it, and nothing is left
// under the old id; a group with neither game nor records migrates to nothing.
func TestMigrateRecords(t *testing.T) {
	e := newEnv(t)
	r := e.eachMoves(startGroupGame(t, e, 6, game.ChooseBlack))
	e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID))
	if err := e.store.SetChatLang(e.ctx, group, "ru"); err != nil {
		t.Fatal(err)
	}
	m, err := e.svc.MigrateChat(e.ctx, group, supergroup)
	if err != nil || m.Moved || m.Game != nil {
		t.Fatalf("MigrateChat of a group without a game = %+v, %v", m, err)
	}
	if top, err := e.store.Top(e.ctx, supergroup, 10); err != nil || len(top) != 2 {
		t.Fatalf("Top(supergroup) = %+v, %v", top, err)
	}
	if top, _ := e.store.Top(e.ctx, group, 10); len(top) != 0 {
		t.Fatalf("Top(old group) = %+v, want none", top)
	}
	if l, _ := e.store.ChatLang(e.ctx, supergroup); l != "ru" {
		t.Fatalf("ChatLang(supergroup) = %q, want ru", l)
	}
	if last := e.ok(e.svc.LastFinished(e.ctx, supergroup)); last.Game.ID != r.Game.ID {
		t.Fatalf("LastFinished(supergroup) = %s, want %s", last.Game.ID, r.Game.ID)
	}
}

// Chats that are not two different groups are refused; a supergroup that has a game of its
// own already keeps it, and the old group keeps its game.
func TestMigrateRefused(t *testing.T) {
	e := newEnv(t)
	for _, c := range [][2]int64{{0, supergroup}, {group, 0}, {group, group}, {alice.ChatID, supergroup}, {group, 7}} {
		_, err := e.svc.MigrateChat(e.ctx, c[0], c[1])
		wantErr(t, "MigrateChat of bad chats", err, game.ErrBadRequest)
	}
	old := startGroupGame(t, e, 6, game.ChooseBlack)
	other := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: carol, ChatID: supergroup, Size: 8}))
	_, err := e.svc.MigrateChat(e.ctx, group, supergroup)
	wantErr(t, "MigrateChat into a busy supergroup", err, game.ErrAlreadyPlaying)
	if cur := e.ok(e.svc.Current(e.ctx, group)); cur.Game.ID != old.Game.ID {
		t.Fatal("the old group lost its game")
	}
	if cur := e.ok(e.svc.Current(e.ctx, supergroup)); cur.Game.ID != other.Game.ID {
		t.Fatal("the supergroup lost its lobby")
	}
}

// Migrations of one group racing in two Services over one store (the two service messages
// handled by two processes at once), with moves racing them: exactly one migration moves the
// game, every one finds it in the supergroup, and no move is lost.
func TestMigrateRacing(t *testing.T) {
	for round := range 20 {
		e := newEnv(t)
		other := game.New(game.Config{Store: e.store, Mover: firstMover{}, Now: e.clock.Now,
			Rand: rand.New(rand.NewPCG(3, 4)), AllowSmall: true})
		t.Cleanup(other.Close)
		r := startGroupGame(t, e, 6, game.ChooseBlack)
		_, p, _ := r.Turn()
		var (
			wg    sync.WaitGroup
			ms    [2]*game.Migration
			errs  [3]error
			moved *game.Snapshot
		)
		for i, svc := range []*game.Service{e.svc, other} {
			wg.Go(func() { ms[i], errs[i] = svc.MigrateChat(e.ctx, group, supergroup) })
		}
		wg.Go(func() {
			moved, errs[2] = e.svc.Move(e.ctx, r.Game.ID, p.UserID, firstLegal(t, r), game.Ply(r.Game))
		})
		wg.Wait()
		if err := errors.Join(errs[:]...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if ms[0].Moved == ms[1].Moved {
			t.Fatalf("round %d: Moved %v and %v, want exactly one", round, ms[0].Moved, ms[1].Moved)
		}
		cur := e.ok(e.svc.Current(e.ctx, supergroup))
		if cur.Game.ID != r.Game.ID || len(cur.Game.Moves) != 1 || cur.Game.ChatID != supergroup || moved == nil {
			t.Fatalf("round %d: the supergroup shows %+v", round, cur.Game)
		}
		if _, err := e.svc.Current(e.ctx, group); !errors.Is(err, game.ErrNoGame) {
			t.Fatalf("round %d: the old group still shows a game: %v", round, err)
		}
	}
}

// noMover hides the Memory's GameMover: MigrateChat then binds the supergroup and frees the
// group in two steps.
type noMover struct{ *gametest.Memory }

func (noMover) MoveGame() {} // not game.GameMover's: shadows the Memory's

// Without a GameMover the game moves all the same, and a migration that finds the group
// still bound to the moved game (the second step lost) frees it.
func TestMigrateWithoutGameMover(t *testing.T) {
	c := gametest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	mem := gametest.NewMemory(gametest.MemoryOptions{Now: c.Now})
	st := noMover{mem}
	if _, ok := any(st).(game.GameMover); ok {
		t.Fatal("noMover is a GameMover")
	}
	svc := game.New(game.Config{Store: st, Mover: firstMover{}, Now: c.Now, AllowSmall: true})
	t.Cleanup(svc.Close)
	ctx := context.Background()
	l, err := svc.OpenLobby(ctx, game.Lobby{Flow: game.FlowGroup, Creator: alice, ChatID: group, Size: 8})
	if err != nil {
		t.Fatal(err)
	}
	m, err := svc.MigrateChat(ctx, group, supergroup)
	if err != nil || !m.Moved {
		t.Fatalf("MigrateChat = %+v, %v", m, err)
	}
	if _, err := svc.Current(ctx, group); !errors.Is(err, game.ErrNoGame) {
		t.Fatalf("Current(old group) = %v, want ErrNoGame", err)
	}
	// The group bound to the moved game again, as if the unbinding had been lost.
	g, _ := mem.Game(ctx, l.Game.ID)
	if err := mem.JoinGame(ctx, g, []int64{group}); err != nil {
		t.Fatal(err)
	}
	again, err := svc.MigrateChat(ctx, group, supergroup)
	if err != nil || again.Moved || again.Game == nil {
		t.Fatalf("MigrateChat again = %+v, %v", again, err)
	}
	if _, err := svc.Current(ctx, group); !errors.Is(err, game.ErrNoGame) {
		t.Fatalf("Current(old group) after the second migration = %v, want ErrNoGame", err)
	}
}
