package bot

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/game"
)

// An inline post's Join button is an invitation: it names its creator, the board size, a
// nonce drawn for the answer to the inline query, and when the bot made it. Its data is signed
// (callback.Signer), because the lobby may have to be opened from that data alone (inline
// feedback off, or the tap beats chosen_inline_result), and who opened a game must never be
// taken from data a client could make up. An invitation opens a lobby on one inline message
// only (storage ClaimInvitation), and only for invitationTTL.

// invitationTTL is how long after the bot made it an invitation can open a lobby.
const invitationTTL = 24 * time.Hour

// invitationSkew is how far in the future an invitation may seem to be made (another bot
// process's clock).
const invitationSkew = 5 * time.Minute

// macLabel is what the bot token signs to make the callback key.
const macLabel = "reversibot callback MAC v1"

// callbackKey is the key of the MAC of signed callbacks: HMAC-SHA256 keyed by the bot token
// over a fixed label. Every process of the bot derives the same key, nobody without the token
// can, and the token cannot be recovered from it. Never log it.
func callbackKey(token string) []byte {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte(macLabel))
	return m.Sum(nil)
}

// signer signs and verifies the bot's signed callbacks.
func (im *inlineMode) signer() callback.Signer {
	return im.sign
}

// invitation is the content of an inline post's Join button.
type invitation struct {
	creator int64
	size    int
	color   game.Choice // the colour the creator plays (ChooseRandom: drawn when one joins)
	nonce   int64       // 1…callback.MaxNumber, drawn for one answer to an inline query
	made    time.Time   // when the bot answered the inline query, to the second
}

// invitationEpoch is where the seconds of invitation.made count from: 31 bits last until 2093.
var invitationEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// newNonce draws an invitation nonce.
func newNonce() int64 { return rand.Int64N(callback.MaxNumber) + 1 }

// colorArg is how an invitation's Arg carries its colour: size + colorArg*(1 black, 2 white);
// an Arg below colorArg (as the bot wrote before colours) is a size with random colours.
const colorArg = 100

// callback is the signed Join button data of inv: Game holds the creator tag, Ply the nonce,
// Page the second it was made, Arg the size and the colour (colorArg).
func (inv invitation) callback(s callback.Signer) string {
	secs := max(inv.made.Sub(invitationEpoch)/time.Second, 0)
	arg := inv.size
	switch inv.color {
	case game.ChooseBlack:
		arg += colorArg
	case game.ChooseWhite:
		arg += 2 * colorArg
	}
	return s.Sign(callback.Data{Action: callback.ActionJoin, Game: creatorTag(inv.creator),
		Ply: int(inv.nonce), Page: int(min(secs, callback.MaxNumber)), Arg: arg}).Encode()
}

// readInvitation returns the invitation of a Join callback when the bot's signature holds.
func readInvitation(s callback.Signer, c callback.Data) (invitation, bool) {
	creator, ok := parseCreatorTag(c.Game)
	if c.Action != callback.ActionJoin || !ok || c.Ply == 0 || !s.Verify(c) {
		return invitation{}, false
	}
	inv := invitation{creator: creator, size: c.Arg % colorArg, color: game.ChooseRandom, nonce: int64(c.Ply),
		made: invitationEpoch.Add(time.Duration(c.Page) * time.Second)}
	switch c.Arg / colorArg {
	case 0:
	case 1:
		inv.color = game.ChooseBlack
	case 2:
		inv.color = game.ChooseWhite
	default:
		return invitation{}, false
	}
	return inv, true
}

// fresh reports whether inv may still open a lobby at now.
func (inv invitation) fresh(now time.Time) bool {
	return !now.Before(inv.made.Add(-invitationSkew)) && now.Before(inv.made.Add(invitationTTL))
}

// inlineResultID names the result of a size (and the colour its poster plays: a "b" or "w"
// after the size, nothing for random) in an answer whose invitations carry nonce.
func inlineResultID(size int, color game.Choice, nonce int64) string {
	c := ""
	switch color {
	case game.ChooseBlack:
		c = "b"
	case game.ChooseWhite:
		c = "w"
	}
	return "g" + strconv.Itoa(size) + c + "." + strconv.FormatInt(nonce, 36)
}

// parseInlineResultID reads inlineResultID; nonce is 0 for an ID without one ("g8", as the
// bot wrote before invitations had nonces), and the colour random without its letter.
func parseInlineResultID(id string) (size int, color game.Choice, nonce int64, ok bool) {
	rest, found := strings.CutPrefix(id, "g")
	if !found {
		return 0, 0, 0, false
	}
	sz, n, hasNonce := strings.Cut(rest, ".")
	color = game.ChooseRandom
	switch {
	case strings.HasSuffix(sz, "b"):
		sz, color = sz[:len(sz)-1], game.ChooseBlack
	case strings.HasSuffix(sz, "w"):
		sz, color = sz[:len(sz)-1], game.ChooseWhite
	}
	size, err := strconv.Atoi(sz)
	if err != nil {
		return 0, 0, 0, false
	}
	if hasNonce {
		if nonce, err = strconv.ParseInt(n, 36, 64); err != nil || nonce <= 0 {
			return 0, 0, 0, false
		}
	}
	return size, color, nonce, true
}

// claimInvitation binds inv to the inline message inlineID: false when another message used
// it first.
func (im *inlineMode) claimInvitation(ctx context.Context, inv invitation, inlineID string) (bool, error) {
	return im.svc.ClaimInvitation(ctx, inv.creator, inv.nonce, inlineID, invitationTTL+invitationSkew)
}
