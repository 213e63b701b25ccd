package storage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

const (
	groupTopCap = 500 // members kept in a group's leaderboard (the best by rating)
	maxTop      = 100 // longest leaderboard Top returns
	maxLang     = game.MaxLang
)

// recordPeople records a finished game between two people, once per game ID.
//
//	KEYS[1]  result mark of the game       KEYS[2]  black's profile hash
//	KEYS[3]  white's profile hash          KEYS[4]  global leaderboard zset
//	KEYS[5]  the group's leaderboard zset (only touched when ARGV[7] == "1")
//	ARGV[1]  mark TTL (ms)    ARGV[2] black user id   ARGV[3] white user id
//	ARGV[4]  black's score in half points: 2 win, 1 draw, 0 loss
//	ARGV[5]  black's name     ARGV[6] white's name ("" keeps the stored name)
//	ARGV[7]  "1" to update the group leaderboard      ARGV[8] its TTL (ms)
//	ARGV[9]  group leaderboard cap                    ARGV[10] K   ARGV[11] initial rating
//	KEYS[6], KEYS[7], ARGV[12…15]  the players' result ledgers, as resultLua's mark (usercap.go)
//	returns  {black's rating before, after, white's before, after}; when the game was
//	         recorded before, the mark: "rb nb rw nw" as that first recording returned them,
//	         or "1" (an unrated game, or one recorded before marks kept ratings); or -1 if
//	         either profile does not exist (the game is marked recorded, unrated)
//
// Elo: E = 1/(1+10^((Ro-R)/400)), R' = floor(R + K(S-E) + 0.5).
var recordPeople = redis.NewScript(resultLua + `
local prev = redis.call('GET', KEYS[1])
if prev then return prev end
mark(KEYS[6], ARGV[12], ARGV[13], ARGV[14], ARGV[15])
mark(KEYS[7], ARGV[12], ARGV[13], ARGV[14], ARGV[15])
if redis.call('EXISTS', KEYS[2]) == 0 or redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
  return -1
end
local rb = tonumber(redis.call('HGET', KEYS[2], 'r') or ARGV[11])
local rw = tonumber(redis.call('HGET', KEYS[3], 'r') or ARGV[11])
local k = tonumber(ARGV[10])
local sb = tonumber(ARGV[4]) / 2
local eb = 1 / (1 + 10 ^ ((rw - rb) / 400))
local ew = 1 / (1 + 10 ^ ((rb - rw) / 400))
local nb = math.floor(rb + k * (sb - eb) + 0.5)
local nw = math.floor(rw + k * ((1 - sb) - ew) + 0.5)
local field = {[2] = {'w', 'l'}, [1] = {'d', 'd'}, [0] = {'l', 'w'}}
local f = field[tonumber(ARGV[4])]
redis.call('HINCRBY', KEYS[2], f[1], 1)
redis.call('HINCRBY', KEYS[3], f[2], 1)
redis.call('HSET', KEYS[2], 'r', nb)
redis.call('HSET', KEYS[3], 'r', nw)
if ARGV[5] ~= '' then redis.call('HSET', KEYS[2], 'n', ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[3], 'n', ARGV[6]) end
redis.call('ZADD', KEYS[4], nb, ARGV[2], nw, ARGV[3])
if ARGV[7] == '1' then
  redis.call('ZADD', KEYS[5], nb, ARGV[2], nw, ARGV[3])
  redis.call('ZREMRANGEBYRANK', KEYS[5], 0, -tonumber(ARGV[9]) - 1)
  redis.call('PEXPIRE', KEYS[5], ARGV[8])
end
redis.call('SET', KEYS[1], rb .. ' ' .. nb .. ' ' .. rw .. ' ' .. nw, 'PX', ARGV[1])
return {rb, nb, rw, nw}
`)

// recordAI records a finished game of a person against the AI, once per game ID.
//
//	KEYS[1]  result mark of the game      KEYS[2]  the person's profile hash
//	ARGV[1]  mark TTL (ms)   ARGV[2] field to increment (a<level>w|l|d)   ARGV[3] name or ""
//	KEYS[3], ARGV[4…7]  the person's result ledger, as resultLua's mark (usercap.go)
//	returns  1 recorded, 0 recorded before, -1 no such profile (marked recorded, nothing counted)
var recordAI = redis.NewScript(resultLua + `
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
mark(KEYS[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], 'n', ARGV[3]) end
return 1
`)

// topScript reads a leaderboard with the current profile of each member.
//
//	KEYS[1]  leaderboard zset
//	ARGV[1]  how many members, best first     ARGV[2] profile key prefix (same hash tag)
//	returns  flat list: id, name, rating, wins, losses, draws for each member
var topScript = redis.NewScript(`
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local out = {}
for _, id in ipairs(ids) do
  local v = redis.call('HMGET', ARGV[2] .. id, 'n', 'r', 'w', 'l', 'd')
  table.insert(out, id)
  for i = 1, 5 do table.insert(out, v[i] or '') end
end
return out
`)

// Profile returns what the store knows of userID. A user never seen gets a profile with
// rating InitialRating and no results, not an error.
func (s *Store) Profile(ctx context.Context, userID int64) (*game.Profile, error) {
	m, err := s.rdb.HGetAll(ctx, s.k.user(userID)).Result()
	if err != nil {
		return nil, wrap("get profile", err)
	}
	p := &game.Profile{UserID: userID, Name: m["n"], Lang: m["lg"]}
	p.Stats.Rating = game.InitialRating
	num := func(f string) int { n, _ := strconv.Atoi(m[f]); return n }
	for f := range m {
		switch f {
		case "n", "lg":
		case styleField:
			if m[f] == styleImageValue {
				p.Style = game.StyleImage
			}
		case "w":
			p.Stats.Wins = num(f)
		case "l":
			p.Stats.Losses = num(f)
		case "d":
			p.Stats.Draws = num(f)
		case "r":
			p.Stats.Rating = num(f)
		default:
			// a<level><w|l|d>
			if len(f) < 3 || f[0] != 'a' {
				continue
			}
			level, err := strconv.Atoi(f[1 : len(f)-1])
			if err != nil {
				continue
			}
			if p.Stats.VsAI == nil {
				p.Stats.VsAI = make(map[int]game.AIRecord)
			}
			r := p.Stats.VsAI[level]
			switch f[len(f)-1] {
			case 'w':
				r.Wins = num(f)
			case 'l':
				r.Losses = num(f)
			case 'd':
				r.Draws = num(f)
			}
			p.Stats.VsAI[level] = r
		}
	}
	return p, nil
}

// Known reports whether the user has talked to the bot: whether the store has a profile of
// them, which only TouchUser, SetLang and SetStyle create (the bot calls them for the user
// behind an update of their own) — never RecordResult.
func (s *Store) Known(ctx context.Context, userID int64) (bool, error) {
	n, err := s.rdb.Exists(ctx, s.k.user(userID)).Result()
	if err != nil {
		return false, wrap("known user", err)
	}
	return n == 1, nil
}

// TouchUser stores the user's current display name (leaderboards show it). An empty name
// changes nothing.
func (s *Store) TouchUser(ctx context.Context, userID int64, name string) error {
	if name == "" {
		return nil
	}
	if len(name) > maxString {
		return invalidf("name of %d bytes", len(name))
	}
	return wrap("touch user", s.rdb.HSet(ctx, s.k.user(userID), "n", name).Err())
}

// SetLang stores the user's language (at most 16 bytes; "" forgets the choice).
func (s *Store) SetLang(ctx context.Context, userID int64, lang string) error {
	if len(lang) > maxLang {
		return invalidf("language %q", lang)
	}
	if lang == "" {
		return wrap("set lang", s.rdb.HDel(ctx, s.k.user(userID), "lg").Err())
	}
	return wrap("set lang", s.rdb.HSet(ctx, s.k.user(userID), "lg", lang).Err())
}

// The profile hash keeps a board style in field styleField: styleImageValue for StyleImage,
// nothing for StyleButtons.
const (
	styleField      = "st"
	styleImageValue = "i"
)

// SetStyle stores how the user wants 8×8 boards drawn; StyleButtons (the default) forgets
// the choice. An unknown style gives ErrInvalid.
func (s *Store) SetStyle(ctx context.Context, userID int64, style game.Style) error {
	switch style {
	case game.StyleButtons:
		return wrap("set style", s.rdb.HDel(ctx, s.k.user(userID), styleField).Err())
	case game.StyleImage:
		return wrap("set style", s.rdb.HSet(ctx, s.k.user(userID), styleField, styleImageValue).Err())
	}
	return invalidf("board style %v", style)
}

// ChatLang returns the language chosen for a chat, or "" if none was.
func (s *Store) ChatLang(ctx context.Context, chatID int64) (string, error) {
	lang, err := s.rdb.Get(ctx, s.k.chatLang(chatID)).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return lang, wrap("chat lang", err)
}

// SetChatLang stores the language of a chat (at most 16 bytes; "" forgets the choice).
func (s *Store) SetChatLang(ctx context.Context, chatID int64, lang string) error {
	if len(lang) > maxLang {
		return invalidf("language %q", lang)
	}
	if lang == "" {
		return wrap("set chat lang", s.rdb.Del(ctx, s.k.chatLang(chatID)).Err())
	}
	return wrap("set chat lang", s.rdb.Set(ctx, s.k.chatLang(chatID), lang, 0).Err())
}

// RecordResult adds the result of the finished game g to its players' records, at most
// once per game ID: calling it again (a retry, a second bot process) changes nothing.
//
// A game between two different people counts a win, loss or draw for each, moves both
// Elo ratings (K = 32, start 1200) and updates the global leaderboard and, for a group
// game (FlowGroup), the leaderboard of g.ChatID. A game against the AI (AILevel > 0, one
// player with UserID 0) counts in the person's record against that level only. A game
// with OutcomeNone records nothing. A game whose Status is not StatusFinished gives
// ErrInvalid.
//
// A result never creates a profile: a game in which a player has none (a user id that never
// talked to the bot, see Known — a made-up id in forged data, say) is unrated. Nothing is
// counted for either player, no rating moves and no leaderboard changes (a real player must
// not gain rating from a made-up opponent either), and the game stays unrated when it is
// recorded again later.
//
// For a rated game between people it returns the ratings before and after, also when it is
// recorded again (the result mark keeps them); otherwise the zero RatingChange.
func (s *Store) RecordResult(ctx context.Context, g *game.Game) (game.RatingChange, error) {
	var none game.RatingChange
	if g.Status != game.StatusFinished {
		return none, invalidf("record result of a game in status %v", g.Status)
	}
	if g.Outcome == game.OutcomeNone || !game.ValidID(g.ID) {
		return none, nil
	}
	if !game.ValidOutcome(g.Outcome) {
		return none, invalidf("outcome %v", g.Outcome)
	}
	b, w := g.Players[0], g.Players[1]
	mark := s.k.result(g.ID)
	markTTL := s.opt.ResultTTL.Milliseconds()
	if g.AILevel > 0 && (b.UserID == 0) != (w.UserID == 0) {
		human, humanIsBlack := b, true
		if b.UserID == 0 {
			human, humanIsBlack = w, false
		}
		res := "d"
		if g.Outcome != game.OutcomeDraw {
			if (g.Outcome == game.OutcomeBlack) == humanIsBlack {
				res = "w"
			} else {
				res = "l"
			}
		}
		field := "a" + strconv.Itoa(g.AILevel) + res
		err := recordAI.Run(ctx, s.rdb, []string{mark, s.k.user(human.UserID), s.k.userResults(human.UserID)},
			markTTL, field, human.Name, g.ID, game.UserResults, markTTL, s.k.resultPrefix()).Err()
		return none, wrap("record result", err)
	}
	if b.UserID == 0 || w.UserID == 0 || b.UserID == w.UserID {
		return none, nil // not a rated game between two people
	}
	score := map[game.Outcome]int{game.OutcomeBlack: 2, game.OutcomeDraw: 1, game.OutcomeWhite: 0}[g.Outcome]
	group, groupKey := "0", s.k.top(-1) // placeholder key in the same slot, never touched
	if g.Flow == game.FlowGroup && g.ChatID != 0 {
		group, groupKey = "1", s.k.top(g.ChatID)
	}
	res, err := recordPeople.Run(ctx, s.rdb,
		[]string{mark, s.k.user(b.UserID), s.k.user(w.UserID), s.k.top(0), groupKey,
			s.k.userResults(b.UserID), s.k.userResults(w.UserID)},
		markTTL, b.UserID, w.UserID, score, b.Name, w.Name,
		group, s.opt.GroupTopTTL.Milliseconds(), groupTopCap, game.EloK, game.InitialRating,
		g.ID, game.UserResults, markTTL, s.k.resultPrefix()).Result()
	if err != nil {
		return none, wrap("record result", err)
	}
	return ratingChange(res), nil
}

// ratingChange reads what recordPeople returned: four ratings (black's before and after,
// white's before and after) as a list or, from a game recorded before, as the mark's text; a
// reply of any other form (-1, "1", an old mark) is an unrated game.
func ratingChange(res any) game.RatingChange {
	var nums []int64
	switch v := res.(type) {
	case []any:
		for _, x := range v {
			n, ok := x.(int64)
			if !ok {
				return game.RatingChange{}
			}
			nums = append(nums, n)
		}
	case string:
		for _, f := range strings.Fields(v) {
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return game.RatingChange{}
			}
			nums = append(nums, n)
		}
	}
	if len(nums) != 4 {
		return game.RatingChange{}
	}
	return game.RatingChange{Rated: true, Before: [2]int{int(nums[0]), int(nums[2])},
		After: [2]int{int(nums[1]), int(nums[3])}}
}

// Top returns up to n (at most 100) people with the best ratings: of everyone when chatID
// is 0, else of those who played a rated game in that group chat. Entries are ordered by
// rating, then wins, then user ID; only people who finished a rated game appear.
func (s *Store) Top(ctx context.Context, chatID int64, n int) ([]game.RankEntry, error) {
	if n <= 0 {
		return nil, nil
	}
	n = min(n, maxTop)
	read := n
	if chatID != 0 {
		// Group scores are ratings as of each member's last game there: read them all and
		// order by current rating.
		read = groupTopCap
	}
	vals, err := topScript.Run(ctx, s.rdb, []string{s.k.top(chatID)}, read, s.k.userPrefix()).StringSlice()
	if err != nil {
		return nil, wrap("top", err)
	}
	out := make([]game.RankEntry, 0, len(vals)/6)
	for i := 0; i+6 <= len(vals); i += 6 {
		v := vals[i : i+6]
		id, err := strconv.ParseInt(v[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("storage: top: member %q", v[0])
		}
		e := game.RankEntry{UserID: id, Name: v[1], Rating: game.InitialRating}
		if v[2] != "" {
			e.Rating, _ = strconv.Atoi(v[2])
		}
		e.Wins, _ = strconv.Atoi(v[3])
		e.Losses, _ = strconv.Atoi(v[4])
		e.Draws, _ = strconv.Atoi(v[5])
		out = append(out, e)
	}
	game.SortRanking(out)
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}
