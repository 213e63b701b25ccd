package bot

import "github.com/reversibot/reversi/bot/host"

// AIPool returns the pool the bot runs its AI searches in, for tests that watch its queue.
func (b *Bot) AIPool() *host.AIPool { return b.pool }
