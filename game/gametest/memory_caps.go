package gametest

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reversibot/reversi/game"
)

// The per-user caps of a Memory (game.UserGames, game.UserResults, game.UserInvitations), as
// package storage keeps them: a ledger per user lists what they made the store keep, oldest
// first, and the step that adds to it trims it to its cap and deletes what the members it drops
// name.

// ledgers are the per-user ledgers of a Memory.
type ledgers struct {
	games   map[int64][]string // lobbies and finished games: "ID" or "ID INLINE"
	results map[int64][]string // games whose result marks the user has
	claims  map[int64][]string // nonces of claimed invitations
}

// push adds member to the ledger of user in l as its newest (moving it there when it is a
// member already) and returns the oldest members beyond keep, which it removes.
func push(l map[int64][]string, user int64, member string, keep int) []string {
	list := slices.DeleteFunc(l[user], func(m string) bool { return m == member })
	list = append(list, member)
	var out []string
	if n := len(list) - keep; n > 0 {
		out = slices.Clone(list[:n])
		list = slices.Delete(list, 0, n)
	}
	l[user] = list
	return out
}

// ledgerMember is g's member in its players' game ledgers.
func ledgerMember(g *game.Game) string {
	if g.InlineID != "" {
		return g.ID + " " + g.InlineID
	}
	return g.ID
}

// people returns the user ids of g's people, no one twice.
func people(g *game.Game) []int64 {
	var out []int64
	for i, p := range g.Players {
		if p.UserID != 0 && (i == 0 || p.UserID != g.Players[0].UserID) {
			out = append(out, p.UserID)
		}
	}
	return out
}

// enter puts g, a lobby or a game that ends now, in its people's game ledgers and deletes the
// lobbies and finished games they drop. m.mu is held.
func (m *Memory) enter(g *game.Game) {
	if m.caps.games == nil {
		m.caps.games = map[int64][]string{}
	}
	for _, u := range people(g) {
		for _, old := range push(m.caps.games, u, ledgerMember(g), game.UserGames) {
			m.drop(old)
		}
	}
}

// drop deletes what a member of a game ledger names: the game's record when it is a lobby or a
// finished game (a game in play stays, and so does a record that does not decode), its rematch
// mark, its review and its inline message's binding while that names it. m.mu is held.
func (m *Memory) drop(member string) {
	id, inline, _ := strings.Cut(member, " ")
	if r := m.games[id]; r != nil {
		if r.g == nil || r.g.Status != game.StatusLobby && r.g.Status != game.StatusFinished {
			return
		}
		delete(m.games, id)
	}
	delete(m.rematch, id)
	delete(m.reviews, id)
	if inline != "" && m.inlines[inline].id == id {
		delete(m.inlines, inline)
	}
}

// markResult puts game id in the result ledgers of users and forgets the result marks of the
// games they drop. m.mu is held.
func (m *Memory) markResult(id string, users ...int64) {
	if m.caps.results == nil {
		m.caps.results = map[int64][]string{}
	}
	for _, u := range users {
		for _, old := range push(m.caps.results, u, id, game.UserResults) {
			delete(m.marks, old)
			delete(m.rated, old)
		}
	}
}

// claimKey is the key of m.invites of the invitation creator made with nonce.
func claimKey(creator, nonce int64) string {
	return strconv.FormatInt(creator, 10) + ":" + strconv.FormatInt(nonce, 10)
}

// keepClaim puts the claim of nonce in creator's ledger and forgets the claims it drops. m.mu
// is held.
func (m *Memory) keepClaim(creator, nonce int64) {
	if m.caps.claims == nil {
		m.caps.claims = map[int64][]string{}
	}
	for _, old := range push(m.caps.claims, creator, strconv.FormatInt(nonce, 10), game.UserInvitations) {
		delete(m.invites, strconv.FormatInt(creator, 10)+":"+old)
	}
}

// rematchUntil is when the rematch mark of the finished game id, made now, expires: with that
// game's record, and at most FinishedTTL from now; the zero time when the record is gone (no
// mark is kept). m.mu is held.
func (m *Memory) rematchUntil(id string, now time.Time) time.Time {
	r := m.live(id)
	if r == nil {
		return time.Time{}
	}
	return minTime(r.expires, now.Add(m.opt.FinishedTTL))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
