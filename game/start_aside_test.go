package game_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// A game that cannot be read never holds a chat: a start, an open or a join where one is in
// the way sets it aside (for the operator, with a log line) and goes ahead at once.

// wantKeptAside checks that the record of game id is kept aside as planted and that the log
// says so.
func (e *env) wantKeptAside(what, id string, p planted, logs *gametest.LogBuffer) {
	e.t.Helper()
	if ok, kept := e.keptAside(id, p); !ok {
		e.t.Fatalf("%s: aside record of %s = %s; want the planted %+v", what, id, kept, p)
	}
	wantLogged(e.t, logs, id, e.store.AsideKey(id))
}

// startOverCorrupt is a way to start, open or join a game where a game is in play that will
// not read: setup makes that game (and returns what step needs), step goes ahead, check says
// where the new game must be.
type startOverCorrupt struct {
	name  string
	setup func(e *env) (victim *game.Game, arg string)
	step  func(e *env, arg string) (*game.Snapshot, error)
	check func(e *env, r *game.Snapshot)
}

// inviteJoinOver is Bob joining Alice's invitation while the game that will not read is
// player's game against the AI, in player's chat.
func inviteJoinOver(name string, player game.Player) startOverCorrupt {
	return startOverCorrupt{name: name,
		setup: func(e *env) (*game.Game, string) {
			l := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 8}))
			return e.ok(e.svc.NewAIGame(e.ctx, player, player.ChatID, 8, 1, game.ChooseBlack)).Game, l.Game.ID
		},
		step: func(e *env, id string) (*game.Snapshot, error) { return e.svc.Join(e.ctx, id, bob) },
		check: func(e *env, r *game.Snapshot) {
			wantBound(e.t.(*testing.T), e, alice.ChatID, r.Game.ID)
			wantBound(e.t.(*testing.T), e, bob.ChatID, r.Game.ID)
		}}
}

var startsOverCorrupt = []startOverCorrupt{
	{name: "ai",
		setup: func(e *env) (*game.Game, string) {
			return e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)).Game, ""
		},
		step: func(e *env, _ string) (*game.Snapshot, error) {
			return e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)
		},
		check: func(e *env, r *game.Snapshot) { wantBound(e.t.(*testing.T), e, alice.ChatID, r.Game.ID) }},
	{name: "group lobby",
		setup: func(e *env) (*game.Game, string) {
			return startGroupGame(e.t.(*testing.T), e, 8, game.ChooseBlack).Game, ""
		},
		step: func(e *env, _ string) (*game.Snapshot, error) {
			return e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: carol, ChatID: group, Size: 8})
		},
		check: func(e *env, r *game.Snapshot) { wantBound(e.t.(*testing.T), e, group, r.Game.ID) }},
	{name: "inline lobby",
		setup: func(e *env) (*game.Game, string) {
			c := alice
			c.ChatID = 0
			l := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInline, Creator: c, InlineID: "AgAAAcorrupt", Size: 8}))
			j := bob
			j.ChatID = 0
			return e.ok(e.svc.Join(e.ctx, l.Game.ID, j)).Game, ""
		},
		step: func(e *env, _ string) (*game.Snapshot, error) {
			c := carol
			c.ChatID = 0
			return e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInline, Creator: c, InlineID: "AgAAAcorrupt", Size: 8})
		},
		check: func(e *env, r *game.Snapshot) {
			if r.Existing || r.Game.Status != game.StatusLobby {
				e.t.Fatalf("OpenLobby on the message = %+v (existing %v), want a new lobby", r.Game, r.Existing)
			}
			if cur, err := e.svc.CurrentInline(e.ctx, "AgAAAcorrupt"); err != nil || cur.Game.ID != r.Game.ID {
				e.t.Fatalf("the message shows %v, %v; want the new lobby", cur, err)
			}
		}},
	inviteJoinOver("invite join, joiner's chat", bob),
	inviteJoinOver("invite join, creator's chat", alice),
	{name: "rematch",
		setup: func(e *env) (*game.Game, string) {
			g := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)).Game
			fin := e.ok(e.svc.Resign(e.ctx, g.ID, alice.UserID)).Game
			return e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 6, 1, game.ChooseWhite)).Game, fin.ID
		},
		step: func(e *env, id string) (*game.Snapshot, error) { return e.svc.Rematch(e.ctx, id, alice.UserID) },
		check: func(e *env, r *game.Snapshot) {
			if r.Existing || r.Game.Size != 8 {
				e.t.Fatalf("Rematch = %+v (existing %v), want a new 8×8 game", r.Game, r.Existing)
			}
			wantBound(e.t.(*testing.T), e, alice.ChatID, r.Game.ID)
		}},
	{name: "find, opponent's chat",
		setup: func(e *env) (*game.Game, string) {
			if q := e.ok(e.svc.Find(e.ctx, bob, 8)); !q.Queued {
				e.t.Fatal("Bob was not queued")
			}
			// Bob's chat gets a game while he waits (NewAIGame would take him out of the queue).
			g := &game.Game{Size: 8, Flow: game.FlowAI, Status: game.StatusPlaying, AILevel: 1,
				ChatID: bob.ChatID, Lang: "en", Players: [2]game.Player{bob}}
			if _, err := e.store.StartGame(e.ctx, g, game.Hosting{Chats: []int64{bob.ChatID}}); err != nil {
				e.t.Fatal(err)
			}
			return g, ""
		},
		step: func(e *env, _ string) (*game.Snapshot, error) { return e.svc.Find(e.ctx, alice, 8) },
		check: func(e *env, r *game.Snapshot) {
			if r.Queued || game.Side(r.Game, bob.UserID) < 0 {
				e.t.Fatalf("Alice's Find = %+v, want a game with Bob", r)
			}
			wantBound(e.t.(*testing.T), e, bob.ChatID, r.Game.ID)
		}},
	{name: "find, own chat",
		setup: func(e *env) (*game.Game, string) {
			return e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)).Game, ""
		},
		step: func(e *env, _ string) (*game.Snapshot, error) { return e.svc.Find(e.ctx, alice, 8) },
		check: func(e *env, r *game.Snapshot) {
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
			lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 8}))
			g := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob)).Game
			fin := e.ok(e.svc.Resign(e.ctx, g.ID, bob.UserID)).Game
			re := e.ok(e.svc.Rematch(e.ctx, fin.ID, bob.UserID)).Game
			planted := e.corrupt(c.plant, re)
			_, err := e.svc.Rematch(e.ctx, fin.ID, alice.UserID)
			e.wantSetAside("Rematch of a corrupt rematch", err, re.ID, planted, logs)
			// Both chats are free: a new game starts at once.
			e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
			e.ok(e.svc.NewAIGame(e.ctx, bob, bob.ChatID, 8, 1, game.ChooseBlack))
		})
	}
}
