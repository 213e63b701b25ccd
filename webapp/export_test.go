package webapp

import (
	"slices"
	"time"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
)

// SetTimers replaces the pollers' tickers and the watches' hold timers, for a test that fires
// them itself. Call it before the first watch.
func (s *Server) SetTimers(ticker, timer func(d time.Duration) (<-chan time.Time, func())) {
	if ticker != nil {
		s.timers.ticker = ticker
	}
	if timer != nil {
		s.timers.timer = timer
	}
}

// Watching returns how many watches of game id are open, and how many pollers run.
func (s *Server) Watching(id string) (watches, pollers int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.watched[id]; e != nil {
		watches = e.n
	}
	return watches, len(s.watched)
}

// OpenWatches returns how many watches are open in all.
func (s *Server) OpenWatches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// ErrorStatus is the HTTP status of a code of package game.
func ErrorStatus(code string) int { return httpStatus(game.Code(code)) }

// ErrorText is the text of an error code in lang.
func ErrorText(lang, code string) string { return errorText(lang, code) }

// PageKeys returns the keys of the texts the page shows (pageKeys).
func PageKeys() []i18n.Key { return slices.Clone(pageKeys) }
