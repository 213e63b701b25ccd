package host_test

import (
	"bytes"
	"testing"

	"github.com/reversibot/reversi/bot/host"
	"github.com/reversibot/reversi/bot/host/hosttest"
	"github.com/reversibot/reversi/storage"
)

// A game that cannot be read never holds a chat: a start, an open or a join where one is in
// the way sets it aside (for the operator, with a log line) and goes ahead at once.

// wantKeptAside checks that the record of game id is kept aside as planted and that the log
// says so.
func (e *env) wantKeptAside(what, id string, planted []byte, logs *hosttest.LogBuffer) {
	e.t.Helper()
	if data, err := e.store.AsideRecord(e.ctx, id); err != nil || !bytes.Equal(data, planted) {
		e.t.Fatalf("%s: aside record of %s = %q, %v; want the planted %q", what, id, data, err, planted)
	}
	wantLogged(e.t, logs, id, e.store.AsideKey(id))
}

// startOverCorrupt is a way to start, open or join a game where a game is in play that will
// not read: setup makes that game (and returns what step needs), step goes ahead, check says
// where the new game must be.
type startOverCorrupt struct {
	name  string
	setup func(e *env) (victim *storage.Game, arg string)
	step  func(e *env, arg string) (*host.Result, error)
	check func(e *env, r *host.Result)
}

// inviteJoinOver is Bob joining Alice's invitation while the game that will not read is
// player's game against the AI, in player's chat.
func inviteJoinOver(name string, player storage.Player) startOverCorrupt {
	return startOverCorrupt{name: name,
		setup: func(e *env) (*storage.Game, string) {
			l := e.ok(e.svc.OpenLobby(e.ctx, host.Lobby{Flow: storage.FlowInvite, Creator: alice, Size: 8}))
			return e.ok(e.svc.NewAIGame(e.ctx, player, player.ChatID, 8, 1, host.ChooseBlack)).Game, l.Game.ID
		},
		step: func(e *env, id string) (*host.Result, error) { return e.svc.Join(e.ctx, id, bob) },
		check: func(e *env, r *host.Result) {
			wantBound(e.t.(*testing.T), e, alice.ChatID, r.Game.ID)
			wantBound(e.t.(*testing.T), e, bob.ChatID, r.Game.ID)
		}}
}

var startsOverCorrupt = []startOverCorrupt{
	{name: "ai",
		setup: func(e *env) (*storage.Game, string) {
			return e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, host.ChooseBlack)).Game, ""
		},
		step: func(e *env, _ string) (*host.Result, error) {
			return e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, host.ChooseBlack)
		},
		check: func(e *env, r *host.Result) { wantBound(e.t.(*testing.T), e, alice.ChatID, r.Game.ID) }},
	{name: "group lobby",
		setup: func(e *env) (*storage.Game, string) {
			return startGroupGame(e.t.(*testing.T), e, 8, host.ChooseBlack).Game, ""
		},
		step: func(e *env, _ string) (*host.Result, error) {
			return e.svc.OpenLobby(e.ctx, host.Lobby{Flow: storage.FlowGroup, Creator: carol, ChatID: group, Size: 8})
		},
		check: func(e *env, r *host.Result) { wantBound(e.t.(*testing.T), e, group, r.Game.ID) }},
	{name: "inline lobby",
		setup: func(e *env) (*storage.Game, string) {
			c := alice
			c.ChatID = 0
			l := e.ok(e.svc.OpenLobby(e.ctx, host.Lobby{Flow: storage.FlowInline, Creator: c, InlineID: "AgAAAcorrupt", Size: 8}))
			j := bob
			j.ChatID = 0
			return e.ok(e.svc.Join(e.ctx, l.Game.ID, j)).Game, ""
		},
		step: func(e *env, _ string) (*host.Result, error) {
			c := carol
			c.ChatID = 0
			return e.svc.OpenLobby(e.ctx, host.Lobby{Flow: storage.FlowInline, Creator: c, InlineID: "AgAAAcorrupt", Size: 8})
		},
		check: func(e *env, r *host.Result) {
			if r.Existing || r.Game.Status != storage.StatusLobby {
				e.t.Fatalf("OpenLobby on the message = %+v (existing %v), want a new lobby", r.Game, r.Existing)
			}
			if cur, err := e.svc.CurrentInline(e.ctx, "AgAAAcorrupt"); err != nil || cur.Game.ID != r.Game.ID {
				e.t.Fatalf("the message shows %v, %v; want the new lobby", cur, err)
			}
		}},
	inviteJoinOver("invite join, joiner's chat", bob),
	inviteJoinOver("invite join, creator's chat", alice),
	{name: "rematch",
		setup: func(e *env) (*storage.Game, string) {
			g := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, host.ChooseBlack)).Game
			fin := e.ok(e.svc.Resign(e.ctx, g.ID, alice.UserID)).Game
			return e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 6, 1, host.ChooseWhite)).Game, fin.ID
		},
		step: func(e *env, id string) (*host.Result, error) { return e.svc.Rematch(e.ctx, id, alice.UserID) },
		check: func(e *env, r *host.Result) {
			if r.Existing || r.Game.Size != 8 {
				e.t.Fatalf("Rematch = %+v (existing %v), want a new 8×8 game", r.Game, r.Existing)
			}
			wantBound(e.t.(*testing.T), e, alice.ChatID, r.Game.ID)
		}},
	{name: "find, opponent's chat",
		setup: func(e *env) (*storage.Game, string) {
			if q := e.ok(e.svc.Find(e.ctx, bob, 8)); !q.Queued {
				e.t.Fatal("Bob was not queued")
			}
			// Bob's chat gets a game while he waits (NewAIGame would take him out of the queue).
			g := &storage.Game{Size: 8, Flow: storage.FlowAI, Status: storage.StatusPlaying, AILevel: 1,
				ChatID: bob.ChatID, Lang: "en", Players: [2]storage.Player{bob}}
			if _, err := e.store.StartGame(e.ctx, g, storage.Hosting{Chats: []int64{bob.ChatID}}); err != nil {
				e.t.Fatal(err)
			}
			return g, ""
		},
		step: func(e *env, _ string) (*host.Result, error) { return e.svc.Find(e.ctx, alice, 8) },
		check: func(e *env, r *host.Result) {
			if r.Queued || host.Side(r.Game, bob.UserID) < 0 {
				e.t.Fatalf("Alice's Find = %+v, want a game with Bob", r)
			}
			wantBound(e.t.(*testing.T), e, bob.ChatID, r.Game.ID)
		}},
	{name: "find, own chat",
		setup: func(e *env) (*storage.Game, string) {
			return e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, host.ChooseBlack)).Game, ""
		},
		step: func(e *env, _ string) (*host.Result, error) { return e.svc.Find(e.ctx, alice, 8) },
		check: func(e *env, r *host.Result) {
			if !r.Queued {
				e.t.Fatalf("Alice's Find = %+v, want queued", r)
			}
		}},
}

// TestStartOverCorruptGame: for each way of starting, opening or joining, and each kind of
// corrupt record (one that does not decode, one that replays to an illegal move), the step
// works at once where the corrupt game was in play, and that record is kept aside and logged.
func TestStartOverCorruptGame(t *testing.T) {
	for _, c := range corruptions {
		for _, f := range startsOverCorrupt {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				e, logs := newLoggedEnv(t)
				victim, arg := f.setup(e)
				planted := e.corrupt(c.plant, victim)
				r, err := f.step(e, arg)
				if err != nil {
					t.Fatalf("%s over a corrupt game: %v", f.name, err)
				}
				f.check(e, r)
				e.wantKeptAside(f.name, victim.ID, planted, logs)
			})
		}
	}
}

// TestRematchThatIsCorrupt: a rematch already made whose record will not read is set aside,
// and the player who asks for it again is told so (not that it is over).
func TestRematchThatIsCorrupt(t *testing.T) {
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			e, logs := newLoggedEnv(t)
			lobby := e.ok(e.svc.OpenLobby(e.ctx, host.Lobby{Flow: storage.FlowInvite, Creator: alice, Size: 8}))
			g := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob)).Game
			fin := e.ok(e.svc.Resign(e.ctx, g.ID, bob.UserID)).Game
			re := e.ok(e.svc.Rematch(e.ctx, fin.ID, bob.UserID)).Game
			planted := e.corrupt(c.plant, re)
			_, err := e.svc.Rematch(e.ctx, fin.ID, alice.UserID)
			e.wantSetAside("Rematch of a corrupt rematch", err, re.ID, planted, logs)
			// Both chats are free: a new game starts at once.
			e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, host.ChooseBlack))
			e.ok(e.svc.NewAIGame(e.ctx, bob, bob.ChatID, 8, 1, host.ChooseBlack))
		})
	}
}
