package storage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// Turn reminders. A game between people whose board both players see (a group, an inline
// message) reminds the player to move, by a new message that mentions them, once they have
// not moved for a while. The reminders due are kept here, so that every bot process on the
// Redis shares them and a restart loses none; each reminder is claimed by exactly one
// process (ClaimReminders), and the message last sent for a game is kept so that the next
// one, or the next move, replaces it.
//
//	Z {rd}due      sorted set  game ids by the Unix milliseconds their reminder is due
//	S {rd}m:GAME   string      "CHAT MSG": the reminder message last sent for the game;
//	                           TTL ReminderTTL
//
// Both keys share a hash tag, so each step is one atomic script even on a Redis Cluster.

// ReminderTTL is how long the store keeps the reminder message last sent for a game: longer
// than a game waits for a move (game.DefaultIdleTTL), after which there is nothing to replace.
const ReminderTTL = game.DefaultIdleTTL

func (k keys) remindersDue() string         { return k.p + "{rd}due" }
func (k keys) reminderMsg(id string) string { return k.p + "{rd}m:" + id }

// scheduleReminder sets the game's due time (ARGV[2], ms; a negative one drops the game) and
// returns the reminder message it had, which it forgets: KEYS[1] the due set, KEYS[2] the
// message; ARGV[1] the game id.
var scheduleReminder = redis.NewScript(`
if tonumber(ARGV[2]) < 0 then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
local prev = redis.call('GET', KEYS[2])
if prev then redis.call('DEL', KEYS[2]) end
return prev
`)

// claimDueScript removes at most ARGV[2] ids of the due set KEYS[1] due at ARGV[1] (ms)
// or before, the earliest first, and returns them with their due times: id, ms, id, ms, ….
var claimDueScript = redis.NewScript(`
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local ids = {}
for i = 1, #due, 2 do ids[#ids + 1] = due[i] end
if #ids > 0 then redis.call('ZREM', KEYS[1], unpack(ids)) end
return due
`)

// ScheduleReminder makes the turn reminder of game id due at due, replacing the one it had
// (a game has at most one reminder to come: its current turn's), and returns the reminder
// message last sent for the game, which it forgets (the zero MessageRef when there is none):
// the caller deletes it, since the turn it reminded of is over. ErrInvalid for an empty id.
func (s *Store) ScheduleReminder(ctx context.Context, id string, due time.Time) (game.MessageRef, error) {
	return s.reschedule(ctx, "schedule reminder", id, max(due.UnixMilli(), 0))
}

// CancelReminder drops the turn reminder of game id, if any (the game is over), and returns
// and forgets the reminder message last sent for it, as ScheduleReminder does.
func (s *Store) CancelReminder(ctx context.Context, id string) (game.MessageRef, error) {
	return s.reschedule(ctx, "cancel reminder", id, -1)
}

// reschedule runs scheduleReminder for id with the due time ms (-1: none).
func (s *Store) reschedule(ctx context.Context, op, id string, ms int64) (game.MessageRef, error) {
	if id == "" {
		return game.MessageRef{}, fmt.Errorf("storage: %s without a game: %w", op, game.ErrInvalid)
	}
	prev, err := scheduleReminder.Run(ctx, s.rdb, []string{s.k.remindersDue(), s.k.reminderMsg(id)}, id, ms).Text()
	if errors.Is(err, redis.Nil) {
		return game.MessageRef{}, nil
	}
	if err != nil {
		return game.MessageRef{}, wrap(op, err)
	}
	return parseReminderMsg(prev), nil
}

// ClaimReminders removes from the store and returns the ids of at most n games whose
// reminder is due at now or before, the earliest first, with the time each was due (which
// tells a reminder scheduled for an earlier turn from the current turn's). Each reminder is
// returned to one caller only, whichever process calls: the caller sends it or it is lost.
func (s *Store) ClaimReminders(ctx context.Context, now time.Time, n int) (ids []string, due []time.Time, err error) {
	return s.claimDue(ctx, "claim reminders", s.k.remindersDue(), now, n)
}

// claimDue removes from the due set key (a sorted set of ids by the Unix milliseconds they
// are due) and returns at most n ids due at now or before, the earliest first, with their due
// times; one atomic script, so each id goes to one caller only. op names the step in errors.
func (s *Store) claimDue(ctx context.Context, op, key string, now time.Time, n int) (ids []string, due []time.Time, err error) {
	if n <= 0 {
		return nil, nil, nil
	}
	flat, err := claimDueScript.Run(ctx, s.rdb, []string{key}, now.UnixMilli(), n).StringSlice()
	if errors.Is(err, redis.Nil) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, wrap(op, err)
	}
	for i := 0; i+1 < len(flat); i += 2 {
		ms, err := strconv.ParseFloat(flat[i+1], 64)
		if err != nil {
			return nil, nil, fmt.Errorf("storage: %s: due time %q of %s: %w", op, flat[i+1], flat[i], err)
		}
		ids, due = append(ids, flat[i]), append(due, time.UnixMilli(int64(ms)))
	}
	return ids, due, nil
}

// SwapReminder records ref (a chat message) as the reminder message last sent for game id
// and returns the one before it (the zero MessageRef when none), which the caller deletes.
func (s *Store) SwapReminder(ctx context.Context, id string, ref game.MessageRef) (game.MessageRef, error) {
	if id == "" || ref.ChatID == 0 || ref.MessageID == 0 {
		return game.MessageRef{}, fmt.Errorf("storage: swap reminder %q %+v: %w", id, ref, game.ErrInvalid)
	}
	v := strconv.FormatInt(ref.ChatID, 10) + " " + strconv.Itoa(ref.MessageID)
	prev, err := s.rdb.SetArgs(ctx, s.k.reminderMsg(id), v, redis.SetArgs{Get: true, TTL: ReminderTTL}).Result()
	if errors.Is(err, redis.Nil) {
		return game.MessageRef{}, nil
	}
	if err != nil {
		return game.MessageRef{}, wrap("swap reminder", err)
	}
	return parseReminderMsg(prev), nil
}

// parseReminderMsg reads a reminder message as stored ("CHAT MSG"); anything else is none.
func parseReminderMsg(v string) game.MessageRef {
	c, m, ok := strings.Cut(v, " ")
	chat, err1 := strconv.ParseInt(c, 10, 64)
	msg, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || chat == 0 || msg == 0 {
		return game.MessageRef{}
	}
	return game.MessageRef{ChatID: chat, MessageID: msg}
}
