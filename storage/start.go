package storage

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// Starting, opening and joining a game are each one script: the game record and the bindings
// of every chat (and inline message) that hosts it are written together, after the script has
// checked, in the same atomic step, that those chats have no other lobby or game in play (nor
// a record that cannot be read, which the caller must set aside first: aside.go). So
// racing requests leave one game per chat, and a process that dies mid-step leaves nothing or
// a complete game that /board finds. All the keys of a script share the tag {g} (keys).

// liveLua is the scripts' test of a bound game. state(id) is 'free' when there is no record of
// id or it is a finished game, 'live' when it is a lobby or a game in play, and 'bad' when the
// record is there but cannot be a game's: shorter than the header, an unknown format, or a
// status no game has. It reads only the record's fixed header (codec.go: byte 0 the format,
// the high nibble of byte 10 the status), so a record whose body does not decode is what its
// header says. The script's ARGV[prefixArg] is the game key prefix.
const liveLua = `
local function state(id)
  local rec = redis.call('GET', ARGV[%[1]d] .. id)
  if not rec then return 'free' end
  if #rec < %[2]d then return 'bad' end
  local f = string.byte(rec, 1)
  if f ~= %[3]d and f ~= %[4]d and f ~= %[8]d then return 'bad' end
  local st = math.floor(string.byte(rec, 11) / 16)
  if st == %[5]d or st == %[6]d then return 'live' end
  if st == %[7]d then return 'free' end
  return 'bad'
end
`

func live(prefixArg int) string {
	return fmt.Sprintf(liveLua, prefixArg, gameHeaderLen, gameFormat, gameFormat2, game.StatusLobby, game.StatusPlaying,
		game.StatusFinished, gameFormat3)
}

// errUnreadable is what a script found wrong with a record it cannot read.
var errUnreadable = invalidf("the record's header is not a game's")

// startGame creates a game and binds it where it is hosted, unless a chat there is busy.
//
//	KEYS[1]          the new game's key
//	KEYS[2..n+1]     the chats' binding keys (n = ARGV[5]); each must be free
//	KEYS[n+2]        the inline message's binding key, when ARGV[6] is '1'
//	KEYS[r]          the rematch mark of ARGV[7], when ARGV[7] is not '' (r = #KEYS - l)
//	KEYS[r+1..]      the game ledgers of its people (l = ARGV[9] of them; usercap.go), when
//	                 it is stored as a lobby or finished
//	ARGV[1]          the record (with a nonce unique to the call)
//	ARGV[2]          TTL of the game and its bindings (ms)
//	ARGV[3]          the new game's ID
//	ARGV[4]          game key prefix
//	ARGV[5]          n
//	ARGV[6]          '1' when an inline binding key follows the chats'
//	ARGV[7]          the finished game this one is the rematch of, or ''
//	ARGV[8]          the longest TTL of the rematch mark (ms): it lives as long as the record
//	                 of ARGV[7] (its PTTL now, and finishGame sets it again), never longer
//	ARGV[9]          l
//	ARGV[10..13]     the game's ledger member, the ledgers' cap and TTL (ms), gameBase
//	returns  {1} created; also for a retry of a call that created it (the record is this call's)
//	         {0} the ID is taken: try another
//	         {2, i} KEYS[i] is bound to a lobby or a game in play
//	         {5, i, id} KEYS[i] is bound to game id, whose record cannot be read
//	         {3, id, record} the inline message shows game id (other than ARGV[7])
//	         {4, id, record or false} ARGV[7] has its rematch, game id, already
var startGame = redis.NewScript(live(4) + ledgerLua + dropLua + `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then return {1} end
if cur then return {0} end
local n = tonumber(ARGV[5])
local l = tonumber(ARGV[9])
local r = #KEYS - l
if ARGV[7] ~= '' then
  local id = redis.call('GET', KEYS[r])
  if id then return {4, id, redis.call('GET', ARGV[4] .. id)} end
end
for i = 2, n + 1 do
  local id = redis.call('GET', KEYS[i])
  if id then
    local st = state(id)
    if st == 'live' then return {2, i} end
    if st == 'bad' then return {5, i, id} end
  end
end
if ARGV[6] == '1' then
  local id = redis.call('GET', KEYS[n + 2])
  if id and id ~= ARGV[7] then
    local rec = redis.call('GET', ARGV[4] .. id)
    if rec then return {3, id, rec} end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
for i = 2, n + 1 do redis.call('SET', KEYS[i], ARGV[3], 'PX', ARGV[2]) end
if ARGV[6] == '1' then redis.call('SET', KEYS[n + 2], ARGV[3], 'PX', ARGV[2]) end
if ARGV[7] ~= '' then
  local left = redis.call('PTTL', ARGV[4] .. ARGV[7])
  if left == -1 or left > tonumber(ARGV[8]) then left = tonumber(ARGV[8]) end
  if left > 0 then redis.call('SET', KEYS[r], ARGV[3], 'PX', left) end
end
for i = r + 1, #KEYS do
  for _, m in ipairs(push(KEYS[i], ARGV[10], ARGV[11], ARGV[12])) do drop(ARGV[13], m) end
end
return {1}
`)

// StartGame stores g as a new game and binds it where h says, in one atomic step (one
// script, one round trip): of any number of racing starts in one chat, one succeeds and the
// others fail with a *BusyError (errors.Is ErrChatBusy), and nothing but a complete, bound
// game is ever stored. Like CreateGame it assigns g.ID, sets g.Version to 1 and g.Created and
// g.Updated to now, and gives the game and its bindings the TTL g.Status calls for. A go-redis
// retry of the call after a lost reply is recognised and reports the success it was.
//
// When h.InlineID already shows a game, or h.RematchOf has its rematch already, nothing is
// written and that game comes back as existing (err nil, g unchanged); a rematch that has
// expired since gives ErrNotFound. The mark that h.RematchOf has its rematch lives as long as
// the record of h.RematchOf, and at most FinishedTTL (none when that record is gone). A game
// stored as a lobby (or finished) enters its people's game ledgers, which may delete their
// oldest lobbies and finished games (usercap.go).
//
// A game in the way that cannot be read (a chat bound to a record that cannot be a game's, an
// inline message or a rematch whose record does not decode) makes it fail with a
// *CorruptError naming that game and write nothing: set that record aside (SetAside, which
// keeps it for the operator and frees the chat) and start again. The script reads only the
// header of a chat's game, so a record whose body does not decode counts as what its header
// says: busy when it reads as a lobby or a game in play, replaced when it reads as finished.
//
// It fails with ErrInvalid for a game EncodeGame refuses or a zero chat or invalid inline
// ID in h; g is unchanged on failure.
func (s *Store) StartGame(ctx context.Context, g *game.Game, h game.Hosting) (existing *game.Game, err error) {
	c := g.Clone()
	c.Version = 1
	now := s.now().Truncate(time.Second)
	c.Created, c.Updated = now, now
	data, err := EncodeGame(c)
	if err != nil {
		return nil, err
	}
	_, _ = rand.Read(data[5:9]) // write nonce: tells this call's retry from any other write
	ttl := s.ttlFor(c.Status).Milliseconds()

	keys := []string{""}
	for _, chat := range h.Chats {
		if chat == 0 {
			return nil, invalidf("start game in chat 0")
		}
		keys = append(keys, s.k.chat(chat))
	}
	inline := "0"
	if h.InlineID != "" {
		if !game.ValidInlineID(h.InlineID) {
			return nil, invalidf("start game in inline message %q", h.InlineID)
		}
		keys, inline = append(keys, s.k.inline(h.InlineID)), "1"
	}
	if h.RematchOf != "" {
		if !game.ValidID(h.RematchOf) {
			return nil, invalidf("rematch of %q", h.RematchOf)
		}
		keys = append(keys, s.k.rematch(h.RematchOf))
	}
	if h.RematchOf == "" {
		keys = append(keys, s.k.rematch("-")) // a placeholder in the slot, never touched
	}
	var ledgers []string
	if c.Status == game.StatusLobby || c.Status == game.StatusFinished {
		ledgers = s.ledgersOf(c)
		keys = append(keys, ledgers...)
	}

	for range 5 {
		c.ID = s.opt.NewID()
		keys[0] = s.k.game(c.ID)
		res, err := startGame.Run(ctx, s.rdb, keys, data, ttl, c.ID, s.k.gamePrefix(), len(h.Chats),
			inline, h.RematchOf, s.opt.FinishedTTL.Milliseconds(), len(ledgers),
			ledgerMember(c), game.UserGames, s.ledgerTTL(), s.k.gameBase()).Slice()
		if err != nil {
			return nil, wrap("start game", err)
		}
		switch code, _ := res[0].(int64); code {
		case 1:
			*g = *c
			return nil, nil
		case 0:
			continue // the ID is taken: draw another
		case 2:
			i, _ := res[1].(int64)
			if i < 2 || int(i) > len(h.Chats)+1 {
				return nil, fmt.Errorf("storage: start game: bad script reply %v", res)
			}
			return nil, &game.BusyError{ChatID: h.Chats[i-2]}
		case 5:
			return nil, unreadableIn(res)
		case 3, 4:
			return decodeExisting(res)
		}
		return nil, fmt.Errorf("storage: start game: bad script reply %v", res)
	}
	return nil, errors.New("storage: start game: no free id after 5 tries")
}

// decodeExisting reads the {code, id, record} reply of a script that found a game in the way.
func decodeExisting(res []any) (*game.Game, error) {
	if len(res) < 3 {
		return nil, fmt.Errorf("storage: start game: bad script reply %v", res)
	}
	id, _ := res[1].(string)
	rec, ok := res[2].(string)
	if !ok {
		return nil, fmt.Errorf("storage: start game: rematch %s: %w", id, game.ErrNotFound)
	}
	g := &game.Game{ID: id}
	if err := DecodeGame(g, []byte(rec)); err != nil {
		return nil, &game.CorruptError{GameID: id, Err: err}
	}
	return g, nil
}

// unreadableIn is the *CorruptError of a {5, i, id} reply: a chat is bound to game id, whose
// record the script found cannot be read.
func unreadableIn(res []any) error {
	id, _ := res[len(res)-1].(string)
	return &game.CorruptError{GameID: id, Err: errUnreadable}
}

// CreateGame stores g as a new game that no chat shows: it assigns g.ID (10 characters from
// [A-Za-z0-9]), sets g.Version to 1 and g.Created and g.Updated to now, and sets the TTL that
// g.Status calls for. g.ID and g.Version on input are ignored. It fails with ErrInvalid for a
// game EncodeGame refuses; g is unchanged on failure. It is StartGame with nowhere to bind.
func (s *Store) CreateGame(ctx context.Context, g *game.Game) error {
	_, err := s.StartGame(ctx, g, game.Hosting{})
	return err
}

// joinGame replaces a game record if its version is still the expected one and binds chats
// to it, unless one of them is busy with another game.
//
//	KEYS[1]          the game's key
//	KEYS[2..n+1]     binding keys to point at the game (n = ARGV[6]): each must be free or
//	                 bound to this game already
//	KEYS[n+2..]      other bindings named in the game: their TTL is reset if they still name it
//	ARGV[1]          expected version: the 4 bytes at offsets 1..4 of the stored record
//	ARGV[2]          the new record (with a nonce unique to the call)
//	ARGV[3]          TTL of the game and its bindings (ms)
//	ARGV[4]          the game's ID
//	ARGV[5]          game key prefix
//	ARGV[6]          n
//	returns  {1} done; also for a retry of a call that did it (the record is this call's)
//	         {0} no such game     {-1} the version differs
//	         {2, i} KEYS[i] is bound to another lobby or game in play
//	         {5, i, id} KEYS[i] is bound to another game, id, whose record cannot be read
var joinGame = redis.NewScript(live(5) + `
local cur = redis.call('GET', KEYS[1])
if not cur then return {0} end
if cur == ARGV[2] then return {1} end
if string.sub(cur, 2, 5) ~= ARGV[1] then return {-1} end
local n = tonumber(ARGV[6])
for i = 2, n + 1 do
  local id = redis.call('GET', KEYS[i])
  if id and id ~= ARGV[4] then
    local st = state(id)
    if st == 'live' then return {2, i} end
    if st == 'bad' then return {5, i, id} end
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
for i = 2, n + 1 do redis.call('SET', KEYS[i], ARGV[4], 'PX', ARGV[3]) end
for i = n + 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[4] then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return {1}
`)

// JoinGame stores g, a game read from the store and changed (a lobby that now has its second
// player), and binds chats to it, in one atomic step (one script, one round trip). Like
// UpdateGame it is a compare-and-set on g.Version (ErrConflict when another write came first,
// ErrNotFound for a game that is gone), sets g.Version and g.Updated on success, and resets
// the TTL of the game and of every other binding named in g that still points at it. Each of
// chats must be free or bound to g already: one bound to another lobby or game in play makes
// it fail with a *BusyError (errors.Is ErrChatBusy) and write nothing, one bound to another
// record that cannot be a game's with a *CorruptError naming it (as StartGame). A go-redis
// retry of the call after a lost reply is recognised and reports the success it was.
func (s *Store) JoinGame(ctx context.Context, g *game.Game, chats []int64) error {
	c, data, expect, err := s.nextVersion(g)
	if err != nil {
		return err
	}

	keys := []string{s.k.game(g.ID)}
	bound := map[string]bool{}
	for _, chat := range chats {
		if chat == 0 {
			return invalidf("join game in chat 0")
		}
		if k := s.k.chat(chat); !bound[k] {
			keys, bound[k] = append(keys, k), true
		}
	}
	n := len(keys) - 1
	for _, k := range s.bindingKeys(&c) {
		if !bound[k] {
			keys = append(keys, k)
		}
	}
	res, err := joinGame.Run(ctx, s.rdb, keys, expect[:], data, s.ttlFor(c.Status).Milliseconds(), g.ID,
		s.k.gamePrefix(), n).Slice()
	if err != nil {
		return wrap("join game", err)
	}
	if done, err := rehostReply(res, g, &c); done {
		return err
	}
	if len(res) > 1 {
		if i, _ := res[1].(int64); i >= 2 && int(i) <= n+1 {
			return &game.BusyError{ChatID: chatOfKey(chats, keys[i-1], s.k)}
		}
	}
	return fmt.Errorf("storage: join game: bad script reply %v", res)
}

// rehostReply reads the reply of a script that stores c, g's next version, and binds chats to
// it (joinGame, moveGame), for every code but 2 (a chat in the way, which each caller names in
// its own way): 1 stored (g takes c's version and time), 0 ErrNotFound, -1 ErrConflict, 5 a
// record in the way that cannot be read. done is false for code 2 and leaves g as it was.
func rehostReply(res []any, g, c *game.Game) (done bool, err error) {
	if len(res) == 0 {
		return true, fmt.Errorf("storage: bad script reply %v", res)
	}
	switch code, _ := res[0].(int64); code {
	case 1:
		g.Version, g.Updated = c.Version, c.Updated
		return true, nil
	case 0:
		return true, game.ErrNotFound
	case -1:
		return true, game.ErrConflict
	case 2:
		return false, nil
	case 5:
		return true, unreadableIn(res)
	}
	return true, fmt.Errorf("storage: bad script reply %v", res)
}

// chatOfKey returns the chat of chats whose binding key is key.
func chatOfKey(chats []int64, key string, k keys) int64 {
	for _, c := range chats {
		if k.chat(c) == key {
			return c
		}
	}
	return 0
}
