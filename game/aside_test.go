package game_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// newLoggedEnv is newEnv with the service's log going to the returned buffer.
func newLoggedEnv(t *testing.T) (*env, *gametest.LogBuffer) {
	t.Helper()
	logs := &gametest.LogBuffer{}
	c := gametest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	st := gametest.NewMemory(gametest.MemoryOptions{Now: c.Now})
	pool := game.NewAIPool(2, 8)
	svc := game.New(game.Config{Store: st, Mover: firstMover{}, Pool: pool, Now: c.Now,
		Rand: rand.New(rand.NewPCG(1, 2)), IdleAfter: time.Hour, AllowSmall: true,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	t.Cleanup(func() { svc.Close(); pool.Close() })
	return &env{t: t, svc: svc, store: st, clock: c, ctx: context.Background()}, logs
}

// planted is a record a test put in place of a game's: data that does not decode, or (data
// nil) a game as stored whose moves do not replay.
type planted struct {
	data []byte
	g    *game.Game
}

// corruptions are the two ways a stored game cannot be played: a record that does not decode,
// and one that decodes but replays to an illegal move.
var corruptions = []struct {
	name  string
	plant func(g *game.Game) planted
}{
	{"undecodable", func(*game.Game) planted { return planted{data: []byte("\x01\x00\x00garbage")} }},
	{"illegal moves", func(g *game.Game) planted {
		c := g.Clone()
		c.Moves = []byte{0x00} // a1 from the start: flips nothing
		return planted{g: c}
	}},
}

// corrupt replaces the stored record of g by a corrupt one and returns what it planted.
func (e *env) corrupt(plant func(*game.Game) planted, g *game.Game) planted {
	e.t.Helper()
	cur, err := e.store.Game(e.ctx, g.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	p := plant(cur)
	if p.data != nil {
		e.store.PutUnreadable(g.ID, p.data)
	} else {
		e.store.PutGame(g.ID, p.g)
	}
	return p
}

// keptAside reports whether the store keeps p aside as the record of game id, and describes
// what it keeps.
func (e *env) keptAside(id string, p planted) (bool, string) {
	g, data, err := e.store.AsideRecord(id)
	switch {
	case err != nil:
		return false, err.Error()
	case p.data != nil:
		return bytes.Equal(data, p.data), fmt.Sprintf("%q", data)
	}
	return g != nil && bytes.Equal(g.Moves, p.g.Moves), fmt.Sprintf("%+v", g)
}

// wantSetAside checks that err reports game id as set aside under its aside key, that the
// store keeps the planted record there, and that the log says so at error level.
func (e *env) wantSetAside(what string, err error, id string, p planted, logs *gametest.LogBuffer) {
	e.t.Helper()
	if code := game.ErrorCode(err); code != game.CodeSetAside {
		e.t.Fatalf("%s on a corrupt game: %v (code %q), want code set_aside", what, err, code)
	}
	var sa *game.SetAsideError
	if !errors.As(err, &sa) || sa.GameID != id || sa.Key != e.store.AsideKey(id) {
		e.t.Fatalf("%s: error %#v, want a SetAsideError for %s under %s", what, err, id, e.store.AsideKey(id))
	}
	if ok, kept := e.keptAside(id, p); !ok {
		e.t.Fatalf("%s: aside record %s; want the planted %+v", what, kept, p)
	}
	wantLogged(e.t, logs, id, e.store.AsideKey(id))
}

// wantLogged checks for an error-level log line naming game id and the key it went to.
func wantLogged(t testing.TB, logs *gametest.LogBuffer, id, key string) {
	t.Helper()
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "level=ERROR") && strings.Contains(line, "game="+id) && strings.Contains(line, "key="+key) {
			return
		}
	}
	t.Fatalf("no error line names game %s and key %s:\n%s", id, key, logs.String())
}

// TestCorruptGameIsSetAside plants corrupt records where players reach them (the current game
// of a private chat or a group, an inline message's game, a game by its id from a tap) and
// checks that each step fails with code set_aside, the record is kept aside, and the chat is
// free at once for a new game.
func TestCorruptGameIsSetAside(t *testing.T) {
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			e, logs := newLoggedEnv(t)
			newAI := func() *game.Snapshot {
				return e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
			}

			g := newAI().Game
			planted := e.corrupt(c.plant, g)
			_, err := e.svc.Current(e.ctx, alice.ChatID) // /board, a typed move
			e.wantSetAside("Current", err, g.ID, planted, logs)
			g = newAI().Game

			planted = e.corrupt(c.plant, g)
			_, err = e.svc.Move(e.ctx, g.ID, alice.UserID, engine.SquareAt(3, 2), 0) // a tap on the old board
			e.wantSetAside("Move", err, g.ID, planted, logs)
			g = newAI().Game

			planted = e.corrupt(c.plant, g)
			_, err = e.svc.Resign(e.ctx, g.ID, alice.UserID)
			e.wantSetAside("Resign", err, g.ID, planted, logs)

			// A new game in a chat whose game is corrupt: the old one goes aside, the new one starts.
			g = newAI().Game
			planted = e.corrupt(c.plant, g)
			r := newAI()
			if r.Game.ID == g.ID {
				t.Fatal("NewAIGame returned the corrupt game")
			}
			if ok, kept := e.keptAside(g.ID, planted); !ok {
				t.Fatalf("NewAIGame over a corrupt game: aside record %s", kept)
			}
			wantLogged(t, logs, g.ID, e.store.AsideKey(g.ID))

			// A group's game.
			grp := startGroupGame(t, e, 8, game.ChooseBlack).Game
			planted = e.corrupt(c.plant, grp)
			_, err = e.svc.Current(e.ctx, group)
			e.wantSetAside("Current in a group", err, grp.ID, planted, logs)
			if _, err := e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: carol, ChatID: group, Size: 8}); err != nil {
				t.Fatalf("a new lobby in the group after its game was set aside: %v", err)
			}

			// An inline message's game.
			l := game.Lobby{Flow: game.FlowInline, Creator: alice, InlineID: "AgAAAOld" + c.name[:3], Size: 8}
			lobby := e.ok(e.svc.OpenLobby(e.ctx, l))
			inl := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob)).Game
			planted = e.corrupt(c.plant, inl)
			_, err = e.svc.CurrentInline(e.ctx, l.InlineID)
			e.wantSetAside("CurrentInline", err, inl.ID, planted, logs)
			if _, err := e.svc.CurrentInline(e.ctx, l.InlineID); game.ErrorCode(err) != "no_game" {
				t.Fatalf("the inline message after its game was set aside: %v, want no_game", err)
			}
		})
	}
}

// TestCorruptGameRacingSteps: steps racing on one corrupt game all report it set aside; the
// record is moved once and kept as it was.
func TestCorruptGameRacingSteps(t *testing.T) {
	e, logs := newLoggedEnv(t)
	g := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)).Game
	planted := e.corrupt(corruptions[0].plant, g)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			if i%2 == 0 {
				_, errs[i] = e.svc.Move(e.ctx, g.ID, alice.UserID, engine.SquareAt(3, 2), 0)
			} else {
				_, errs[i] = e.svc.Current(e.ctx, alice.ChatID)
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		// A step that reads after the record has gone finds no game, which is also right.
		if c := game.ErrorCode(err); c != "set_aside" && c != "no_game" {
			t.Errorf("step %d: %v, want set_aside or no_game", i, err)
		}
	}
	if n := strings.Count(logs.String(), "set aside, its chats are free"); n != 1 {
		t.Errorf("the record was moved %d times, want once:\n%s", n, logs.String())
	}
	if ok, kept := e.keptAside(g.ID, planted); !ok {
		t.Fatalf("aside record %s; want %+v", kept, planted)
	}
}
