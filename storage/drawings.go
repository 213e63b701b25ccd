package storage

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// Drawings: what each board message shows, for every process drawing into it (game.Drawings).
//
//	P dw:{MSG}     hash    g the game drawn, v its version, h the content hash, w the newest
//	                       version a busy edit asked for; TTL game.DrawingsTTL after the last call
//	P dw:{MSG}:l   string  the token of the edit on its way, TTL = its lease
var _ game.Drawings = (*Store)(nil)

// drawing and drawLease return the keys of the record and the lease of message msg; they share
// its hash tag.
func (k keys) drawing(msg string) string   { return k.p + "dw:{" + msg + "}" }
func (k keys) drawLease(msg string) string { return k.drawing(msg) + ":l" }

// beginDraw is BeginDraw in one step. KEYS: the record, the lease. ARGV: game, version, token,
// lease ms, "1" for OnlyNewer, the record's TTL ms, "1" for Rewind. Returns {verdict, hash}: 0 go (with the
// hash the message shows), 1 busy, 2 stale, 3 same (game.DrawVerdict's values).
var beginDraw = redis.NewScript(`
local ver = tonumber(ARGV[2])
local r = redis.call('HMGET', KEYS[1], 'g', 'v', 'h', 'w')
local v, h, w = 0, '', 0
if r[1] == ARGV[1] then
  v, h, w = tonumber(r[2]) or 0, r[3] or '', tonumber(r[4]) or 0
else
  redis.call('DEL', KEYS[2])
end
local verdict = 0
local holder = redis.call('GET', KEYS[2])
if ver < v and ARGV[7] ~= '1' then
  verdict = 2
elseif ver == v and ARGV[5] == '1' and h ~= '' then
  verdict = 3
elseif holder and holder ~= ARGV[3] then
  verdict = 1
  if ver > w then w = ver end
else
  v = ver
  redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
end
redis.call('HSET', KEYS[1], 'g', ARGV[1], 'v', v, 'h', h, 'w', w)
redis.call('PEXPIRE', KEYS[1], ARGV[6])
if verdict ~= 0 then h = '' end
return {verdict, h}
`)

// endDraw is EndDraw in one step. KEYS: the record, the lease. ARGV: game, token, end (0 sent,
// 1 kept, 2 failed: game.DrawEnd's values), hash, the record's TTL ms. Returns 1 when the
// message must be drawn again.
var endDraw = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'g', 'v', 'w')
if r[1] ~= ARGV[1] then return 0 end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[2] then return 0 end
if holder then
  redis.call('DEL', KEYS[2])
  if ARGV[3] == '0' then
    redis.call('HSET', KEYS[1], 'h', ARGV[4])
  elseif ARGV[3] == '2' then
    redis.call('HSET', KEYS[1], 'h', '')
  end
end
local v, w = tonumber(r[2]) or 0, tonumber(r[3]) or 0
redis.call('HSET', KEYS[1], 'w', 0)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
if w ~= 0 and w >= v then return 1 end
return 0
`)

// flag is a script's argument for b: "1" or "0".
func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// checkDrawing refuses a message name or drawing the store cannot keep.
func checkDrawing(msg string, d game.Drawing) error {
	if msg == "" || len(msg) > game.MaxDrawMsg || d.Game == "" || d.Token == "" || d.Version < 0 {
		return fmt.Errorf("storage: drawing %q of %q: %w", msg, d.Game, game.ErrInvalid)
	}
	return nil
}

// BeginDraw asks to send drawing d into message msg, as game.Drawings documents. It fails
// with ErrInvalid for an empty or overlong msg, a drawing without game or token, or a lease
// <= 0.
func (s *Store) BeginDraw(ctx context.Context, msg string, d game.Drawing, lease time.Duration) (game.DrawStart, error) {
	if err := checkDrawing(msg, d); err != nil {
		return game.DrawStart{}, err
	}
	ms, err := leaseMillis(lease)
	if err != nil {
		return game.DrawStart{}, err
	}
	res, err := beginDraw.Run(ctx, s.rdb, []string{s.k.drawing(msg), s.k.drawLease(msg)},
		d.Game, d.Version, d.Token, ms, flag(d.OnlyNewer), game.DrawingsTTL.Milliseconds(), flag(d.Rewind)).Slice()
	if err != nil {
		return game.DrawStart{}, wrap("begin draw", err)
	}
	if len(res) != 2 {
		return game.DrawStart{}, fmt.Errorf("storage: begin draw: %d results", len(res))
	}
	v, _ := res[0].(int64)
	h, _ := res[1].(string)
	return game.DrawStart{Verdict: game.DrawVerdict(v), Hash: h}, nil
}

// EndDraw ends the edit d of message msg, as game.Drawings documents.
func (s *Store) EndDraw(ctx context.Context, msg string, d game.Drawing, end game.DrawEnd, hash string) (bool, error) {
	if err := checkDrawing(msg, d); err != nil {
		return false, err
	}
	n, err := endDraw.Run(ctx, s.rdb, []string{s.k.drawing(msg), s.k.drawLease(msg)},
		d.Game, d.Token, strconv.Itoa(int(end)), hash, game.DrawingsTTL.Milliseconds()).Int()
	if err != nil {
		return false, wrap("end draw", err)
	}
	return n == 1, nil
}
