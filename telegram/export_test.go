package telegram

import "github.com/reversibot/reversi/game"

// AIPool returns the pool the bot runs its AI searches in, for tests that watch its queue.
func (b *Bot) AIPool() *game.AIPool { return b.pool }
