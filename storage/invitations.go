package storage

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/reversibot/reversi/game"
)

// claimInvitation binds an inline invitation (its creator and nonce) to the first message that
// uses it.
//
//	KEYS[1]  the invitation's key
//	ARGV[1]  the inline message id    ARGV[2] TTL (ms)
//	returns  1 when the invitation is now, or was already, bound to that message; 0 when it is
//	         bound to another
var claimInvitation = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if v == ARGV[1] then return 1 end
return 0
`)

// invitation is the key of an inline invitation, made by creator with nonce.
func (k keys) invitation(creator, nonce int64) string {
	return k.p + "iv:{" + itoa(creator) + ":" + itoa(nonce) + "}"
}

// ClaimInvitation binds the inline invitation that creator made with nonce (the bot draws
// one for each answer to an inline query) to the inline message inlineID, for ttl: it reports
// true when the invitation was free or is bound to that message already, false when another
// message claimed it first. So an invitation's data, copied onto another message, opens
// nothing there.
func (s *Store) ClaimInvitation(ctx context.Context, creator, nonce int64, inlineID string, ttl time.Duration) (bool, error) {
	if !game.ValidInlineID(inlineID) || ttl <= 0 {
		return false, invalidf("claim invitation %d/%d for %q", creator, nonce, inlineID)
	}
	n, err := claimInvitation.Run(ctx, s.rdb, []string{s.k.invitation(creator, nonce)}, inlineID, ttl.Milliseconds()).Int()
	if err != nil {
		return false, wrap("claim invitation", err)
	}
	return n == 1, nil
}
