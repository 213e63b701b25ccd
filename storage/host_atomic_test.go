package storage_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// Starting, opening and joining a game are each one atomic store operation: a process that
// dies (or loses its connection) anywhere in the step leaves either nothing or a complete
// game that every chat hosting it shows, and the same request again is enough.

// errKilled stands for a connection that died: go-redis reports a network error.
var errKilled = &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection killed by the test")}

// faultHook logs the commands a client sends and can make the k-th of them fail, before it
// reaches Redis (the request is lost) or after Redis ran it (the reply is lost).
type faultHook struct {
	mu     sync.Mutex
	on     bool
	names  []string
	failAt int  // 1-based index of the command to fail; 0 for none
	after  bool // fail after the command ran
}

// arm starts logging (and failing the k-th command, if k > 0) from now on.
func (h *faultHook) arm(k int, after bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.on, h.names, h.failAt, h.after = true, nil, k, after
}

// disarm stops logging and failing and returns the commands logged.
func (h *faultHook) disarm() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.on = false
	return h.names
}

// next logs a command and says whether it is to fail before and after it runs.
func (h *faultHook) next(name string) (before, after bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.on || name == "hello" || name == "client" {
		// Not the step's: a new connection's handshake.
		return false, false
	}
	h.names = append(h.names, name)
	hit := len(h.names) == h.failAt
	return hit && !h.after, hit && h.after
}

func (h *faultHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *faultHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		before, after := h.next(cmd.Name())
		if before {
			return errKilled
		}
		err := next(ctx, cmd)
		if after {
			return errKilled
		}
		return err
	}
}

func (h *faultHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		before, after := h.next("pipeline")
		if before {
			for _, c := range cmds {
				c.SetErr(errKilled)
			}
			return errKilled
		}
		err := next(ctx, cmds)
		if after {
			for _, c := range cmds {
				c.SetErr(errKilled)
			}
			return errKilled
		}
		return err
	}
}

// newFaultEnv is newEnv on an embedded Redis of the test's own (so every key in it is the
// test's), with a faultHook on the store's client.
func newFaultEnv(t *testing.T) (*hostEnv, *faultHook) {
	t.Helper()
	c := gametest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	st, _ := storagetest.NewEmbedded(t, storage.Options{Now: c.Now})
	h := &faultHook{}
	st.Client().AddHook(h)
	pool := game.NewAIPool(1, 4)
	svc := game.New(game.Config{Store: st, Mover: gametest.FirstMover{}, Pool: pool, Now: c.Now,
		Rand: rand.New(rand.NewPCG(1, 2)), IdleAfter: time.Hour, AllowSmall: true})
	t.Cleanup(func() { svc.Close(); pool.Close() })
	return &hostEnv{t: t, svc: svc, store: st, clock: c, ctx: context.Background()}, h
}

// startFlow is one way a game starts, opens or is joined. Each run s of it uses users and
// chats of its own.
type startFlow struct {
	name  string
	setup func(e *hostEnv, s int) string // prepares run s; returns what step needs (a game id)
	step  func(e *hostEnv, s int, arg string) (*game.Snapshot, error)
	// want is the commands the step sends to Redis once its scripts are loaded (LeaveQueue is
	// a script of its own: a search past its deadline stays for ExpireSearches).
	want []string
	// marks is how many of the last commands of want only mark what the step did (an
	// accepted rematch offer): the step succeeds without them, since the start is done.
	marks int
}

func player(s, k int) game.Player {
	id := int64(10000*s + k)
	return game.Player{UserID: id, ChatID: id, Name: fmt.Sprint("p", id), Lang: "en"}
}

func groupOf(s int) int64 { return -int64(10000*s + 9) }

func inlineOf(s int) string { return fmt.Sprint("inl-", s) }

var startFlows = []startFlow{
	{name: "ai", want: []string{"evalsha", "evalsha"},
		step: func(e *hostEnv, s int, _ string) (*game.Snapshot, error) {
			return e.svc.NewAIGame(e.ctx, player(s, 1), player(s, 1).ChatID, 8, 1, game.ChooseWhite)
		}},
	{name: "group lobby", want: []string{"evalsha", "evalsha"},
		step: func(e *hostEnv, s int, _ string) (*game.Snapshot, error) { return openGroup(e, s) }},
	{name: "inline lobby", want: []string{"evalsha", "evalsha"},
		step: func(e *hostEnv, s int, _ string) (*game.Snapshot, error) { return openInline(e, s) }},
	{name: "invite lobby", want: []string{"evalsha", "evalsha"},
		step: func(e *hostEnv, s int, _ string) (*game.Snapshot, error) { return openInvite(e, s) }},
	{name: "group join", want: []string{"get", "evalsha", "evalsha"},
		setup: func(e *hostEnv, s int) string { return e.ok(openGroup(e, s)).Game.ID },
		step:  joinAs(2, 0)},
	{name: "inline join", want: []string{"get", "evalsha", "evalsha"},
		setup: func(e *hostEnv, s int) string { return e.ok(openInline(e, s)).Game.ID },
		step:  joinAs(2, 0)},
	{name: "invite join", want: []string{"get", "evalsha", "evalsha"},
		setup: func(e *hostEnv, s int) string { return e.ok(openInvite(e, s)).Game.ID },
		step:  joinAs(2, 1)},
	{name: "ai rematch", want: []string{"get", "evalsha"},
		setup: func(e *hostEnv, s int) string {
			r := e.ok(e.svc.NewAIGame(e.ctx, player(s, 1), player(s, 1).ChatID, 6, 1, game.ChooseBlack))
			return e.ok(e.svc.Resign(e.ctx, r.Game.ID, player(s, 1).UserID)).Game.ID
		},
		step: rematchBy(1)},
	{name: "invite rematch", want: []string{"get", "evalsha", "pipeline"}, marks: 1,
		setup: func(e *hostEnv, s int) string {
			r := e.ok(e.svc.Join(e.ctx, e.ok(openInvite(e, s)).Game.ID, player(s, 2)))
			return offered(e, s, r.Game, player(s, 2).UserID)
		},
		step: acceptBy(1)},
	{name: "inline rematch", want: []string{"get", "evalsha", "pipeline"}, marks: 1,
		setup: func(e *hostEnv, s int) string {
			p := player(s, 2)
			p.ChatID = 0
			r := e.ok(e.svc.Join(e.ctx, e.ok(openInline(e, s)).Game.ID, p))
			return offered(e, s, r.Game, p.UserID)
		},
		step: acceptBy(1)},
	{name: "find pairing", want: []string{"get", "evalsha", "evalsha"},
		setup: func(e *hostEnv, s int) string {
			if r := e.ok(e.svc.Find(e.ctx, player(s, 2), 8)); !r.Queued {
				e.t.Fatalf("the first Find was not queued")
			}
			return ""
		},
		step: func(e *hostEnv, s int, _ string) (*game.Snapshot, error) { return e.svc.Find(e.ctx, player(s, 1), 8) }},
}

func openGroup(e *hostEnv, s int) (*game.Snapshot, error) {
	return e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: player(s, 1), ChatID: groupOf(s), Size: 8})
}

func openInline(e *hostEnv, s int) (*game.Snapshot, error) {
	c := player(s, 1)
	c.ChatID = 0
	return e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInline, Creator: c, InlineID: inlineOf(s), Size: 8})
}

func openInvite(e *hostEnv, s int) (*game.Snapshot, error) {
	return e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: player(s, 1), Size: 8})
}

// joinAs joins the game as player k of the run; chat 0 joins without a private chat (a tap
// in a group or on an inline post).
func joinAs(k int, chat int) func(e *hostEnv, s int, id string) (*game.Snapshot, error) {
	return func(e *hostEnv, s int, id string) (*game.Snapshot, error) {
		p := player(s, k)
		if chat == 0 {
			p.ChatID = 0
		}
		return e.svc.Join(e.ctx, id, p)
	}
}

// offered plays a move of each player of the people game g (so that it does not end aborted),
// lets player resign, and has player offer the rematch; it returns the game's ID.
func offered(e *hostEnv, s int, g *game.Game, player int64) string {
	for range 2 {
		r := e.ok(e.svc.Game(e.ctx, g.ID))
		_, p, _ := r.Turn()
		sq := r.Pos.LegalMoves()[0]
		e.ok(e.svc.Move(e.ctx, g.ID, p.UserID, sq, game.AnyPly))
	}
	e.ok(e.svc.Resign(e.ctx, g.ID, player))
	return e.ok(e.svc.Rematch(e.ctx, g.ID, player)).Game.ID
}

// acceptBy accepts the rematch offer as player k of the run.
func acceptBy(k int) func(e *hostEnv, s int, id string) (*game.Snapshot, error) {
	return func(e *hostEnv, s int, id string) (*game.Snapshot, error) {
		return e.svc.AcceptRematch(e.ctx, id, player(s, k).UserID)
	}
}

func rematchBy(k int) func(e *hostEnv, s int, id string) (*game.Snapshot, error) {
	return func(e *hostEnv, s int, id string) (*game.Snapshot, error) {
		return e.svc.Rematch(e.ctx, id, player(s, k).UserID)
	}
}

// run sets run s of f up and runs its step with the hook armed to fail command k (0: none).
// It returns the commands the step sent, the step's error and the setup's result.
func (f startFlow) run(e *hostEnv, h *faultHook, s, k int, after bool) (cmds []string, arg string, err error) {
	if f.setup != nil {
		arg = f.setup(e, s)
	}
	h.arm(k, after)
	_, err = f.step(e, s, arg)
	return h.disarm(), arg, err
}

// TestStartIsOneStoreOperation counts the commands each way of starting, opening and joining
// a game sends: besides reads and the separate LeaveQueue, one script.
func TestStartIsOneStoreOperation(t *testing.T) {
	for _, f := range startFlows {
		t.Run(f.name, func(t *testing.T) {
			e, h := newFaultEnv(t)
			f.run(e, h, 1, 0, false) // loads the scripts
			got, _, err := f.run(e, h, 2, 0, false)
			if err != nil {
				t.Fatalf("step: %v", err)
			}
			if !slices.Equal(got, f.want) {
				t.Fatalf("the step sent %v (%d round trips), want %v", got, len(got), f.want)
			}
			t.Logf("%s: %d round trips %v", f.name, len(got), got)
		})
	}
}

// TestStartSurvivesAKill fails, for each way of starting a game, each command of the step in
// turn, before it reaches Redis and after Redis ran it: the store then holds nothing of the
// step or all of it (every lobby or game in play is shown by each chat and inline message
// that hosts it), and the same step again leaves one such game.
func TestStartSurvivesAKill(t *testing.T) {
	for _, f := range startFlows {
		t.Run(f.name, func(t *testing.T) {
			e, h := newFaultEnv(t)
			f.run(e, h, 0, 0, false) // loads the scripts
			cmds, _, err := f.run(e, h, 1, 0, false)
			if err != nil {
				t.Fatalf("step without a fault: %v", err)
			}
			s := 2
			for k := 1; k <= len(cmds)-f.marks; k++ {
				for _, after := range []bool{false, true} {
					what := fmt.Sprintf("command %d (%s) killed %s", k, cmds[k-1], map[bool]string{false: "before", true: "after"}[after])
					_, arg, err := f.run(e, h, s, k, after)
					if err == nil {
						t.Fatalf("%s: the step reported success", what)
					}
					checkHosted(t, e, what)
					// The player asks again: it works, or finds that the first try worked.
					if _, err := f.step(e, s, arg); err != nil && !errors.Is(err, game.ErrAlreadyPlaying) &&
						!errors.Is(err, game.ErrLobbyTaken) {
						t.Fatalf("%s: the same step again: %v", what, err)
					}
					checkHosted(t, e, what+", then again")
					for k := 1; k <= 2; k++ { // leave the queue empty for the next run
						if _, err := e.svc.CancelFind(e.ctx, player(s, k).UserID); err != nil {
							t.Fatal(err)
						}
					}
					s++
				}
			}
		})
	}
}

// storedGames decodes every game record in the test's Redis.
func storedGames(t *testing.T, e *hostEnv) []*game.Game {
	t.Helper()
	c := e.store.Client()
	keys, err := c.Keys(e.ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	var out []*game.Game
	for _, k := range keys {
		v, err := c.Get(e.ctx, k).Bytes()
		if err != nil {
			continue // not a string
		}
		id := strings.TrimSuffix(k, "}")
		if len(id) < 10 {
			continue
		}
		g := &game.Game{ID: id[len(id)-10:]}
		if storage.DecodeGame(g, v) == nil {
			out = append(out, g)
		}
	}
	return out
}

// checkHosted checks that every lobby and game in play in the store is shown by each chat and
// inline message that hosts it (an invitation, reached by its link, by none), and that no
// chat hosts two.
func checkHosted(t *testing.T, e *hostEnv, what string) {
	t.Helper()
	hostedBy := map[string]string{}
	for _, g := range storedGames(t, e) {
		if g.Status == game.StatusFinished {
			continue
		}
		var where []string
		if g.ChatID != 0 {
			where = append(where, fmt.Sprint("c", g.ChatID))
		}
		if g.InlineID != "" {
			where = append(where, "i"+g.InlineID)
		}
		if g.Status == game.StatusPlaying && (g.Flow == game.FlowInvite || g.Flow == game.FlowMatch) {
			for _, p := range g.Players {
				where = append(where, fmt.Sprint("c", p.ChatID))
			}
		}
		for _, w := range where {
			if other, ok := hostedBy[w]; ok {
				t.Fatalf("%s: %s hosts two games, %s and %s", what, w, other, g.ID)
			}
			hostedBy[w] = g.ID
			var cur *game.Snapshot
			var err error
			if w[0] == 'i' {
				cur, err = e.svc.CurrentInline(e.ctx, w[1:])
			} else {
				var chat int64
				fmt.Sscan(w[1:], &chat)
				cur, err = e.svc.Current(e.ctx, chat)
			}
			if err != nil || cur.Game.ID != g.ID {
				t.Fatalf("%s: %v game %s (%v) exists, but %s shows %v (%v)", what, g.Status, g.ID, g.Flow, w, cur, err)
			}
		}
	}
}
