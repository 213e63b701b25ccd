package bot

import (
	"context"
	"errors"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// Turn reminders. In a game between people whose one board both players see (a group, an
// inline message) a move only edits that board, and Telegram notifies no one of an edit, not
// even of a mention in it. So when the player to move has not moved for Options.RemindAfter,
// the bot sends a new message that mentions them ("Alice, it is your move in the game against
// Bob (d3 was played)."): into the group, or for an inline game into the player's private
// chat with the bot (the bot cannot post into the chat of an inline message). At most one
// reminder per turn; none in AI games or private-chat games (those have turn notices, see
// notice.go); none once the player has moved. Each reminder replaces the game's previous one,
// and the next move deletes it, so a group never fills with them. Reminders are paced as
// infos (botapi.PaceInfo): they never delay a board.
//
// Every step of such a game schedules its reminder in the shared store (Reminders), due
// RemindAfter later, replacing the previous turn's, and the end of the game drops it; a loop
// in every bot process claims the reminders due (each goes to one process only) and sends
// them. So several processes share the work and a restart loses no reminder.

// Reminders keeps the turn reminders due and the message last sent for each game, shared by
// every bot process (package storage's Store implements it, in Redis).
type Reminders interface {
	// ScheduleReminder makes game id's reminder due at due, replacing the one it had, and
	// returns and forgets the reminder message last sent for the game (zero: none).
	ScheduleReminder(ctx context.Context, id string, due time.Time) (game.MessageRef, error)
	// CancelReminder drops game id's reminder and returns and forgets its last message.
	CancelReminder(ctx context.Context, id string) (game.MessageRef, error)
	// ClaimReminders removes and returns at most n games whose reminder is due at now, with
	// the time each was due; each is returned to one caller only.
	ClaimReminders(ctx context.Context, now time.Time, n int) (ids []string, due []time.Time, err error)
	// SwapReminder records ref as game id's last reminder message and returns the one before.
	SwapReminder(ctx context.Context, id string, ref game.MessageRef) (game.MessageRef, error)
}

// Defaults and bounds of the reminders.
const (
	// DefaultRemindAfter is how long the player to move may take before a reminder, the
	// default of cmd/reversibot's REMIND_AFTER.
	DefaultRemindAfter = 10 * time.Minute
	// DefaultRemindPoll is how often the loop looks for reminders due and rematch offers to
	// expire: an offer's boards say it expired within this of its deadline. A look is one
	// cheap claim script per kind.
	DefaultRemindPoll = 5 * time.Second
	// remindBatch is how many reminders one claim takes; they are sent at once.
	remindBatch = 32
	// remindTimeout bounds sending one reminder (with the wait for its chat's budget) and
	// scheduling one.
	remindTimeout = 30 * time.Second
	// remindSlack is how much earlier than RemindAfter after the turn began a reminder may
	// go: the game's LastMoveAt has whole seconds.
	remindSlack = time.Second
)

// TurnReminders sends the turn reminders (see above): every step of a game between people
// in a group or an inline message schedules its reminder (turn), and its loop, from Start to
// Stop, sends those due every Options.RemindPoll (Now). Its zero value is not usable: New
// builds it.
type TurnReminders struct {
	*core
	store Reminders     // the reminders due; nil: none
	wait  time.Duration // how long a turn goes before its reminder; 0: none
	after *afterWork    // scheduling a reminder runs after the step
	loop  *loop
}

// newTurnReminders returns the reminders of store, sent after wait, looked for every poll.
func newTurnReminders(c *core, store Reminders, wait, poll time.Duration, after *afterWork) *TurnReminders {
	if poll <= 0 {
		poll = DefaultRemindPoll
	}
	r := &TurnReminders{core: c, store: store, wait: wait, after: after}
	r.loop = newLoop(after.base, poll, func(ctx context.Context) {
		if _, err := r.Now(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("turn reminders", "err", r.scrub(err))
		}
	})
	return r
}

// on reports whether r sends turn reminders.
func (r *TurnReminders) on() bool { return r != nil && r.store != nil && r.wait > 0 }

// Start starts the loop that sends the reminders due (nothing when reminders are off).
func (r *TurnReminders) Start() {
	if r.on() {
		r.loop.start()
	}
}

// Stop stops the loop (see Part.Stop).
func (r *TurnReminders) Stop(ctx context.Context) error { return r.loop.halt(ctx) }

// remindable reports whether game g is one whose player to move is reminded: a game between
// people whose board both of them see.
func remindable(g *game.Game) bool {
	return g != nil && g.AILevel == 0 && (g.Flow == game.FlowGroup || g.Flow == game.FlowInline)
}

// remindTurn schedules the reminder of the turn that the step res began (see
// TurnReminders.turn).
func (pl *play) remindTurn(res *game.Snapshot) { pl.reminders.turn(res) }

// turn schedules the reminder of the turn that the step res began (or drops the game's
// reminder when the step ended it) and deletes the reminder of the turn before, if one was
// sent. It works after the step, outside its handler.
func (r *TurnReminders) turn(res *game.Snapshot) {
	if res == nil || !r.on() || !remindable(res.Game) {
		return
	}
	g := res.Game
	if g.Status != game.StatusPlaying && g.Status != game.StatusFinished {
		return
	}
	due := r.now().Add(r.wait)
	r.after.goAfter(workReminder, remindTimeout, func(ctx context.Context) {
		var prev game.MessageRef
		var err error
		if g.Status == game.StatusPlaying {
			prev, err = r.store.ScheduleReminder(ctx, g.ID, due)
		} else {
			prev, err = r.store.CancelReminder(ctx, g.ID)
		}
		if err != nil {
			r.log.Warn("turn reminder: schedule", "game", g.ID, "err", r.scrub(err))
			return
		}
		r.delete(ctx, g.ID, prev)
	})
}

// delete deletes the reminder message ref of game id (none when ref is zero); a failure is
// logged: the message may be gone already.
func (r *TurnReminders) delete(ctx context.Context, id string, ref game.MessageRef) {
	if ref.ChatID == 0 || ref.MessageID == 0 {
		return
	}
	if _, err := r.api.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: ref.ChatID, MessageID: ref.MessageID}); err != nil {
		r.log.Info("turn reminder: delete the previous", "game", id, "err", r.scrub(err))
	}
}

// Now sends every turn reminder that is due by the Bot's clock (Options.Now) and returns how
// many it sent. The loop calls it every Options.RemindPoll; tests and tools call it to send
// the reminders due at once. It sends nothing when reminders are off.
func (r *TurnReminders) Now(ctx context.Context) (int, error) {
	if !r.on() {
		return 0, nil
	}
	return drainDue(ctx, remindBatch, func(ctx context.Context, n int) ([]string, []time.Time, error) {
		return r.store.ClaimReminders(ctx, r.now(), n)
	}, r.remind)
}

// drainDue claims what has fallen due, batch by batch (claim returns at most n ids and the
// time each was due), and handles each claimed id at once, the ids of a batch side by side,
// until a batch comes short or ctx ends. It returns how many handle reported done: the body
// of TurnReminders.Now and OfferExpiries.Now.
func drainDue(ctx context.Context, batch int, claim func(ctx context.Context, n int) ([]string, []time.Time, error),
	handle func(ctx context.Context, id string, due time.Time) bool) (int, error) {
	done := 0
	for {
		ids, due, err := claim(ctx, batch)
		if err != nil {
			return done, err
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i, id := range ids {
			if i >= len(due) {
				break
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if handle(ctx, id, due[i]) {
					mu.Lock()
					done++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(ids) < batch || ctx.Err() != nil {
			return done, ctx.Err()
		}
	}
}

// remind sends the reminder of game id, claimed as due at due, and reports whether it sent
// one. It sends none when the game is over or gone, when nobody or the AI is to move, or when
// the reminder is not the current turn's: the turn began less than RemindAfter ago, or after
// the reminder was scheduled (the player moved since; the turn that move began has a reminder
// of its own, perhaps still on its way to the store).
func (r *TurnReminders) remind(ctx context.Context, id string, due time.Time) bool {
	ctx, cancel := context.WithTimeout(ctx, remindTimeout)
	defer cancel()
	res, err := r.svc.Game(ctx, id)
	if err != nil {
		if !errors.Is(err, game.ErrNotFound) {
			r.log.Warn("turn reminder", "game", id, "err", r.scrub(err))
		}
		return false
	}
	g := res.Game
	if !remindable(g) || g.Status != game.StatusPlaying {
		return false
	}
	if turn := g.LastMoveAt.Add(r.wait); !g.LastMoveAt.IsZero() &&
		(r.now().Add(remindSlack).Before(turn) || due.Add(remindSlack).Before(turn)) {
		return false
	}
	side, p, ok := res.Turn()
	if !ok || p.UserID == 0 {
		return false
	}
	chat, lang := g.ChatID, g.Lang
	if g.Flow == game.FlowInline {
		chat, lang = p.UserID, p.Lang // a private chat with the bot, if the player has one
		if lang == "" {
			lang = g.Lang
		}
	}
	if chat == 0 {
		return false
	}
	eg, err := present.Replay(g)
	if err != nil {
		r.log.Error("turn reminder", "game", id, "err", err)
		return false
	}
	c, ok := present.Reminder(g, eg, normLang(lang))
	if !ok {
		return false
	}
	msg, err := r.api.SendMessage(botapi.WithPaceKind(ctx, botapi.PaceInfo), &tgbot.SendMessageParams{
		ChatID: chat, Text: c.Text, Entities: c.Entities})
	if err != nil {
		r.log.Info("turn reminder: send", "game", id, "user", p.UserID, "err", r.scrub(err))
		return false
	}
	r.log.Debug("turn reminder", "game", id, "user", p.UserID, "color", int(side))
	ref := game.MessageRef{ChatID: sentTo(msg, chat), MessageID: msg.ID}
	prev, err := r.store.SwapReminder(ctx, id, ref)
	if err != nil {
		r.log.Warn("turn reminder: record", "game", id, "err", r.scrub(err))
		return true
	}
	if prev != ref {
		r.delete(ctx, id, prev)
	}
	return true
}
