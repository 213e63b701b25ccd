package storage

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// casGame replaces a game record if its version is still the expected one.
//
//	KEYS[1]  game key
//	ARGV[1]  expected version: the 4 bytes at offsets 1..4 of the stored record
//	ARGV[2]  new record
//	ARGV[3]  TTL in milliseconds
//	returns  1 replaced, 0 no such game, -1 the version differs
//
// A record already equal to ARGV[2] counts as replaced: ARGV[2] carries a nonce unique to
// the UpdateGame call, so only a retry of this very call (go-redis retries a command whose
// reply was lost) finds it, and it must not turn into a conflict.
var casGame = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
if cur == ARGV[2] then return 1 end
if string.sub(cur, 2, 5) ~= ARGV[1] then return -1 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`)

// expireIfValue sets a key's TTL if the key still holds the given value: a chat or inline
// binding that still names its game, a lease its holder still holds.
//
//	KEYS[1]  the key (a binding, a lease)
//	ARGV[1]  the value it must hold (the game ID, the holder's token)
//	ARGV[2]  TTL in milliseconds
//	returns  1 set, 0 holding another value or absent
var expireIfValue = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`)

// deleteIfValue deletes a key if it still holds the given value: a chat or inline binding
// that still names its game, a lease its holder still holds.
//
//	KEYS[1]  the key (a binding, a lease)
//	ARGV[1]  the value it must hold (the game ID, the holder's token)
//	returns  1 deleted, 0 holding another value or absent
var deleteIfValue = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`)

const (
	idLen      = 10
	idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

func newID() string {
	var b [idLen]byte
	for i := range b {
		// 62 does not divide 256: reject the top values to keep letters uniform.
		for {
			var c [1]byte
			_, _ = rand.Read(c[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
			if c[0] < 248 {
				b[i] = idAlphabet[c[0]%62]
				break
			}
		}
	}
	return string(b[:])
}

// ttlFor is how long a game with status st lives after a write, by the options' lifetimes.
func (s *Store) ttlFor(st game.Status) time.Duration {
	return game.Lifetimes{Lobby: s.opt.LobbyTTL, Finished: s.opt.FinishedTTL, Idle: s.opt.IdleTTL}.Of(st)
}

// Game returns the game with the given ID, or ErrNotFound; a record that does not decode gives
// a *CorruptError (wrapping ErrInvalid).
func (s *Store) Game(ctx context.Context, id string) (*game.Game, error) {
	if !game.ValidID(id) {
		return nil, game.ErrNotFound
	}
	data, err := s.rdb.Get(ctx, s.k.game(id)).Bytes()
	if err != nil {
		return nil, wrap("get game", err)
	}
	g := &game.Game{ID: id}
	if err := DecodeGame(g, data); err != nil {
		return nil, &game.CorruptError{GameID: id, Err: err}
	}
	return g, nil
}

// StyleTimeout bounds the read of the board styles that GameAndStyles makes beside a game's on
// a Redis Cluster: far above a healthy node's answer, far below a lost node's timeouts.
const StyleTimeout = 250 * time.Millisecond

// GameAndStyles returns the game with the given ID, like Game, together with the board style
// each of users has chosen (styles[i] is what Profile(users[i]).Style gives; StyleButtons for
// a user 0), in one round trip. When the game cannot be read, err says why and g is nil; when
// only a style cannot be read, g comes back with err, and that style is StyleButtons.
//
// On a Redis Cluster the styles live on another node than the game: they are read beside the
// game, not with it, and given at most StyleTimeout, so that a node lost (or slow) that holds
// a profile but not the game costs a board its styles, not its drawing.
func (s *Store) GameAndStyles(ctx context.Context, id string, users ...int64) (g *game.Game, styles []game.Style, err error) {
	styles = make([]game.Style, len(users))
	if !game.ValidID(id) {
		return nil, styles, game.ErrNotFound
	}
	var get *redis.StringCmd
	st := make([]*redis.StringCmd, len(users))
	readStyles := func(ctx context.Context, p redis.Pipeliner) {
		for i, u := range users {
			if u != 0 {
				st[i] = p.HGet(ctx, s.k.user(u), styleField)
			}
		}
	}
	if _, cluster := s.rdb.(*redis.ClusterClient); cluster && slices.ContainsFunc(users, func(u int64) bool { return u != 0 }) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			sctx, cancel := context.WithTimeout(ctx, StyleTimeout)
			defer cancel()
			_, _ = s.rdb.Pipelined(sctx, func(p redis.Pipeliner) error { readStyles(sctx, p); return nil })
		}()
		get = s.rdb.Get(ctx, s.k.game(id))
		<-done
	} else {
		_, _ = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			get = p.Get(ctx, s.k.game(id))
			readStyles(ctx, p)
			return nil
		})
	}
	data, err := get.Bytes()
	if err != nil {
		return nil, styles, wrap("get game", err)
	}
	g = &game.Game{ID: id}
	if err := DecodeGame(g, data); err != nil {
		return nil, styles, &game.CorruptError{GameID: id, Err: err}
	}
	for i, c := range st {
		if c == nil {
			continue
		}
		switch v, serr := c.Result(); {
		case serr == nil && v == styleImageValue:
			styles[i] = game.StyleImage
		case serr != nil && !errors.Is(serr, redis.Nil) && err == nil:
			err = wrap("get style", serr)
		}
	}
	return g, styles, err
}

// UpdateGame stores g if the stored game still has version g.Version: of any number of
// racing updates of one version exactly one succeeds and the others get ErrConflict. On
// success g.Version is one more, g.Updated is now, the game's TTL is reset by its status
// (LobbyTTL, IdleTTL or FinishedTTL), and so is the TTL of every chat and inline binding
// named in g (hosting chat, players' chats, board messages) that still points at g.
// Storing a finished game also keeps its rematch mark as long as its record, and the write
// that ends a game puts it in its people's game ledgers (finish.go, usercap.go).
// A game that expired or never existed gives ErrNotFound. It costs one Redis round trip.
func (s *Store) UpdateGame(ctx context.Context, g *game.Game) error {
	c, data, expect, err := s.nextVersion(g)
	if err != nil {
		return err
	}
	ttl := s.ttlFor(c.Status)
	ms := ttl.Milliseconds()

	bindings := s.bindingKeys(&c)
	script, casKeys, casArgs := s.casStep(&c, expect, data, ms)
	var cas *redis.Cmd
	var refresh []*redis.Cmd
	run := func(withCAS bool) {
		refresh = refresh[:0]
		_, _ = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			if withCAS {
				cas = script.EvalSha(ctx, p, casKeys, casArgs...)
			}
			for _, k := range bindings {
				refresh = append(refresh, expireIfValue.EvalSha(ctx, p, []string{k}, g.ID, ms))
			}
			return nil
		})
	}
	run(true)
	if noScript(cas) {
		// First use on this server (or after a restart or SCRIPT FLUSH): the CAS did not run.
		if err := s.loadScripts(ctx, script, expireIfValue); err != nil {
			return err
		}
		run(true)
	} else if noScript(refresh...) && cas.Err() == nil {
		// The CAS ran; only the refreshes must be repeated, never the CAS.
		if s.loadScripts(ctx, expireIfValue) == nil {
			run(false)
		}
	}
	// A failed binding refresh only shortens a binding's life; the CAS result decides.
	if err := cas.Err(); err != nil {
		return wrap("update game", err)
	}
	switch n, _ := cas.Int(); n {
	case 1:
		g.Version, g.Updated = c.Version, c.Updated
		return nil
	case 0:
		return game.ErrNotFound
	default:
		return game.ErrConflict
	}
}

// nextVersion is the record of g's next version, as a compare-and-set on g.Version writes it
// (UpdateGame, JoinGame): c is g one version on, updated now; data its encoding with a fresh
// write nonce, so that only a retry of this very call finds it stored; expect the stored
// version bytes the write must find. A game id that cannot be one gives ErrNotFound, a version
// out of range ErrConflict.
func (s *Store) nextVersion(g *game.Game) (c game.Game, data []byte, expect [4]byte, err error) {
	if !game.ValidID(g.ID) {
		return c, nil, expect, game.ErrNotFound
	}
	if g.Version < 1 || g.Version >= maxVersion {
		return c, nil, expect, game.ErrConflict
	}
	c = *g
	c.Version++
	c.Updated = s.now().Truncate(time.Second)
	if data, err = EncodeGame(&c); err != nil {
		return c, nil, expect, err
	}
	_, _ = rand.Read(data[5:9]) // write nonce
	binary.BigEndian.PutUint32(expect[:], uint32(g.Version))
	return c, data, expect, nil
}

// bindingKeys lists, without repeats, the chat and inline binding keys of the boards via, then
// those g names (none when g is nil).
func (s *Store) bindingKeys(g *game.Game, via ...game.MessageRef) []string {
	var out []string
	add := func(k string) {
		for _, o := range out {
			if o == k {
				return
			}
		}
		out = append(out, k)
	}
	chat := func(id int64) {
		if id != 0 {
			add(s.k.chat(id))
		}
	}
	inline := func(id string) {
		if game.ValidInlineID(id) {
			add(s.k.inline(id))
		}
	}
	for _, b := range via {
		chat(b.ChatID)
		inline(b.InlineID)
	}
	if g == nil {
		return out
	}
	g.Places(chat, inline)
	return out
}

func noScript(cmds ...*redis.Cmd) bool {
	for _, c := range cmds {
		if redis.HasErrorPrefix(c.Err(), "NOSCRIPT") {
			return true
		}
	}
	return false
}

func (s *Store) loadScripts(ctx context.Context, scripts ...*redis.Script) error {
	for _, sc := range scripts {
		if err := sc.Load(ctx, s.rdb).Err(); err != nil {
			return wrap("load script", err)
		}
	}
	return nil
}

// GameByChat returns the game bound to chatID, or ErrNotFound if there is none or it has
// expired (a binding to an expired game is removed).
func (s *Store) GameByChat(ctx context.Context, chatID int64) (*game.Game, error) {
	if chatID == 0 {
		return nil, game.ErrNotFound
	}
	return s.gameByBinding(ctx, s.k.chat(chatID))
}

// UnbindChat removes chatID's binding if it still points at gameID, and reports success
// (nil) whether or not it did.
func (s *Store) UnbindChat(ctx context.Context, chatID int64, gameID string) error {
	return wrap("unbind chat", deleteIfValue.Run(ctx, s.rdb, []string{s.k.chat(chatID)}, gameID).Err())
}

// GameByInline returns the game of the inline message inlineID, or ErrNotFound.
func (s *Store) GameByInline(ctx context.Context, inlineID string) (*game.Game, error) {
	if !game.ValidInlineID(inlineID) {
		return nil, game.ErrNotFound
	}
	return s.gameByBinding(ctx, s.k.inline(inlineID))
}

// UnbindInline removes the binding of inlineID if it still points at gameID.
func (s *Store) UnbindInline(ctx context.Context, inlineID string, gameID string) error {
	if !game.ValidInlineID(inlineID) {
		return nil
	}
	return wrap("unbind inline", deleteIfValue.Run(ctx, s.rdb, []string{s.k.inline(inlineID)}, gameID).Err())
}

func (s *Store) gameByBinding(ctx context.Context, key string) (*game.Game, error) {
	id, err := s.rdb.Get(ctx, key).Result()
	if err != nil {
		return nil, wrap("get binding", err)
	}
	g, err := s.Game(ctx, id)
	if errors.Is(err, game.ErrNotFound) {
		// The game expired before its binding: drop the binding (best effort).
		_ = deleteIfValue.Run(ctx, s.rdb, []string{key}, id).Err()
	}
	return g, err
}
