package storage

import (
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// finishGame is casGame for a finished game: it replaces the record if its version is still
// the expected one, keeps the game's rematch mark as long as the record (a mark never outlives
// the game it guards), and, when the game ends with this write, puts it in its people's game
// ledgers, trimming each to its cap (usercap.go); a later write keeps the ledgers that name the
// game at least as long as its record.
//
//	KEYS[1]  game key
//	KEYS[2]  the game's rematch mark (refreshed only if it is there)
//	KEYS[3…] the game ledgers of its people
//	ARGV[1]  expected version: the 4 bytes at offsets 1..4 of the stored record
//	ARGV[2]  new record     ARGV[3] TTL (ms)
//	ARGV[4]  the game's ledger member   ARGV[5] the ledgers' cap   ARGV[6] their TTL (ms)
//	ARGV[7]  gameBase
//	returns  1 replaced, 0 no such game, -1 the version differs (as casGame)
var finishGame = redis.NewScript(fmt.Sprintf(ledgerLua+dropLua+`
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
if cur == ARGV[2] then return 1 end
if string.sub(cur, 2, 5) ~= ARGV[1] then return -1 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
for i = 3, #KEYS do
  if status(cur) ~= %d then
    for _, m in ipairs(push(KEYS[i], ARGV[4], ARGV[5], ARGV[6])) do drop(ARGV[7], m) end
  elseif redis.call('ZSCORE', KEYS[i], ARGV[4]) and redis.call('PTTL', KEYS[i]) < tonumber(ARGV[3]) then
    redis.call('PEXPIRE', KEYS[i], ARGV[3])
  end
end
return 1
`, game.StatusFinished))

// casStep is the compare-and-set that stores c, the next version of a game (data its record,
// expect the version bytes it must find, ttl its TTL in ms): casGame, or finishGame for a
// finished game. The script replies as casGame does.
func (s *Store) casStep(c *game.Game, expect [4]byte, data []byte, ttl int64) (*redis.Script, []string, []any) {
	if c.Status != game.StatusFinished {
		return casGame, []string{s.k.game(c.ID)}, []any{expect[:], data, ttl}
	}
	keys := append([]string{s.k.game(c.ID), s.k.rematch(c.ID)}, s.ledgersOf(c)...)
	return finishGame, keys, []any{expect[:], data, ttl, ledgerMember(c), game.UserGames, s.ledgerTTL(),
		s.k.gameBase()}
}
