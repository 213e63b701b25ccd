package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// alreadyPlaying is the start of the answer to a game asked for in a chat that has one.
const alreadyPlaying = "A game is already going on here"

// TestConcurrentAICommands sends many /ai into one chat at once (one user's ten in a private
// chat; fifty members' in a group): the bot starts exactly one game, posts one board, and
// answers every other /ai that the chat already has a game.
func TestConcurrentAICommands(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		group bool
	}{{"private/10", 10, false}, {"group/50", 50, true}} {
		t.Run(tc.name, func(t *testing.T) {
			barrier := &chatBarrier{n: tc.n}
			h := newHarness(t, func(o *options) { o.Store.Client().AddHook(barrier) })
			senders := make([]*telegramtest.Person, tc.n)
			var chat int64
			if tc.group {
				for i := range senders {
					senders[i] = h.srv.NewUser(fmt.Sprint("M", i), "en")
				}
				chat = h.srv.NewGroup("Race", senders...).ID()
			} else {
				u := h.user("Alice", "en")
				for i := range senders {
					senders[i] = u
				}
				chat = u.ID()
			}
			barrier.arm(chat)
			last := h.lastID(chat)
			for _, u := range senders {
				h.send(u, chat, "/ai 8 1 black")
			}
			var boards, refused []telegramtest.ChatMessage
			err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool {
				boards, refused = boards[:0], refused[:0]
				for _, m := range v.MessagesSince(chat, last) {
					switch {
					case !m.FromBot:
					case gameID(m) != "":
						boards = append(boards, m)
					case strings.Contains(m.Content(), alreadyPlaying):
						refused = append(refused, m)
					}
				}
				return len(boards)+len(refused) >= tc.n
			})
			if err != nil {
				t.Fatalf("waiting for %d answers: %v (%d boards, %d refusals)\nmessages: %s", tc.n, err,
					len(boards), len(refused), dump(h.srv.BotMessages(chat)))
			}
			if len(boards) != 1 || len(refused) != tc.n-1 {
				t.Fatalf("%d concurrent /ai in one chat: %d boards posted and %d refused, want 1 and %d",
					tc.n, len(boards), len(refused), tc.n-1)
			}
			g, err := h.store.GameByChat(context.Background(), chat)
			if err != nil || g.ID != gameID(boards[0]) {
				t.Fatalf("the chat is bound to %v (%v), want the posted game %s", g, err, gameID(boards[0]))
			}
		})
	}
}

// chatBarrier holds the replies to the first n commands that name a chat's binding key until
// all n have run, so that n handlers all pass the store step that decides whether the chat is
// free before any goes on: the interleaving that concurrent updates produce under load, every
// time.
type chatBarrier struct {
	n       int
	mu      sync.Mutex
	chat    string // the chat id in decimal; "" until armed
	arrived int
	release chan struct{}
}

// arm makes the barrier wait for commands about chat.
func (b *chatBarrier) arm(chat int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.chat, b.release = fmt.Sprint(chat), make(chan struct{})
}

// names reports whether a command argument is chat's binding key (in either key layout).
func (b *chatBarrier) names(args []any) bool {
	for _, a := range args {
		s, ok := a.(string)
		if ok && (strings.HasSuffix(s, "c:{"+b.chat+"}") || strings.HasSuffix(s, "}c:"+b.chat)) {
			return true
		}
	}
	return false
}

func (b *chatBarrier) DialHook(next redis.DialHook) redis.DialHook { return next }

func (b *chatBarrier) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		b.mu.Lock()
		hold := b.chat != "" && b.arrived < b.n && b.names(cmd.Args())
		var release chan struct{}
		if hold {
			if b.arrived++; b.arrived == b.n {
				close(b.release)
			}
			release = b.release
		}
		b.mu.Unlock()
		err := next(ctx, cmd)
		if hold {
			select {
			case <-release:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return err
	}
}

func (b *chatBarrier) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
