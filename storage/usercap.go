package storage

import (
	"fmt"

	"github.com/reversibot/reversi/game"
)

// Per-user caps (game.UserGames, game.UserResults, game.UserInvitations). What a user can make
// the store keep per game (a lobby, a finished game with its rematch mark, inline binding and
// review, a result mark) or per inline post (an invitation's claim) is listed, per user, in a
// ledger: a sorted set whose scores count up, so its first member is the oldest. The step that
// adds to a ledger trims it to its cap in the same script and deletes what the members it drops
// name. So one account holds a fixed number of keys, whatever its update budget allows.
//
//	P {g}u:USER     zset  the user's lobbies and finished games: "ID", or "ID INLINE" for a game
//	                      hosted in an inline message; TTL as long as the newest of them
//	P {p}rs:USER    zset  the games whose result marks {p}res:ID the user has; TTL ResultTTL
//	P iv:{USER}     zset  the nonces of the user's claimed invitations iv:{USER}:NONCE; TTL the
//	                      claims'
//
// A ledger shares the tag of what it names ({g} with the games, {p} with the result marks, the
// creator with the invitations), so each step is one script on a Redis Cluster too.

func (k keys) userGames(user int64) string   { return k.p + "{g}u:" + itoa(user) }
func (k keys) userResults(user int64) string { return k.p + "{p}rs:" + itoa(user) }

// gameBase is what every key of the {g} slot starts with: gamePrefix is gameBase + "g:".
func (k keys) gameBase() string { return k.p + "{g}" }

// ledgerLua defines push(ledger, member, keep, ttl): it adds member to the ledger as its newest
// (moving it there when it is a member already), sets the ledger's TTL (ms), and removes and
// returns the oldest members beyond keep. It makes room before it adds, so a ledger never
// holds more than keep members: at most 128 (zset-max-listpack-entries), Redis keeps it as
// a listpack, a few bytes a member.
const ledgerLua = `
local function push(ledger, member, keep, ttl)
  local out = {}
  if not redis.call('ZSCORE', ledger, member) then
    local n = redis.call('ZCARD', ledger) - tonumber(keep) + 1
    if n > 0 then
      out = redis.call('ZRANGE', ledger, 0, n - 1)
      redis.call('ZREMRANGEBYRANK', ledger, 0, n - 1)
    end
  end
  local last = redis.call('ZRANGE', ledger, -1, -1, 'WITHSCORES')
  local score = 1
  if #last == 2 then score = tonumber(last[2]) + 1 end
  redis.call('ZADD', ledger, score, member)
  redis.call('PEXPIRE', ledger, ttl)
  return out
end
`

// dropLua defines drop(base, member), which deletes what a member of a user's game ledger
// names, base being the keys' common start (gameBase): the game's record when it is a lobby or
// a finished game (a game in play stays: it only leaves the ledger), its rematch mark, its
// review and the binding of its inline message while that still names it. A record that is no
// game's is left for the operator (SetAside). It also defines status(rec): a record's status
// (codec.go: the high nibble of byte 10), or -1 when its header is not a game's.
var dropLua = fmt.Sprintf(`
local function status(rec)
  if #rec < %[1]d then return -1 end
  local f = string.byte(rec, 1)
  if f ~= %[2]d and f ~= %[3]d and f ~= %[4]d then return -1 end
  return math.floor(string.byte(rec, 11) / 16)
end
local function drop(base, member)
  local id, inline = member, nil
  local sp = string.find(member, ' ', 1, true)
  if sp then id, inline = string.sub(member, 1, sp - 1), string.sub(member, sp + 1) end
  local rec = redis.call('GET', base .. 'g:' .. id)
  if rec then
    local st = status(rec)
    if st ~= %[5]d and st ~= %[6]d then return end
    redis.call('DEL', base .. 'g:' .. id)
  end
  redis.call('DEL', base .. 'rm:' .. id, base .. 'rv:' .. id)
  if inline and redis.call('GET', base .. 'i:' .. inline) == id then
    redis.call('DEL', base .. 'i:' .. inline)
  end
end
`, gameHeaderLen, gameFormat, gameFormat2, gameFormat3, game.StatusLobby, game.StatusFinished)

// ledgerMember is g's member in its players' game ledgers.
func ledgerMember(g *game.Game) string {
	if g.InlineID != "" {
		return g.ID + " " + g.InlineID
	}
	return g.ID
}

// ledgersOf returns the game ledger keys of g's people (no user 0, no one twice).
func (s *Store) ledgersOf(g *game.Game) []string {
	var out []string
	for i, p := range g.Players {
		if p.UserID != 0 && (i == 0 || p.UserID != g.Players[0].UserID) {
			out = append(out, s.k.userGames(p.UserID))
		}
	}
	return out
}

// ledgerTTL is how long a game ledger lives after its last push: as long as a lobby or a
// finished game stored then. (finishGame keeps it as long as a finished game it names that is
// written later; a game in play needs no ledger.)
func (s *Store) ledgerTTL() int64 {
	return max(s.opt.FinishedTTL, s.opt.LobbyTTL).Milliseconds()
}

// resultLua is ledgerLua with mark(ledger, id, keep, ttl, prefix): it puts the game id in a
// user's result ledger and deletes the result marks (prefix .. id) of the games it drops.
const resultLua = ledgerLua + `
local function mark(ledger, id, keep, ttl, prefix)
  for _, old in ipairs(push(ledger, id, keep, ttl)) do redis.call('DEL', prefix .. old) end
end
`
