package bot

import (
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/metrics"
)

// core is what every handler uses: the Service and the people, the messenger (sends,
// edits, answers, the board Editor, the log), the metrics, the clock and the bot's name.
type core struct {
	svc *game.Service
	styles
	*messenger
	met      *metrics.Metrics
	now      func() time.Time
	username string // the bot's, as getMe reported it
}
