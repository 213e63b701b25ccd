package bot

import (
	"log/slog"
	"time"
)

// pollRest is the long-polling loop's wait between getUpdates calls that went wrong: a
// failure, or an answer with nothing that came long before the timeout asked for. Such a run
// of calls waits firstPollBackoff, then twice as long each time up to maxPollBackoff, so a
// server that answers at once cannot make the bot call it in a tight loop; the log gets the
// first call of a run and the run's end, not a line a call.
type pollRest struct {
	wait  time.Duration // before the next call
	calls int           // calls in the current run
	since string        // what started the run, for the line at its end
}

// failed records a getUpdates call that failed with the (redacted) error text.
func (r *pollRest) failed(log *slog.Logger, text string) {
	if r.calls == 0 {
		log.Warn("getUpdates failed: calling again after a growing wait", "err", text)
		r.since = "failures"
	}
	r.more()
}

// early records a getUpdates call answered at once with nothing.
func (r *pollRest) early(log *slog.Logger) {
	if r.calls == 0 {
		log.Warn("getUpdates answered with nothing long before its timeout: calling again after a growing wait")
		r.since = "early empty answers"
	}
	r.more()
}

// answered records a call that went as it should, ending any run.
func (r *pollRest) answered(log *slog.Logger) {
	if r.calls > 0 {
		log.Info("getUpdates answers as it should again", "after", r.since, "calls", r.calls)
	}
	*r = pollRest{}
}

func (r *pollRest) more() {
	r.calls++
	r.wait = min(max(2*r.wait, firstPollBackoff), maxPollBackoff)
}
