package boards

import (
	"log/slog"
	"sync/atomic"
	"time"
)

// warnGap is the least time between two lines of one warnEvery.
const warnGap = time.Minute

// warnEvery logs a warning that may come with every edit (a store that cannot be read) at
// most once a warnGap, saying how many it left out. Its zero value is ready; safe for
// concurrent use.
type warnEvery struct {
	last    atomic.Int64 // unix nanoseconds of the last line; 0: none yet
	skipped atomic.Int64 // warnings left out since
}

// log writes msg with args to l unless a line went out less than warnGap ago.
func (w *warnEvery) log(l *slog.Logger, msg string, args ...any) {
	now := time.Now().UnixNano()
	last := w.last.Load()
	if last != 0 && now-last < int64(warnGap) || !w.last.CompareAndSwap(last, now) {
		w.skipped.Add(1)
		return
	}
	if n := w.skipped.Swap(0); n > 0 {
		args = append(args, "left_out", n)
	}
	l.Warn(msg, args...)
}
