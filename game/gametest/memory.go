package gametest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/reversibot/reversi/game"
)

// MemoryOptions tune a Memory. The zero value is ready to use.
type MemoryOptions struct {
	// Now is the clock of timestamps, queue deadlines, leases and every expiry; nil means
	// time.Now. A test that moves it (Clock.Now) makes records expire when it says.
	Now func() time.Time

	FinishedTTL time.Duration // finished games; default 24h
	IdleTTL     time.Duration // games in play without an update, and chat bindings; default 7 days
	LobbyTTL    time.Duration // games waiting for a second player; default 1h
	QueueTTL    time.Duration // matchmaking queue entries; default 10 min
	ResultTTL   time.Duration // the marks that make RecordResult idempotent; default 48h
}

// Memory is a game.Store (games, matchmaking, players) and also game.Leases, game.Invitations,
// game.Reviews, game.GameMover and game.ChatMover, keeping everything in memory, with
// the semantics of package storage's Redis store: every method is one atomic step (under one
// lock), UpdateGame and JoinGame are a compare-and-set on Game.Version, StartGame and JoinGame
// keep one lobby or game in play per chat, games, bindings, queue entries and leases expire
// by the injected clock, and what one user makes it keep is capped as there (game.UserGames,
// memory_caps.go). It is safe for concurrent use; the zero value is not: use NewMemory.
//
// Beyond the stores' methods it can plant records that cannot be read (PutGame, PutUnreadable)
// and show what SetAside kept (AsideRecord), for tests of how the hosting service copes.
type Memory struct {
	opt MemoryOptions

	mu       sync.Mutex
	games    map[string]*record
	aside    map[string]*record
	chats    map[int64]binding
	inlines  map[string]binding
	rematch  map[string]binding // finished game ID -> its rematch
	queue    map[int64]waiting
	leases   map[string]lease
	profiles map[int64]*game.Profile
	marks    map[string]time.Time         // RecordResult done for a game ID, until
	rated    map[string]game.RatingChange // what RecordResult did to the ratings, by game ID
	tops     map[int64]map[int64]bool
	chatLang map[int64]string
	// notices holds the newest turn notice of each user.
	notices  map[int64]game.TurnNotice
	invites  map[string]binding // invitation (creator:nonce) -> inline message it opened
	reviews  map[string]kept    // game ID -> its review
	lastGame map[int64]binding  // chat -> the game that finished last there
	caps     ledgers            // what each user made it keep (memory_caps.go)
	movedTo  map[int64]binding  // group chat -> the supergroup it became (migrate.go), as its id
}

// kept is a value kept until it expires.
type kept struct {
	data    []byte
	expires time.Time
}

// record is a stored game: a game as stored, or (g nil) data that does not decode.
type record struct {
	g       *game.Game
	data    []byte
	expires time.Time
}

type binding struct {
	id      string
	expires time.Time
}

type waiting struct {
	size     int
	w        game.Waiter
	deadline time.Time
}

type lease struct {
	token   string
	expires time.Time
}

var (
	_ game.Store       = (*Memory)(nil)
	_ game.Leases      = (*Memory)(nil)
	_ game.Invitations = (*Memory)(nil)
	_ game.Reviews     = (*Memory)(nil)
)

// NewMemory returns an empty Memory.
func NewMemory(opt MemoryOptions) *Memory {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&opt.FinishedTTL, game.DefaultFinishedTTL)
	def(&opt.IdleTTL, game.DefaultIdleTTL)
	def(&opt.LobbyTTL, game.DefaultLobbyTTL)
	def(&opt.QueueTTL, game.DefaultQueueTTL)
	def(&opt.ResultTTL, game.DefaultResultTTL)
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Memory{opt: opt, games: map[string]*record{}, aside: map[string]*record{},
		chats: map[int64]binding{}, inlines: map[string]binding{}, rematch: map[string]binding{},
		queue: map[int64]waiting{}, leases: map[string]lease{}, profiles: map[int64]*game.Profile{},
		marks: map[string]time.Time{}, rated: map[string]game.RatingChange{}, tops: map[int64]map[int64]bool{},
		chatLang: map[int64]string{}, notices: map[int64]game.TurnNotice{}, invites: map[string]binding{}, reviews: map[string]kept{}, lastGame: map[int64]binding{},
		movedTo: map[int64]binding{}}
}

// errUnreadable is what is wrong with a record PutUnreadable planted.
var errUnreadable = fmt.Errorf("%w: the record does not decode", game.ErrInvalid)

func (m *Memory) now() time.Time { return m.opt.Now() }

// ttlFor is how long a game with status st lives after a write, by the options' lifetimes.
func (m *Memory) ttlFor(st game.Status) time.Duration {
	return game.Lifetimes{Lobby: m.opt.LobbyTTL, Finished: m.opt.FinishedTTL, Idle: m.opt.IdleTTL}.Of(st)
}

// live returns the record of id unless it is missing or expired. m.mu is held.
func (m *Memory) live(id string) *record {
	r := m.games[id]
	if r == nil {
		return nil
	}
	if !m.now().Before(r.expires) {
		delete(m.games, id)
		return nil
	}
	return r
}

// state is what a chat bound to id holds: "free" (no record, or a finished game), "live" (a
// lobby or a game in play) or "bad" (a record that does not decode). m.mu is held.
func (m *Memory) state(id string) string {
	r := m.live(id)
	switch {
	case r == nil:
		return "free"
	case r.g == nil:
		return "bad"
	case r.g.Status == game.StatusFinished:
		return "free"
	}
	return "live"
}

// read returns a copy of the game id. m.mu is held.
func (m *Memory) read(id string) (*game.Game, error) {
	if !game.ValidID(id) {
		return nil, game.ErrNotFound
	}
	r := m.live(id)
	switch {
	case r == nil:
		return nil, game.ErrNotFound
	case r.g == nil:
		return nil, &game.CorruptError{GameID: id, Err: errUnreadable}
	}
	g := r.g.Clone()
	g.ID = id
	return g, nil
}

// bound returns the game ID a binding holds, "" for none or an expired one.
// bound returns the ID of the game key is bound to in bindings, or "" when there is none; an
// expired binding is dropped. m.mu is held.
func bound[K comparable](m *Memory, bindings map[K]binding, key K) string {
	b, ok := bindings[key]
	if !ok || !m.now().Before(b.expires) {
		delete(bindings, key)
		return ""
	}
	return b.id
}

// readBound returns the game key is bound to in bindings, or ErrNotFound; a binding whose game
// is gone is dropped. m.mu is held.
func readBound[K comparable](m *Memory, bindings map[K]binding, key K) (*game.Game, error) {
	id := bound(m, bindings, key)
	if id == "" {
		return nil, game.ErrNotFound
	}
	g, err := m.read(id)
	if errors.Is(err, game.ErrNotFound) {
		delete(bindings, key)
	}
	return g, err
}

func (m *Memory) boundChat(chat int64) string { return bound(m, m.chats, chat) }

func (m *Memory) boundInline(id string) string { return bound(m, m.inlines, id) }

// check refuses a game the Redis store would not keep, with ErrInvalid.
func check(g *game.Game) error {
	switch {
	case g.Size < 4 || g.Size > 16 || g.Size%2 != 0:
		return fmt.Errorf("%w: board size %d", game.ErrInvalid, g.Size)
	case !g.Flow.Valid() || !g.Status.Valid() || !game.ValidOutcome(g.Outcome) || !game.ValidReason(g.Reason) ||
		!g.Style.Valid() || !g.Rematch.Valid():
		return fmt.Errorf("%w: enum value out of range", game.ErrInvalid)
	case g.CreatorColor < -1 || g.CreatorColor > 1:
		return fmt.Errorf("%w: creator colour %d", game.ErrInvalid, g.CreatorColor)
	case g.AILevel < 0 || g.AILevel > 255:
		return fmt.Errorf("%w: AI level %d", game.ErrInvalid, g.AILevel)
	case len(g.Moves) > g.Size*g.Size:
		return fmt.Errorf("%w: %d moves", game.ErrInvalid, len(g.Moves))
	}
	for _, mv := range g.Moves {
		if int(mv>>4) >= g.Size || int(mv&15) >= g.Size {
			return fmt.Errorf("%w: move %#02x off the board", game.ErrInvalid, mv)
		}
	}
	return nil
}

// StartGame stores g as a new game and binds it where h says, as game.Games documents.
func (m *Memory) StartGame(_ context.Context, g *game.Game, h game.Hosting) (*game.Game, error) {
	if err := check(g); err != nil {
		return nil, err
	}
	for _, c := range h.Chats {
		if c == 0 {
			return nil, fmt.Errorf("%w: start game in chat 0", game.ErrInvalid)
		}
	}
	if h.InlineID != "" && !game.ValidInlineID(h.InlineID) {
		return nil, fmt.Errorf("%w: inline message %q", game.ErrInvalid, h.InlineID)
	}
	if h.RematchOf != "" && !game.ValidID(h.RematchOf) {
		return nil, fmt.Errorf("%w: rematch of %q", game.ErrInvalid, h.RematchOf)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if h.RematchOf != "" {
		if b, ok := m.rematch[h.RematchOf]; ok && now.Before(b.expires) {
			return m.read(b.id)
		}
	}
	for _, c := range h.Chats {
		if id := m.boundChat(c); id != "" {
			switch m.state(id) {
			case "live":
				return nil, &game.BusyError{ChatID: c}
			case "bad":
				return nil, &game.CorruptError{GameID: id, Err: errUnreadable}
			}
		}
	}
	if h.InlineID != "" {
		if id := m.boundInline(h.InlineID); id != "" && id != h.RematchOf && m.live(id) != nil {
			return m.read(id)
		}
	}
	c := g.Clone()
	c.ID = newID()
	for m.games[c.ID] != nil || m.aside[c.ID] != nil {
		c.ID = newID()
	}
	c.Version = 1
	c.Created = now.Truncate(time.Second)
	c.Updated = c.Created
	ttl := m.ttlFor(c.Status)
	m.games[c.ID] = &record{g: c.Clone(), expires: now.Add(ttl)}
	for _, ch := range h.Chats {
		m.chats[ch] = binding{id: c.ID, expires: now.Add(ttl)}
	}
	if h.InlineID != "" {
		m.inlines[h.InlineID] = binding{id: c.ID, expires: now.Add(ttl)}
	}
	if h.RematchOf != "" {
		if until := m.rematchUntil(h.RematchOf, now); !until.IsZero() {
			m.rematch[h.RematchOf] = binding{id: c.ID, expires: until}
		}
	}
	if c.Status == game.StatusLobby || c.Status == game.StatusFinished {
		m.enter(c)
	}
	*g = *c
	return nil, nil
}

// next checks a compare-and-set of g and returns its next version, updated now. m.mu is held.
func (m *Memory) next(g *game.Game) (*game.Game, error) {
	if !game.ValidID(g.ID) {
		return nil, game.ErrNotFound
	}
	if g.Version < 1 || g.Version >= math.MaxUint32 {
		return nil, game.ErrConflict
	}
	if err := check(g); err != nil {
		return nil, err
	}
	r := m.live(g.ID)
	switch {
	case r == nil:
		return nil, game.ErrNotFound
	case r.g == nil || r.g.Version != g.Version:
		return nil, game.ErrConflict
	}
	c := g.Clone()
	c.Version++
	c.Updated = m.now().Truncate(time.Second)
	return c, nil
}

// store writes c, the next version of its game, and resets the expiry of the bindings it names
// that still point at it; a finished game's rematch mark lives as long as its record, and a
// game that ends now enters its people's ledgers. m.mu is held.
func (m *Memory) store(c *game.Game) {
	exp := m.now().Add(m.ttlFor(c.Status))
	ends := false
	if c.Status == game.StatusFinished {
		prev := m.games[c.ID]
		ends = prev == nil || prev.g == nil || prev.g.Status != game.StatusFinished
		if b, ok := m.rematch[c.ID]; ok && m.now().Before(b.expires) {
			m.rematch[c.ID] = binding{id: b.id, expires: exp}
		}
	}
	m.games[c.ID] = &record{g: c.Clone(), expires: exp}
	if ends {
		m.enter(c)
	}
	refresh := func(chat int64) {
		if chat != 0 && m.boundChat(chat) == c.ID {
			m.chats[chat] = binding{id: c.ID, expires: exp}
		}
	}
	refreshInline := func(id string) {
		if id != "" && m.boundInline(id) == c.ID {
			m.inlines[id] = binding{id: c.ID, expires: exp}
		}
	}
	c.Places(refresh, refreshInline)
}

// UpdateGame stores g with a compare-and-set on g.Version, as game.Games documents.
func (m *Memory) UpdateGame(_ context.Context, g *game.Game) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, err := m.next(g)
	if err != nil {
		return err
	}
	m.store(c)
	g.Version, g.Updated = c.Version, c.Updated
	return nil
}

// JoinGame stores g with a compare-and-set on g.Version and binds chats to it, as game.Games
// documents.
func (m *Memory) JoinGame(_ context.Context, g *game.Game, chats []int64) error {
	for _, c := range chats {
		if c == 0 {
			return fmt.Errorf("%w: join game in chat 0", game.ErrInvalid)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	c, err := m.next(g)
	if err != nil {
		return err
	}
	for _, ch := range chats {
		if id := m.boundChat(ch); id != "" && id != g.ID {
			switch m.state(id) {
			case "live":
				return &game.BusyError{ChatID: ch}
			case "bad":
				return &game.CorruptError{GameID: id, Err: errUnreadable}
			}
		}
	}
	exp := m.now().Add(m.ttlFor(c.Status))
	for _, ch := range chats {
		m.chats[ch] = binding{id: g.ID, expires: exp}
	}
	m.store(c)
	g.Version, g.Updated = c.Version, c.Updated
	return nil
}

// Game returns the game with the given ID, as game.Games documents.
func (m *Memory) Game(_ context.Context, id string) (*game.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.read(id)
}

// GameByChat returns the game bound to chatID, as game.Games documents; a binding to a game
// that is gone is dropped.
func (m *Memory) GameByChat(_ context.Context, chatID int64) (*game.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return readBound(m, m.chats, chatID)
}

// UnbindChat removes chatID's binding if it still points at gameID.
func (m *Memory) UnbindChat(_ context.Context, chatID int64, gameID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.boundChat(chatID) == gameID {
		delete(m.chats, chatID)
	}
	return nil
}

// GameByInline returns the game bound to an inline message, as game.Games documents.
func (m *Memory) GameByInline(_ context.Context, inlineID string) (*game.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !game.ValidInlineID(inlineID) {
		return nil, game.ErrNotFound
	}
	return readBound(m, m.inlines, inlineID)
}

// AsideKey names where SetAside keeps the record of game id.
func (m *Memory) AsideKey(id string) string { return "aside:" + id }

// SetAside moves the record of game id out of play, as game.Games documents, and frees every
// chat and inline message bound to it.
func (m *Memory) SetAside(_ context.Context, id string, _ ...game.MessageRef) (string, bool, error) {
	if !game.ValidID(id) {
		return "", false, game.ErrNotFound
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	moved := false
	if r := m.live(id); r != nil {
		m.aside[id] = r
		delete(m.games, id)
		moved = true
	} else if m.aside[id] == nil {
		return "", false, fmt.Errorf("gametest: set aside game %s: %w", id, game.ErrNotFound)
	}
	for c, b := range m.chats {
		if b.id == id {
			delete(m.chats, c)
		}
	}
	for i, b := range m.inlines {
		if b.id == id {
			delete(m.inlines, i)
		}
	}
	return m.AsideKey(id), moved, nil
}

// PutGame stores g as the record of game id as it is, unchecked, replacing any record (for a
// test that plants a game whose moves do not replay). It expires as a game in play does.
func (m *Memory) PutGame(id string, g *game.Game) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := g.Clone()
	c.ID = id
	m.games[id] = &record{g: c, expires: m.now().Add(m.opt.IdleTTL)}
}

// PutUnreadable stores data as the record of game id, replacing any record: a record that does
// not decode, which every read reports with a *game.CorruptError and which holds the chats
// bound to it (StartGame and JoinGame refuse them with that error too). It expires as a game in
// play does.
func (m *Memory) PutUnreadable(id string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.games[id] = &record{data: append([]byte(nil), data...), expires: m.now().Add(m.opt.IdleTTL)}
}

// AsideRecord returns what SetAside kept of game id: the game as stored (g), or the data of a
// record that did not decode; game.ErrNotFound when nothing was set aside.
func (m *Memory) AsideRecord(id string) (g *game.Game, data []byte, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.aside[id]
	if r == nil {
		return nil, nil, game.ErrNotFound
	}
	if r.g != nil {
		return r.g.Clone(), nil, nil
	}
	return nil, append([]byte(nil), r.data...), nil
}

// Enqueue pairs w with the longest waiting other person for the size or queues w, as
// game.Matchmaking documents.
func (m *Memory) Enqueue(_ context.Context, size int, w game.Waiter) (*game.Waiter, error) {
	if err := checkWaiter(size, w); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	var opp *waiting
	for id, q := range m.queue {
		if !now.Before(q.deadline) {
			if !now.Before(q.deadline.Add(game.QueueGrace)) {
				delete(m.queue, id) // past the grace too: gone without a word
			}
			continue // past its deadline: left for ExpireSearches
		}
		if id == w.UserID || q.size != size {
			continue
		}
		if opp == nil || q.deadline.Before(opp.deadline) ||
			q.deadline.Equal(opp.deadline) && strconv.FormatInt(id, 10) < strconv.FormatInt(opp.w.UserID, 10) {
			q := q
			opp = &q
		}
	}
	if opp != nil {
		delete(m.queue, opp.w.UserID)
		delete(m.queue, w.UserID)
		o := opp.w
		return &o, nil
	}
	m.queue[w.UserID] = waiting{size: size, w: w, deadline: now.Add(m.opt.QueueTTL)}
	return nil, nil
}

// Requeue puts w back in the queue unless w waits already, as game.Matchmaking documents.
func (m *Memory) Requeue(_ context.Context, size int, w game.Waiter) (bool, error) {
	if err := checkWaiter(size, w); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if q, ok := m.queue[w.UserID]; ok && now.Before(q.deadline) {
		return false, nil
	}
	m.queue[w.UserID] = waiting{size: size, w: w, deadline: now.Add(m.opt.QueueTTL)}
	return true, nil
}

// LeaveQueue takes the user out of the queue and reports whether they waited, as game.Matchmaking
// documents: a search past its deadline stays for ExpireSearches.
func (m *Memory) LeaveQueue(_ context.Context, userID int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q, ok := m.queue[userID]
	if !ok || !m.now().Before(q.deadline) {
		return false, nil
	}
	delete(m.queue, userID)
	return true, nil
}

// Searching returns the user's search while it waits, as game.Matchmaking documents.
func (m *Memory) Searching(_ context.Context, userID int64) (*game.Search, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q, ok := m.queue[userID]
	if !ok || !m.now().Before(q.deadline) {
		return nil, nil
	}
	return &game.Search{Size: q.size, Waiter: q.w, Until: q.deadline}, nil
}

// ExpireSearches takes out up to max searches past their deadline (but within
// game.QueueGrace of it), the earliest first, as game.Matchmaking documents.
func (m *Memory) ExpireSearches(_ context.Context, max int) ([]game.Search, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	var out []game.Search
	for id, q := range m.queue {
		if now.Before(q.deadline) {
			continue
		}
		delete(m.queue, id)
		if now.Before(q.deadline.Add(game.QueueGrace)) {
			out = append(out, game.Search{Size: q.size, Waiter: q.w, Until: q.deadline})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Until.Equal(out[j].Until) {
			return out[i].Until.Before(out[j].Until)
		}
		return out[i].Waiter.UserID < out[j].Waiter.UserID
	})
	if len(out) > max {
		// The rest go back: a later call takes them.
		for _, se := range out[max:] {
			m.queue[se.Waiter.UserID] = waiting{size: se.Size, w: se.Waiter, deadline: se.Until}
		}
		out = out[:max]
	}
	return out, nil
}

func checkWaiter(size int, w game.Waiter) error {
	if size < 4 || size > 16 || size%2 != 0 {
		return fmt.Errorf("%w: queue for size %d", game.ErrInvalid, size)
	}
	if w.UserID == 0 {
		return fmt.Errorf("%w: waiter without a user id", game.ErrInvalid)
	}
	return nil
}

// AcquireLease takes the lease on name for ttl if nobody holds it, as game.Leases documents.
func (m *Memory) AcquireLease(_ context.Context, name string, ttl time.Duration) (string, bool, error) {
	if ttl <= 0 || name == "" {
		return "", false, fmt.Errorf("%w: lease %q for %v", game.ErrInvalid, name, ttl)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if l, ok := m.leases[name]; ok && now.Before(l.expires) {
		return "", false, nil
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	m.leases[name] = lease{token: token, expires: now.Add(ttl)}
	return token, true, nil
}

// RenewLease extends the lease on name while token holds it.
func (m *Memory) RenewLease(_ context.Context, name, token string, ttl time.Duration) (bool, error) {
	if ttl <= 0 {
		return false, fmt.Errorf("%w: lease TTL %v", game.ErrInvalid, ttl)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	l, ok := m.leases[name]
	if !ok || l.token != token || !now.Before(l.expires) {
		return false, nil
	}
	m.leases[name] = lease{token: token, expires: now.Add(ttl)}
	return true, nil
}

// ReleaseLease ends the lease on name if token still holds it.
func (m *Memory) ReleaseLease(_ context.Context, name, token string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.leases[name]; ok && l.token == token {
		delete(m.leases, name)
	}
	return nil
}

// TouchUser stores the user's display name, as game.Profiles documents.
func (m *Memory) TouchUser(_ context.Context, userID int64, name string) error {
	if name == "" {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.profile(userID).Name = name
	return nil
}

// SetLang stores the user's language, as game.Profiles documents.
func (m *Memory) SetLang(_ context.Context, userID int64, lang string) error {
	if len(lang) > game.MaxLang {
		return fmt.Errorf("%w: language %q", game.ErrInvalid, lang)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.profiles[userID]; ok || lang != "" {
		if !ok {
			p = m.profile(userID)
		}
		p.Lang = lang
	}
	return nil
}

// SetStyle stores the user's board style, as game.Profiles documents.
func (m *Memory) SetStyle(_ context.Context, userID int64, style game.Style) error {
	if !style.Valid() {
		return fmt.Errorf("%w: board style %v", game.ErrInvalid, style)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.profiles[userID]; ok || style != game.StyleButtons {
		if !ok {
			p = m.profile(userID)
		}
		p.Style = style
	}
	return nil
}

// ChatLang returns the language of a chat, as game.ChatLangs documents.
func (m *Memory) ChatLang(_ context.Context, chatID int64) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.chatLang[chatID], nil
}

// SetChatLang stores the language of a chat, as game.ChatLangs documents.
func (m *Memory) SetChatLang(_ context.Context, chatID int64, lang string) error {
	if len(lang) > game.MaxLang {
		return fmt.Errorf("%w: language %q", game.ErrInvalid, lang)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if lang == "" {
		delete(m.chatLang, chatID)
	} else {
		m.chatLang[chatID] = lang
	}
	return nil
}

// ClaimInvitation binds an inline invitation to the first message that uses it, as
// game.Invitations documents.
func (m *Memory) ClaimInvitation(_ context.Context, creator, nonce int64, inlineID string, ttl time.Duration) (bool, error) {
	if !game.ValidInlineID(inlineID) || ttl <= 0 {
		return false, fmt.Errorf("%w: claim invitation %d/%d for %q", game.ErrInvalid, creator, nonce, inlineID)
	}
	key := claimKey(creator, nonce)
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if b, ok := m.invites[key]; ok && now.Before(b.expires) {
		return b.id == inlineID, nil
	}
	m.invites[key] = binding{id: inlineID, expires: now.Add(ttl)}
	m.keepClaim(creator, nonce)
	return true, nil
}

// SaveReview keeps the review of gameID for ttl and no longer than the game, nothing for a
// game that is gone (ErrInvalid for a ttl <= 0 or an id that cannot be a game's).
func (m *Memory) SaveReview(_ context.Context, gameID string, data []byte, ttl time.Duration) error {
	if !game.ValidID(gameID) || ttl <= 0 {
		return fmt.Errorf("%w: save review of %q for %v", game.ErrInvalid, gameID, ttl)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.live(gameID)
	if r == nil {
		return nil
	}
	m.reviews[gameID] = kept{data: slices.Clone(data), expires: minTime(r.expires, m.now().Add(ttl))}
	return nil
}

// LoadReview returns the review kept for gameID, ErrNotFound when none is.
func (m *Memory) LoadReview(_ context.Context, gameID string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.reviews[gameID]
	if !ok || !m.now().Before(r.expires) {
		return nil, fmt.Errorf("%w: review of %q", game.ErrNotFound, gameID)
	}
	return slices.Clone(r.data), nil
}

// SetLastGame records gameID as the game last finished in chatID, for ttl.
func (m *Memory) SetLastGame(_ context.Context, chatID int64, gameID string, ttl time.Duration) error {
	if !game.ValidID(gameID) || ttl <= 0 {
		return fmt.Errorf("%w: last game %q of chat %d for %v", game.ErrInvalid, gameID, chatID, ttl)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lastGame[chatID] = binding{id: gameID, expires: m.now().Add(ttl)}
	return nil
}

// LastGame returns the game last finished in chatID, ErrNotFound for none.
func (m *Memory) LastGame(_ context.Context, chatID int64) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.lastGame[chatID]
	if !ok || !m.now().Before(b.expires) {
		return "", fmt.Errorf("%w: last game of chat %d", game.ErrNotFound, chatID)
	}
	return b.id, nil
}

// profile returns the stored profile of userID, making one. m.mu is held.
func (m *Memory) profile(userID int64) *game.Profile {
	p := m.profiles[userID]
	if p == nil {
		p = &game.Profile{UserID: userID, Stats: game.Stats{Rating: game.InitialRating}}
		m.profiles[userID] = p
	}
	return p
}

// Profile returns what is known of the user, as game.Profiles documents.
func (m *Memory) Profile(_ context.Context, userID int64) (*game.Profile, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.profiles[userID]
	if !ok {
		return &game.Profile{UserID: userID, Stats: game.Stats{Rating: game.InitialRating}}, nil
	}
	c := *p
	if p.Stats.VsAI != nil {
		c.Stats.VsAI = make(map[int]game.AIRecord, len(p.Stats.VsAI))
		for k, v := range p.Stats.VsAI {
			c.Stats.VsAI[k] = v
		}
	}
	return &c, nil
}

// RecordResult adds the result of the finished game g to its players' records once per game,
// as game.Ratings documents.
func (m *Memory) RecordResult(_ context.Context, g *game.Game) (game.RatingChange, error) {
	if g.Status != game.StatusFinished {
		return game.RatingChange{}, fmt.Errorf("%w: record result of a game in status %v", game.ErrInvalid, g.Status)
	}
	if g.Outcome == game.OutcomeNone || !game.ValidID(g.ID) {
		return game.RatingChange{}, nil
	}
	if !game.ValidOutcome(g.Outcome) {
		return game.RatingChange{}, fmt.Errorf("%w: outcome %v", game.ErrInvalid, g.Outcome)
	}
	b, w := g.Players[0], g.Players[1]
	ai := g.AILevel > 0 && (b.UserID == 0) != (w.UserID == 0)
	if !ai && (b.UserID == 0 || w.UserID == 0 || b.UserID == w.UserID) {
		return game.RatingChange{}, nil // not a rated game between two people
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if until, ok := m.marks[g.ID]; ok && now.Before(until) {
		return m.rated[g.ID], nil
	}
	m.marks[g.ID] = now.Add(m.opt.ResultTTL)
	delete(m.rated, g.ID)
	if ai {
		human, black := b, true
		if b.UserID == 0 {
			human, black = w, false
		}
		m.markResult(g.ID, human.UserID)
		p := m.profiles[human.UserID]
		if p == nil {
			return game.RatingChange{}, nil
		}
		if p.Stats.VsAI == nil {
			p.Stats.VsAI = map[int]game.AIRecord{}
		}
		r := p.Stats.VsAI[g.AILevel]
		switch {
		case g.Outcome == game.OutcomeDraw:
			r.Draws++
		case (g.Outcome == game.OutcomeBlack) == black:
			r.Wins++
		default:
			r.Losses++
		}
		p.Stats.VsAI[g.AILevel] = r
		if human.Name != "" {
			p.Name = human.Name
		}
		return game.RatingChange{}, nil
	}
	m.markResult(g.ID, b.UserID, w.UserID)
	pb, pw := m.profiles[b.UserID], m.profiles[w.UserID]
	if pb == nil || pw == nil {
		return game.RatingChange{}, nil
	}
	sb := map[game.Outcome]float64{game.OutcomeBlack: 1, game.OutcomeDraw: 0.5, game.OutcomeWhite: 0}[g.Outcome]
	rb, rw := float64(pb.Stats.Rating), float64(pw.Stats.Rating)
	eb := 1 / (1 + math.Pow(10, (rw-rb)/400))
	ew := 1 / (1 + math.Pow(10, (rb-rw)/400))
	pb.Stats.Rating = int(math.Floor(rb + game.EloK*(sb-eb) + 0.5))
	pw.Stats.Rating = int(math.Floor(rw + game.EloK*((1-sb)-ew) + 0.5))
	rc := game.RatingChange{Rated: true, Before: [2]int{int(rb), int(rw)},
		After: [2]int{pb.Stats.Rating, pw.Stats.Rating}}
	m.rated[g.ID] = rc
	switch g.Outcome {
	case game.OutcomeBlack:
		pb.Stats.Wins++
		pw.Stats.Losses++
	case game.OutcomeWhite:
		pb.Stats.Losses++
		pw.Stats.Wins++
	default:
		pb.Stats.Draws++
		pw.Stats.Draws++
	}
	if b.Name != "" {
		pb.Name = b.Name
	}
	if w.Name != "" {
		pw.Name = w.Name
	}
	m.rank(0, b.UserID, w.UserID)
	if g.Flow == game.FlowGroup && g.ChatID != 0 {
		m.rank(g.ChatID, b.UserID, w.UserID)
	}
	return rc, nil
}

// rank puts users on the leaderboard of chat (0 for everyone's). m.mu is held.
func (m *Memory) rank(chat int64, users ...int64) {
	t := m.tops[chat]
	if t == nil {
		t = map[int64]bool{}
		m.tops[chat] = t
	}
	for _, u := range users {
		t[u] = true
	}
}

// Top returns up to n (at most 100) people with the best ratings, as game.Ratings
// documents.
func (m *Memory) Top(_ context.Context, chatID int64, n int) ([]game.RankEntry, error) {
	if n <= 0 {
		return nil, nil
	}
	n = min(n, 100)
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []game.RankEntry
	for u := range m.tops[chatID] {
		p := m.profiles[u]
		out = append(out, game.RankEntry{UserID: u, Name: p.Name, Rating: p.Stats.Rating,
			Wins: p.Stats.Wins, Losses: p.Stats.Losses, Draws: p.Stats.Draws})
	}
	game.SortRanking(out)
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// newID returns a random 10-character game ID, as the Redis store makes them.
func newID() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b[:])
}
