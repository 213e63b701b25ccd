package storage

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/reversibot/reversi/game"
)

// claimInvitation binds an inline invitation (its creator and nonce) to the first message that
// uses it, and keeps at most a cap of the creator's claims (usercap.go).
//
//	KEYS[1]  the invitation's key      KEYS[2]  the creator's ledger of claims
//	ARGV[1]  the inline message id    ARGV[2] TTL (ms)
//	ARGV[3]  the nonce                ARGV[4] the cap   ARGV[5] the creator's claim key prefix
//	returns  1 when the invitation is now, or was already, bound to that message; 0 when it is
//	         bound to another
var claimInvitation = redis.NewScript(ledgerLua + `
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  for _, old in ipairs(push(KEYS[2], ARGV[3], ARGV[4], ARGV[2])) do
    redis.call('DEL', ARGV[5] .. old)
  end
  return 1
end
if v == ARGV[1] then return 1 end
return 0
`)

// invitations is the start of the keys of creator's invitations, and the key of their ledger:
// all of them carry the creator's tag, so one script claims one and trims the ledger. (Claims
// made before the ledger, under iv:{CREATOR:NONCE}, are not read: each expired within a day.)
func (k keys) invitations(creator int64) string { return k.p + "iv:{" + itoa(creator) + "}" }

// invitation is the key of an inline invitation, made by creator with nonce.
func (k keys) invitation(creator, nonce int64) string {
	return k.invitations(creator) + ":" + itoa(nonce)
}

// ClaimInvitation binds the inline invitation that creator made with nonce (the bot draws
// one for each answer to an inline query) to the inline message inlineID, for ttl: it reports
// true when the invitation was free or is bound to that message already, false when another
// message claimed it first. So an invitation's data, copied onto another message, opens
// nothing there. It keeps game.UserInvitations claims per creator: a new claim forgets the
// creator's oldest.
func (s *Store) ClaimInvitation(ctx context.Context, creator, nonce int64, inlineID string, ttl time.Duration) (bool, error) {
	if !game.ValidInlineID(inlineID) || ttl <= 0 {
		return false, invalidf("claim invitation %d/%d for %q", creator, nonce, inlineID)
	}
	n, err := claimInvitation.Run(ctx, s.rdb, []string{s.k.invitation(creator, nonce), s.k.invitations(creator)},
		inlineID, ttl.Milliseconds(), nonce, game.UserInvitations, s.k.invitations(creator)+":").Int()
	if err != nil {
		return false, wrap("claim invitation", err)
	}
	return n == 1, nil
}
