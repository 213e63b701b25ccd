package host_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/host"
	"github.com/reversibot/reversi/bot/host/hosttest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// newLoggedEnv is newEnv with the service's log going to the returned buffer.
func newLoggedEnv(t *testing.T) (*env, *hosttest.LogBuffer) {
	t.Helper()
	logs := &hosttest.LogBuffer{}
	c := hosttest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	st := storagetest.New(t, storage.Options{Now: c.Now})
	pool := host.NewAIPool(2, 8)
	svc := host.New(host.Config{Store: st, Mover: firstMover{}, Pool: pool, Now: c.Now,
		Rand: rand.New(rand.NewPCG(1, 2)), IdleAfter: time.Hour, AllowSmall: true,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	t.Cleanup(func() { svc.Close(); pool.Close() })
	return &env{t: t, svc: svc, store: st, clock: c, ctx: context.Background()}, logs
}

// corruptions are the two ways a stored game cannot be played: a record that does not decode,
// and one that decodes but replays to an illegal move.
var corruptions = []struct {
	name  string
	plant func(t *testing.T, g *storage.Game) []byte
}{
	{"undecodable", func(*testing.T, *storage.Game) []byte { return []byte("\x01\x00\x00garbage") }},
	{"illegal moves", func(t *testing.T, g *storage.Game) []byte {
		c := g.Clone()
		c.Moves = []byte{0x00} // a1 from the start: flips nothing
		data, err := storage.EncodeGame(c)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}},
}

// corrupt replaces the stored record of g by a corrupt one and returns the bytes planted.
func (e *env) corrupt(plant func(*testing.T, *storage.Game) []byte, g *storage.Game) []byte {
	e.t.Helper()
	t := e.t.(*testing.T)
	cur, err := e.store.Game(e.ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	data := plant(t, cur)
	if err := e.store.PutGameRecord(e.ctx, g.ID, data); err != nil {
		t.Fatal(err)
	}
	return data
}

// wantSetAside checks that err reports game id as set aside under its aside key, that the
// store keeps the planted record there, and that the log says so at error level.
func (e *env) wantSetAside(what string, err error, id string, planted []byte, logs *hosttest.LogBuffer) {
	e.t.Helper()
	if code := host.Code(err); code != "set_aside" {
		e.t.Fatalf("%s on a corrupt game: %v (code %q), want code set_aside", what, err, code)
	}
	var sa *host.SetAsideError
	if !errors.As(err, &sa) || sa.GameID != id || sa.Key != e.store.AsideKey(id) {
		e.t.Fatalf("%s: error %#v, want a SetAsideError for %s under %s", what, err, id, e.store.AsideKey(id))
	}
	if data, err := e.store.AsideRecord(e.ctx, id); err != nil || !bytes.Equal(data, planted) {
		e.t.Fatalf("%s: aside record %q, %v; want the planted %q", what, data, err, planted)
	}
	wantLogged(e.t, logs, id, e.store.AsideKey(id))
}

// wantLogged checks for an error-level log line naming game id and the key it went to.
func wantLogged(t testing.TB, logs *hosttest.LogBuffer, id, key string) {
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
			newAI := func() *host.Result {
				return e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, host.ChooseBlack))
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
			if data, err := e.store.AsideRecord(e.ctx, g.ID); err != nil || !bytes.Equal(data, planted) {
				t.Fatalf("NewAIGame over a corrupt game: aside record %q, %v", data, err)
			}
			wantLogged(t, logs, g.ID, e.store.AsideKey(g.ID))

			// A group's game.
			grp := startGroupGame(t, e, 8, host.ChooseBlack).Game
			planted = e.corrupt(c.plant, grp)
			_, err = e.svc.Current(e.ctx, group)
			e.wantSetAside("Current in a group", err, grp.ID, planted, logs)
			if _, err := e.svc.OpenLobby(e.ctx, host.Lobby{Flow: storage.FlowGroup, Creator: carol, ChatID: group, Size: 8}); err != nil {
				t.Fatalf("a new lobby in the group after its game was set aside: %v", err)
			}

			// An inline message's game.
			l := host.Lobby{Flow: storage.FlowInline, Creator: alice, InlineID: "AgAAAOld" + c.name[:3], Size: 8}
			lobby := e.ok(e.svc.OpenLobby(e.ctx, l))
			inl := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob)).Game
			planted = e.corrupt(c.plant, inl)
			_, err = e.svc.CurrentInline(e.ctx, l.InlineID)
			e.wantSetAside("CurrentInline", err, inl.ID, planted, logs)
			if _, err := e.svc.CurrentInline(e.ctx, l.InlineID); host.Code(err) != "no_game" {
				t.Fatalf("the inline message after its game was set aside: %v, want no_game", err)
			}
		})
	}
}

// TestCorruptGameRacingSteps: steps racing on one corrupt game all report it set aside; the
// record is moved once and kept as it was.
func TestCorruptGameRacingSteps(t *testing.T) {
	e, logs := newLoggedEnv(t)
	g := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, host.ChooseBlack)).Game
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
		if c := host.Code(err); c != "set_aside" && c != "no_game" {
			t.Errorf("step %d: %v, want set_aside or no_game", i, err)
		}
	}
	if n := strings.Count(logs.String(), "set aside, its chats are free"); n != 1 {
		t.Errorf("the record was moved %d times, want once:\n%s", n, logs.String())
	}
	if data, err := e.store.AsideRecord(e.ctx, g.ID); err != nil || !bytes.Equal(data, planted) {
		t.Fatalf("aside record %q, %v; want %q", data, err, planted)
	}
}
