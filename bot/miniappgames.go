package bot

import (
	"context"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/metrics"
)

// MiniApp is the bot's side of the Mini App (it implements webapp.Games): the games, moves
// played exactly as tapped squares are (the same checks, the chat boards redrawn, the AI's
// reply following), the users' shared budget and their languages. Get it from Bot.MiniApp.
type MiniApp struct {
	svc     *game.Service
	players *game.Players
	allow   func(ctx context.Context, user int64) bool // the users' budget of updates
	steps   stepShower
	met     *metrics.Metrics
}

// stepShower shows the steps of games in the chats and takes the AI's replies they leave owed:
// play does, for commands and taps alike.
type stepShower interface {
	land(res *game.Snapshot, by int64) aiTurn
	owed(res *game.Snapshot) aiTurn
}

// newMiniApp returns the Mini App's side of a bot whose Service is svc and players players,
// whose budget allow spends (nil: none), showing steps through steps.
func newMiniApp(svc *game.Service, players *game.Players, allow func(context.Context, int64) bool,
	steps stepShower, met *metrics.Metrics) *MiniApp {
	return &MiniApp{svc: svc, players: players, allow: allow, steps: steps, met: met}
}

// MiniApp returns the bot's side of the Mini App.
func (b *Bot) MiniApp() *MiniApp { return b.miniApp }

// Game returns the game with the ID as game.Service.Game does.
func (m *MiniApp) Game(ctx context.Context, id string) (*game.Snapshot, error) {
	return m.svc.Game(ctx, id)
}

// Move plays sq for user in game id on the position of tag pos only, as a tapped square is
// (game.Service.MoveAt and its errors), and redraws the game's chat boards. When the AI is to
// move next its reply is searched and played after Move returns, as after a tap; a refused
// move wakes an AI that owes its move (a search cut short) too.
func (m *MiniApp) Move(ctx context.Context, id string, user int64, sq engine.Square, pos uint64) (*game.Snapshot, error) {
	res, err := m.svc.MoveAt(ctx, id, user, sq, pos)
	if err != nil {
		if cur, gerr := m.svc.Game(ctx, id); gerr == nil {
			m.steps.owed(cur).later()
		}
		return nil, err
	}
	m.met.Move("human")
	m.steps.land(res, user).later()
	return res, nil
}

// Allow takes one request from the user's budget of updates (Options.Budget, shared by the
// processes through Options.RateLimiter) and reports whether it had room. Without a budget
// every request is allowed.
func (m *MiniApp) Allow(ctx context.Context, user int64) bool {
	return m.allow == nil || m.allow(ctx, user)
}

// Lang returns the language the user chose with /lang, "" when they chose none.
func (m *MiniApp) Lang(ctx context.Context, user int64) string {
	p, err := m.players.Profile(ctx, user)
	if err != nil || p.Lang == "" {
		return ""
	}
	return normLang(p.Lang)
}
