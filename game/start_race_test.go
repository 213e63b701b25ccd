package game_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/reversibot/reversi/game"
)

// Races of the steps that start, open and join games: whatever runs at once, a chat has at
// most one lobby or game in play, and every loser is told why and changes nothing.

// race runs f(0) … f(n-1) at once (released together) and returns their results in order.
func race(n int, f func(i int) (*game.Snapshot, error)) ([]*game.Snapshot, []error) {
	res, errs := make([]*game.Snapshot, n), make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res[i], errs[i] = f(i)
		}()
	}
	close(start)
	wg.Wait()
	return res, errs
}

// winners returns the results without error, and fails the test on an error other than
// those allowed.
func winners(t *testing.T, what string, res []*game.Snapshot, errs []error, allowed ...error) []*game.Snapshot {
	t.Helper()
	var out []*game.Snapshot
next:
	for i, err := range errs {
		if err == nil {
			out = append(out, res[i])
			continue
		}
		for _, a := range allowed {
			if errors.Is(err, a) {
				continue next
			}
		}
		t.Fatalf("%s: racer %d: %v, want nil or one of %v", what, i, err, allowed)
	}
	return out
}

// wantBound checks that chat shows the game id.
func wantBound(t *testing.T, e *env, chat int64, id string) {
	t.Helper()
	cur, err := e.svc.Current(e.ctx, chat)
	if err != nil || cur.Game.ID != id {
		t.Fatalf("chat %d shows %v (%v), want game %s", chat, cur, err, id)
	}
}

// TestConcurrentAIStarts: ten (and fifty) /ai at once in one chat start exactly one game; the
// others are told the chat already has one.
func TestConcurrentAIStarts(t *testing.T) {
	for _, n := range []int{10, 50} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			e := newEnv(t)
			res, errs := race(n, func(int) (*game.Snapshot, error) {
				return e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)
			})
			won := winners(t, "NewAIGame", res, errs, game.ErrAlreadyPlaying)
			if len(won) != 1 {
				t.Fatalf("%d of %d concurrent NewAIGame started a game, want exactly 1", len(won), n)
			}
			wantBound(t, e, alice.ChatID, won[0].Game.ID)
		})
	}
}

// TestConcurrentGroupLobbies: ten members opening a game in one group at once open one lobby.
func TestConcurrentGroupLobbies(t *testing.T) {
	e := newEnv(t)
	const n = 10
	res, errs := race(n, func(i int) (*game.Snapshot, error) {
		creator := game.Player{UserID: int64(500 + i), Name: fmt.Sprint("m", i)}
		return e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: creator, ChatID: group, Size: 8})
	})
	won := winners(t, "OpenLobby", res, errs, game.ErrAlreadyPlaying)
	if len(won) != 1 {
		t.Fatalf("%d of %d concurrent group lobbies opened, want exactly 1", len(won), n)
	}
	wantBound(t, e, group, won[0].Game.ID)
}

// TestConcurrentInlineOpens: the first taps on an inline post (and its chosen_inline_result)
// racing open one lobby, which every one of them gets back.
func TestConcurrentInlineOpens(t *testing.T) {
	e := newEnv(t)
	const n = 10
	res, errs := race(n, func(int) (*game.Snapshot, error) {
		return e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInline, Creator: alice, InlineID: "AgAAAraceX", Size: 8})
	})
	won := winners(t, "OpenLobby inline", res, errs)
	ids, fresh := map[string]bool{}, 0
	for _, r := range won {
		ids[r.Game.ID] = true
		if !r.Existing {
			fresh++
		}
	}
	if len(ids) != 1 || fresh != 1 {
		t.Fatalf("%d concurrent opens of one inline message made games %v (%d new), want one", n, ids, fresh)
	}
	cur := e.ok(e.svc.CurrentInline(e.ctx, "AgAAAraceX"))
	if !ids[cur.Game.ID] {
		t.Fatalf("the message shows %s, want one of %v", cur.Game.ID, ids)
	}
}

// TestConcurrentJoinsOneLobby: ten people joining one lobby at once: one plays.
func TestConcurrentJoinsOneLobby(t *testing.T) {
	e := newEnv(t)
	lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: alice, ChatID: group, Size: 8}))
	const n = 10
	res, errs := race(n, func(i int) (*game.Snapshot, error) {
		return e.svc.Join(e.ctx, lobby.Game.ID, game.Player{UserID: int64(600 + i), Name: fmt.Sprint("j", i)})
	})
	won := winners(t, "Join", res, errs, game.ErrLobbyTaken, game.ErrConflict)
	if len(won) != 1 {
		t.Fatalf("%d of %d concurrent joins of one lobby succeeded, want exactly 1", len(won), n)
	}
	wantBound(t, e, group, lobby.Game.ID)
}

// TestJoinInvitesAtOnce: a user who opens ten invitations at once from their private chat
// plays at most one of them; the others stay open lobbies.
func TestJoinInvitesAtOnce(t *testing.T) {
	e := newEnv(t)
	const n = 10
	lobbies := make([]string, n)
	for i := range lobbies {
		creator := game.Player{UserID: int64(700 + i), ChatID: int64(700 + i), Name: fmt.Sprint("c", i)}
		lobbies[i] = e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: creator, Size: 8})).Game.ID
	}
	res, errs := race(n, func(i int) (*game.Snapshot, error) { return e.svc.Join(e.ctx, lobbies[i], bob) })
	won := winners(t, "Join", res, errs, game.ErrAlreadyPlaying)
	if len(won) != 1 {
		t.Fatalf("Bob joined %d of %d invitations at once, want exactly 1", len(won), n)
	}
	wantBound(t, e, bob.ChatID, won[0].Game.ID)
	for _, id := range lobbies {
		if id == won[0].Game.ID {
			continue
		}
		if g := e.ok(e.svc.Game(e.ctx, id)); g.Game.Status != game.StatusLobby {
			t.Fatalf("invitation %s that Bob did not get is %v, want still a lobby", id, g.Game.Status)
		}
	}
}

// TestRematchRace: a rematch and new games asked for at once in the chat of a finished game
// leave one game in play there.
func TestRematchRace(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 6, 1, game.ChooseBlack))
	r = e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID))
	const n = 10
	res, errs := race(n, func(i int) (*game.Snapshot, error) {
		if i%2 == 0 {
			return e.svc.Rematch(e.ctx, r.Game.ID, alice.UserID)
		}
		return e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)
	})
	won := winners(t, "Rematch or NewAIGame", res, errs, game.ErrAlreadyPlaying, game.ErrConflict)
	ids := map[string]bool{}
	for _, w := range won {
		ids[w.Game.ID] = true
	}
	if len(ids) != 1 {
		t.Fatalf("a rematch racing new games started %d games in one chat (%v), want 1", len(ids), ids)
	}
	for id := range ids {
		wantBound(t, e, alice.ChatID, id)
	}
}

// TestFindRacesAIStart: a waiting player who starts a game against the AI while someone else's
// /find pairs them plays one of the two games, never both.
func TestFindRacesAIStart(t *testing.T) {
	e := newEnv(t)
	for round := range 10 {
		w := game.Player{UserID: int64(800 + 2*round), ChatID: int64(800 + 2*round), Name: "W"}
		p := game.Player{UserID: int64(801 + 2*round), ChatID: int64(801 + 2*round), Name: "P"}
		if q := e.ok(e.svc.Find(e.ctx, w, 8)); !q.Queued {
			t.Fatalf("round %d: the first Find was not queued", round)
		}
		res, errs := race(2, func(i int) (*game.Snapshot, error) {
			if i == 0 {
				return e.svc.NewAIGame(e.ctx, w, w.ChatID, 8, 1, game.ChooseBlack)
			}
			return e.svc.Find(e.ctx, p, 8)
		})
		won := winners(t, "NewAIGame or Find", res, errs, game.ErrAlreadyPlaying)
		games := 0
		for _, r := range won {
			if r.Game != nil {
				games++
			}
		}
		if games != 1 {
			t.Fatalf("round %d: %d games started for the waiting player's chat (results %+v), want 1", round, games, won)
		}
		// Whoever lost is not left stranded: p is either playing w or waiting.
		if res[1] != nil && res[1].Queued {
			if ok, _ := e.svc.CancelFind(e.ctx, p.UserID); !ok {
				t.Fatalf("round %d: Find reported p queued but p is not in the queue", round)
			}
		}
	}
}
