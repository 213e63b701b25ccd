package storage

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// PaceBudgets are the bot's outgoing budgets (how many sends and edits a chat, and the bot as
// a whole, may still make) kept in Redis, so every bot process on the same Redis and prefix
// spends the same budgets. It is what botapi.Pacer counts with across processes (it satisfies
// botapi.Budgets), and counts as botapi.Limit says: burst calls at once, then rate per per
// spread out evenly (a GCRA), and never more than max(rate, burst) calls in any per nor burst
// in any per/rate, each call counting from Take until End (or paceOpenFor). Every step is one
// Lua script on Redis's clock, so processes whose clocks differ still count alike. A hold on a
// budget (after a 429) is a key with the hold's TTL.
type PaceBudgets struct{ s *Store }

// PaceBudgets returns the outgoing budgets kept in s's Redis under s's prefix.
func (s *Store) PaceBudgets() *PaceBudgets { return &PaceBudgets{s: s} }

// paceOpenFor is how long a call counts as in flight when End never comes (its process died
// mid-call): it then counts as ended paceOpenFor after it went (botapi.PaceOpenFor).
const paceOpenFor = 5 * time.Second

// paceTakeScript spends a unit of a budget on a call, or says how long until it may.
//
//	KEYS[1] the GCRA time (µs), KEYS[2] the hold, KEYS[3] the log of calls: a sorted set of
//	        call ids scored by when each ended (µs), or, while in flight, when it went plus
//	        the open span
//	ARGV    call id, rate, per (µs), burst, open span (µs)
//	returns 0 when spent, else the wait in µs (> 0)
//
// A window of n calls in w has room when fewer than n of the logged calls score above now-w;
// else when the (c-n+1)th of the c that do has left it, and a call still in flight cannot
// leave before w from now.
var paceTakeScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local held = redis.call('PTTL', KEYS[2])
if held > 0 then return held * 1000 end
local rate, per, burst, open = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local interval = math.ceil(per / rate)
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - now - (burst - 1) * interval
local function num(x) return string.format('%.0f', x) end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', num(now - per))
local function room(n, w)
  local from = '(' .. num(now - w)
  local c = redis.call('ZCOUNT', KEYS[3], from, '+inf')
  if c < n then return 0 end
  local e = tonumber(redis.call('ZRANGEBYSCORE', KEYS[3], from, '+inf', 'WITHSCORES', 'LIMIT', c - n, 1)[2])
  if e > now then e = now end
  return e + w - now
end
wait = math.max(wait, room(math.max(rate, burst), per), room(burst, interval))
if wait > 0 then return math.max(1, math.ceil(wait)) end
redis.call('SET', KEYS[1], num(tat + interval), 'PX', math.ceil((tat + interval - now) / 1000) + 1)
redis.call('ZADD', KEYS[3], num(now + open), ARGV[1])
redis.call('PEXPIRE', KEYS[3], math.ceil((per + open) / 1000) + 1)
return 0`)

// paceEndScript ends a call of a budget.
//
//	KEYS[1] the log of calls (see paceTakeScript)
//	ARGV    call id, 1 when it was answered (it ends now) or 0 when it was never made (it goes)
var paceEndScript = redis.NewScript(`
if ARGV[2] == '1' then
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[1], 'XX', string.format('%.0f', tonumber(t[1]) * 1000000 + tonumber(t[2])), ARGV[1])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0`)

// Take spends one unit of the budget key on the call id and returns 0, or, when the budget is
// held (Hold) or has no room, spends nothing and returns how long until it may have room. The
// call counts as in flight until End, or until paceOpenFor has passed. A Redis failure wraps
// ErrUnavailable; a budget without a positive rate, per and burst allows everything.
func (p *PaceBudgets) Take(ctx context.Context, key, id string, rate int, per time.Duration, burst int) (time.Duration, error) {
	if rate <= 0 || per <= 0 || burst <= 0 {
		return 0, nil
	}
	k := p.s.k
	us, err := paceTakeScript.Run(ctx, p.s.rdb, []string{k.paceTAT(key), k.paceHold(key), k.paceLog(key)},
		id, rate, per.Microseconds(), burst, paceOpenFor.Microseconds()).Int64()
	if err != nil {
		return 0, wrap("pace", err)
	}
	return time.Duration(us) * time.Microsecond, nil
}

// End ends the call id of the budget key: answered, it counts as having ended now; not
// answered (never made), it no longer counts. An id the budget does not hold is ignored. A
// Redis failure wraps ErrUnavailable.
func (p *PaceBudgets) End(ctx context.Context, key, id string, answered bool) error {
	flag := 0
	if answered {
		flag = 1
	}
	if err := paceEndScript.Run(ctx, p.s.rdb, []string{p.s.k.paceLog(key)}, id, flag).Err(); err != nil && err != redis.Nil {
		return wrap("pace end", err)
	}
	return nil
}

// holdScript sets KEYS[1] to live ARGV[1] ms unless it already lives longer.
var holdScript = redis.NewScript(`
local ms = tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < ms then
  redis.call('SET', KEYS[1], '1', 'PX', ms)
end
return 0`)

// Hold lets Take refuse the budget key for d from now in every process (after a 429 whose
// retry_after is d); a longer hold already in place stays. d under a millisecond does nothing.
// A Redis failure wraps ErrUnavailable.
func (p *PaceBudgets) Hold(ctx context.Context, key string, d time.Duration) error {
	ms := d.Milliseconds()
	if ms <= 0 {
		return nil
	}
	if err := holdScript.Run(ctx, p.s.rdb, []string{p.s.k.paceHold(key)}, ms).Err(); err != nil && err != redis.Nil {
		return wrap("pace hold", err)
	}
	return nil
}

// pace is the prefix of the keys of an outgoing budget, P pc:{KEY}: the hash tag keeps them
// in one slot.
func (k keys) pace(key string) string { return k.p + "pc:{" + key + "}" }

// paceTAT is the key of an outgoing budget's GCRA time, P pc:{KEY}:tat (µs, TTL until full).
func (k keys) paceTAT(key string) string { return k.pace(key) + ":tat" }

// paceLog is the key of an outgoing budget's log of calls, P pc:{KEY}:log (a sorted set, TTL
// the longest window and the open span after the last call).
func (k keys) paceLog(key string) string { return k.pace(key) + ":log" }

// paceHold is the key of a hold on an outgoing budget, P pc:{KEY}:hold, TTL = the hold's.
func (k keys) paceHold(key string) string { return k.pace(key) + ":hold" }
