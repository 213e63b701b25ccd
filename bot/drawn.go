package bot

import (
	"context"
	"errors"
	"time"

	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/game"
)

// guardedDrawings is the drawn record of the board messages (Options.Drawings) reached
// through the optional guard: the record orders the edits of several processes, but a board
// edit does not wait on a store node that is lost. A call that fails, or that the guard skips
// while the record rests, is an error, and the Editor then edits as it would without a
// record (boards.Editor.begin).
type guardedDrawings struct {
	record game.Drawings
	guard  *optional.Guard
}

// BeginDraw is the record's, bounded by the guard.
func (d guardedDrawings) BeginDraw(ctx context.Context, msg string, dr game.Drawing, lease time.Duration) (start game.DrawStart, err error) {
	if !d.guard.Do(ctx, "drawn record", func(ctx context.Context) error {
		start, err = d.record.BeginDraw(ctx, msg, dr, lease)
		return err
	}) && err == nil {
		err = errRecordResting
	}
	return start, err
}

// EndDraw is the record's, bounded by the guard.
func (d guardedDrawings) EndDraw(ctx context.Context, msg string, dr game.Drawing, end game.DrawEnd, hash string) (redraw bool, err error) {
	if !d.guard.Do(ctx, "drawn record", func(ctx context.Context) error {
		redraw, err = d.record.EndDraw(ctx, msg, dr, end, hash)
		return err
	}) && err == nil {
		err = errRecordResting
	}
	return redraw, err
}

// errRecordResting: the guard skipped a call of the drawn record, which failed a moment ago.
var errRecordResting = errors.New("bot: drawn record skipped: it failed a moment ago")
