package game

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reversibot/reversi/engine"
)

// Sizes are the board sizes players may choose, smallest first. Smaller even sizes (4, 6) are
// accepted too when Config.AllowSmall is set, for tests and exhaustive checks.
var Sizes = []int{8, 10, 12, 16}

// MaxLevel is the strongest AI level; levels run from 1 to MaxLevel.
const MaxLevel = 6

// MaxHintLevel is the highest AI level at which the player may ask for a hint.
const MaxHintLevel = 3

// DefaultIdleAfter is how long a player must leave a game untouched on their turn before the
// opponent may claim it, when Config.IdleAfter is zero.
const DefaultIdleAfter = 24 * time.Hour

// DefaultRematchFor is how long an offer of a rematch stands, when Config.RematchFor is zero.
const DefaultRematchFor = 10 * time.Minute

// Config wires a Service: a store for each concern (see Store) and the Mover. Mover is
// required, and so are Games, Matchmaking and Players, which Store gives when they are nil.
type Config struct {
	// Store, when set, keeps every concern below left nil that it implements (package
	// storage's Store and gametest's Memory implement them all).
	Store Store
	// Games keeps the games and their chats; nil means the Store. When it is a GameStyles or
	// a GameMover the Service uses that.
	Games Games
	// Matchmaking keeps the queue of /find; nil means the Store.
	Matchmaking Matchmaking
	// Players records the results of finished games and keeps the board styles; nil means
	// the Store.
	Players PlayerStore
	Mover   Mover
	// Pool runs the AI's searches; nil means a pool of GOMAXPROCS workers that Close stops.
	Pool *AIPool
	// Leases, shared by every Service on the store, keep a game's AI reply (and a position's
	// hint) to one Service at a time; nil means the Store's own when it implements Leases
	// (as package storage's does), else each Service keeps only its own calls to one.
	Leases Leases
	// Invitations keeps which message each inline invitation opened (ClaimInvitation); nil
	// means the Store's own when it implements Invitations (as package storage's does).
	Invitations Invitations
	// Reviews keeps games' reviews (Review); nil means the Store's own when it implements
	// Reviews (as package storage's does), else each review is made anew.
	Reviews Reviews
	// ReviewPool runs reviews as idle work; nil means Pool. A bot whose searches run on
	// remote workers (its Pool only waits for them) gives it a pool of its own cores.
	ReviewPool *AIPool
	// OnReviewStep, when not nil, is called on the worker's goroutine before each step of a
	// review (the bot lowers that thread's priority there, as for searches).
	OnReviewStep func()
	// Now is the clock for idle claims; nil means time.Now.
	Now func() time.Time
	// Rand draws colours; nil means a randomly seeded source. It is used under a lock.
	Rand *rand.Rand
	// IdleAfter is how long a player may leave the game on their turn before the opponent
	// may claim it (ClaimIdle); zero means DefaultIdleAfter.
	IdleAfter time.Duration
	// RematchFor is how long an offer of a rematch between people stands before it expires;
	// zero means DefaultRematchFor.
	RematchFor time.Duration
	// AllowSmall admits the test sizes 4 and 6 besides Sizes.
	AllowSmall bool
	// Logger gets what the operator must know: a game record set aside because it could not
	// be read (at error level, with the game and the key it went to); nil discards it.
	Logger *slog.Logger
}

// Service hosts games. It is safe for concurrent use; any number of Services (in one process
// or many) may share one store.
type Service struct {
	st          Games
	queue       Matchmaking
	players     PlayerStore
	ai          Mover
	pool        *AIPool
	ownPool     bool
	leases      Leases
	invites     Invitations
	flights     flights
	reviewing   reviews
	reviewStore Reviews
	reviewPool  *AIPool
	onReview    func()
	now         func() time.Time
	idleAfter   time.Duration
	offerFor    time.Duration
	small       bool
	log         *slog.Logger

	mu  sync.Mutex
	rng *rand.Rand
	// leaseFailing is set while the store fails to give leases (lease logs the change).
	leaseFailing atomic.Bool
}

// New returns a Service over cfg. It panics if cfg.Mover is nil, or cfg.Store is nil and one
// of cfg.Games, cfg.Matchmaking and cfg.Players is too: a programming error.
func New(cfg Config) *Service {
	if cfg.Store != nil {
		cfg.Games = orStore(cfg.Games, cfg.Store)
		cfg.Matchmaking = orStore(cfg.Matchmaking, cfg.Store)
		cfg.Players = orStore(cfg.Players, cfg.Store)
		cfg.Leases = orStore(cfg.Leases, cfg.Store)
		cfg.Invitations = orStore(cfg.Invitations, cfg.Store)
		cfg.Reviews = orStore(cfg.Reviews, cfg.Store)
	}
	if cfg.Games == nil || cfg.Matchmaking == nil || cfg.Players == nil || cfg.Mover == nil {
		panic("game: Config needs Games, Matchmaking, Players (or a Store) and a Mover")
	}
	s := &Service{st: cfg.Games, queue: cfg.Matchmaking, players: cfg.Players, ai: cfg.Mover, pool: cfg.Pool,
		leases: cfg.Leases, invites: cfg.Invitations, now: cfg.Now, idleAfter: cfg.IdleAfter, small: cfg.AllowSmall,
		rng: cfg.Rand, log: cfg.Logger}
	if s.pool == nil {
		s.pool, s.ownPool = NewAIPool(0, 0), true
	}
	s.reviewStore, s.reviewPool, s.onReview = cfg.Reviews, cfg.ReviewPool, cfg.OnReviewStep
	if s.reviewPool == nil {
		s.reviewPool = s.pool
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.idleAfter <= 0 {
		s.idleAfter = DefaultIdleAfter
	}
	if s.offerFor = cfg.RematchFor; s.offerFor <= 0 {
		s.offerFor = DefaultRematchFor
	}
	if s.rng == nil {
		s.rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// Close stops the AI pool if the Service made it. Operations in flight that wait for the AI
// return ErrBusy.
func (s *Service) Close() {
	if s.ownPool {
		s.pool.Close()
	}
}

// IdleAfter returns how long a player may stay idle on their turn before the opponent may
// claim the game.
func (s *Service) IdleAfter() time.Duration { return s.idleAfter }

// ValidSize reports whether players may choose board size n.
func (s *Service) ValidSize(n int) bool {
	return slices.Contains(Sizes, n) || s.small && (n == 4 || n == 6)
}

// coin returns 0 or 1 at random.
func (s *Service) coin() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rng.IntN(2)
}

// Choice is the colour a player asks for when opening a game: its values match
// Game.CreatorColor.
type Choice int8

// The colour choices.
const (
	ChooseRandom Choice = -1
	ChooseBlack  Choice = 0
	ChooseWhite  Choice = 1
)

// ParseChoice reads "black"/"b", "white"/"w", "random"/"r"/"" (any case; also "чёрные",
// "черные", "белые", "случайно").
func ParseChoice(text string) (Choice, bool) {
	switch lower(text) {
	case "black", "b", "x", "чёрные", "черные", "чёрный", "черный":
		return ChooseBlack, true
	case "white", "w", "o", "белые", "белый":
		return ChooseWhite, true
	case "", "random", "r", "rand", "случайно", "любой":
		return ChooseRandom, true
	}
	return ChooseRandom, false
}

func lower(s string) string {
	r := []rune(s)
	for i, c := range r {
		switch {
		case c >= 'A' && c <= 'Z':
			r[i] = c + 'a' - 'A'
		case c >= 'А' && c <= 'Я':
			r[i] = c + 'а' - 'А'
		case c == 'Ё':
			r[i] = 'ё'
		}
	}
	return string(r)
}

// Ply returns the ply of g, as engine.Game defines it (the number of discs placed, passes not
// counted): that of g's replay, which is len(g.Moves), since Moves holds the discs placed and
// nothing else. Callback data carries it so that Move can reject a tap on an out-of-date board.
func Ply(g *Game) int { return len(g.Moves) }

// Played is one move or pass applied by a step.
type Played struct {
	Color  engine.Color
	Square engine.Square // engine.Pass for a pass
	Flips  engine.Set    // the discs it flipped
	// UserID of the player who moved (0 for the AI).
	UserID int64
}

// End describes how a game ended.
type End struct {
	Outcome      Outcome
	Reason       EndReason
	Black, White int    // discs as they lie
	Record       string // the game record without passes ("f5d6c3d3")
	// Winner is the index in Game.Players of the winner (0 black, 1 white), -1 for a draw or
	// an abandoned game.
	Winner int
}

// Snapshot is what a step did and the state it left, for the Telegram layer to show: edit every
// board in Game.Boards (and the message the tap came from), announce each pass in Played, the
// result when End is set, and then, when Reply is set, the AI's reply.
type Snapshot struct {
	// Game is the game after the step. Nil only for a Find that queued the user.
	Game *Game
	// Pos is the position after the step.
	Pos engine.Position
	// Played lists the moves and passes the step applied, in order.
	Played []Played
	// Undone is the number of moves Undo took back.
	Undone int
	// End is set when the step ended the game, or when Game is finished.
	End *End
	// Reply is set when the AI is to move: the reply the game owes, to wait on once the step
	// is shown and its tap answered (see Reply).
	Reply *Reply
	// Queued reports that Find put the user in the queue (Game is nil).
	Queued bool
	// Existing reports that Rematch found the rematch already made, and returns it.
	Existing bool
	// Offered reports that Rematch made (or found) an offer of a rematch between people:
	// Game is the finished game, whose boards show the offer.
	Offered bool
	// Lobby lists, after Join, the chat messages that showed the invitation. Join takes them
	// out of Game.Boards, so no later step draws a board into them: say there that the game
	// began, and post new boards. (An inline lobby message stays in Boards: it becomes the
	// board.)
	Lobby []MessageRef
	// RecordErr is set when the game finished but its result could not be recorded (the
	// store failed); the game is over all the same, and Settle records it later.
	RecordErr error
	// Thinking reports, from Reply.Wait (or AIReply), that another reply of the game (in
	// this process or another sharing the store) is searching its position: this call played
	// nothing, and the one in progress will commit the AI's move and its caller draw it.
	Thinking bool
}

// Turn returns the colour to move and its player; ok is false when the game is not in play.
func (r *Snapshot) Turn() (c engine.Color, p Player, ok bool) {
	if r.Game == nil || r.Game.Status != StatusPlaying || r.Pos.GameOver() {
		return engine.Black, Player{}, false
	}
	c = r.Pos.Side()
	return c, r.Game.Players[c], true
}

// LastMove returns the last real move of the game (not a pass); ok is false when none was
// played.
func (r *Snapshot) LastMove() (engine.Square, bool) {
	if r.Game == nil || len(r.Game.Moves) == 0 {
		return engine.Pass, false
	}
	return engine.Square(r.Game.Moves[len(r.Game.Moves)-1]), true
}

// Score returns the discs of each colour.
func (r *Snapshot) Score() (black, white int) {
	if r.Game == nil {
		return 0, 0
	}
	return r.Pos.Count(engine.Black), r.Pos.Count(engine.White)
}

// Side returns the index in g.Players (0 black, 1 white) of the user, or -1 if the user does
// not play in g. The AI (user 0) is never found.
func Side(g *Game, userID int64) int {
	if userID == 0 {
		return -1
	}
	for i, p := range g.Players {
		if p.UserID == userID {
			return i
		}
	}
	return -1
}

// state is a game read from the store and replayed: eg.Ply() is len(g.Moves) until a step
// plays a move on eg and appends it to g.Moves.
type state struct {
	g  *Game
	eg *engine.Game
}

func (st *state) pos() engine.Position { return st.eg.Position() }

// replay is engine.ReplayBytes of the stored moves (the forced passes inserted, also those
// after the last move); a game that does not replay is ErrCorrupt.
func replay(g *Game) (*state, error) {
	eg, err := engine.ReplayBytes(g.Size, g.Moves)
	if err != nil {
		return nil, fmt.Errorf("%w: game %s: %v", ErrCorrupt, g.ID, err)
	}
	return &state{g: g, eg: eg}, nil
}

// passes plays the forced passes of the side to move after a step's move, appending them to
// out: the passes a replay of the game would insert there, as the step reports them.
func passes(eg *engine.Game, out []Played) []Played {
	for eg.Position().MustPass() {
		c := eg.Position().Side()
		if _, err := eg.Play(engine.Pass); err != nil {
			break
		}
		out = append(out, Played{Color: c, Square: engine.Pass})
	}
	return out
}

// load reads and replays a game; one that cannot be read is set aside (ErrSetAside).
func (s *Service) load(ctx context.Context, id string) (*state, error) {
	if id == "" {
		return nil, ErrNoGame
	}
	g, err := s.st.Game(ctx, id)
	if err != nil {
		return nil, storeErr(s.readable(ctx, err))
	}
	return s.replayStored(ctx, g)
}

// storeErr maps the store's not-found and busy chat to the Service's sentinels, keeping the
// cause. (A store's ErrConflict is the Service's own.)
func storeErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("%w: %w", ErrNoGame, err)
	case errors.Is(err, ErrChatBusy):
		return fmt.Errorf("%w: %w", ErrAlreadyPlaying, err)
	}
	return err
}

// busyErr maps a start or join refused because a chat has another game: ErrAlreadyPlaying when
// it is the chat of the user who asked (own, 0 for none), ErrOpponentBusy when it is the other
// player's. Other errors go through storeErr.
func busyErr(err error, own int64) error {
	var busy *BusyError
	if errors.As(err, &busy) && own != 0 && busy.ChatID != own {
		return fmt.Errorf("%w: %w", ErrOpponentBusy, err)
	}
	return storeErr(err)
}

// result builds the Snapshot of a step that left the game in st.
func (s *Service) result(st *state, played []Played) *Snapshot {
	r := &Snapshot{Game: st.g, Pos: st.pos(), Played: played}
	if st.g.Status == StatusFinished {
		r.End = endOf(st)
	}
	if needAI(st) {
		r.Reply = &Reply{s: s, gameID: st.g.ID}
	}
	return r
}

// needAI reports whether the AI is to move in st: the one test of when the AI owes a move.
func needAI(st *state) bool {
	g := st.g
	if g.AILevel <= 0 || g.Status != StatusPlaying || st.pos().GameOver() {
		return false
	}
	return g.Players[st.pos().Side()].UserID == 0
}

func endOf(st *state) *End {
	g, pos := st.g, st.pos()
	e := &End{Outcome: g.Outcome, Reason: g.Reason, Black: pos.Count(engine.Black),
		White: pos.Count(engine.White), Record: st.eg.Record(), Winner: -1}
	switch g.Outcome {
	case OutcomeBlack:
		e.Winner = 0
	case OutcomeWhite:
		e.Winner = 1
	}
	return e
}

// winFor is the outcome where the player at index side (0 black, 1 white) wins.
func winFor(side int) Outcome { return engine.WinFor(engine.Color(side)) }

// retry runs step up to twice: when the first run's write loses a compare-and-set, the game is
// read and checked again. step must read the game itself.
func retry(step func() (*Snapshot, error)) (*Snapshot, error) {
	r, err := step()
	if errors.Is(err, ErrConflict) {
		r, err = step()
	}
	return r, err
}

// update writes st.g with a compare-and-set.
func (s *Service) update(ctx context.Context, g *Game) error {
	return storeErr(s.st.UpdateGame(ctx, g))
}

// settle does what follows the end of a game: records the result (the store makes that
// idempotent per game) and frees the chats the game was bound to, so they can start new
// games. Inline messages stay bound: they show the final board.
func (s *Service) settle(ctx context.Context, r *Snapshot) {
	g := r.Game
	if g.Reason != EndAbandoned {
		rc, err := s.players.RecordResult(ctx, g)
		switch {
		case err != nil:
			r.RecordErr = err
		case rc.Rated && g.Rating != rc:
			s.noteRating(ctx, r, rc)
		}
	}
	for _, c := range chatsOf(g) {
		// A failure leaves a binding to a finished game, which never blocks a new one.
		_ = s.st.UnbindChat(ctx, c, g.ID)
		if s.reviewStore != nil && len(g.Moves) > 0 {
			if err := s.reviewStore.SetLastGame(ctx, c, g.ID, ReviewTTL); err != nil {
				s.log.Warn("record last game", "chat", c, "game", g.ID, "err", err)
			}
		}
	}
}

// noteRating keeps the rating change rc that recording the result of r's game made on the
// stored game (Game.Rating), so that every later drawing of its boards shows it, and on
// r.Game for the boards drawn now. It retries on conflicts, since it changes nothing else; a
// failure leaves only the stored game without the change (the result itself is recorded).
func (s *Service) noteRating(ctx context.Context, r *Snapshot, rc RatingChange) {
	r.Game.Rating = rc
	g := r.Game.Clone()
	for range 5 {
		err := s.update(ctx, g)
		if err == nil {
			r.Game.Version, r.Game.Updated = g.Version, g.Updated
			return
		}
		if !errors.Is(err, ErrConflict) {
			break
		}
		if g, err = s.st.Game(ctx, g.ID); err != nil {
			break
		}
		g.Rating = rc
	}
	s.log.Warn("rating change not kept on the game", "game", r.Game.ID)
}

// chatsOf lists the chats a game is bound to.
func chatsOf(g *Game) []int64 {
	var out []int64
	add := func(c int64) {
		if c == 0 {
			return
		}
		for _, x := range out {
			if x == c {
				return
			}
		}
		out = append(out, c)
	}
	add(g.ChatID)
	if g.Flow == FlowInvite || g.Flow == FlowMatch {
		add(g.Players[0].ChatID)
		add(g.Players[1].ChatID)
	}
	return out
}

// Settle records the result of a finished game again, for a step whose Snapshot had RecordErr;
// the store counts each game once however often it is called.
func (s *Service) Settle(ctx context.Context, gameID string) error {
	st, err := s.load(ctx, gameID)
	if err != nil {
		return err
	}
	if st.g.Status != StatusFinished {
		return ErrNotOver
	}
	r := s.result(st, nil)
	s.settle(ctx, r)
	return r.RecordErr
}

// checkFree fails with ErrAlreadyPlaying when chatID is bound to a game in play or a lobby. It
// writes nothing but for a bound game that cannot be read, which it sets aside (the chat is
// then free): Find uses it not to queue a user who is playing. What decides that a chat is free for a new game
// is the store's atomic StartGame or JoinGame.
func (s *Service) checkFree(ctx context.Context, chatID int64) error {
	if chatID == 0 {
		return nil
	}
	g, err := s.boundGame(ctx, chatID)
	switch {
	case errors.Is(err, ErrNotFound), errors.Is(err, ErrSetAside), errors.Is(err, ErrNoGame):
		return nil
	case err != nil:
		return err
	case g.Status != StatusFinished:
		return ErrAlreadyPlaying
	}
	return nil
}

// Game returns the state of a game by its ID, as a Snapshot with nothing played (End set when it
// is finished, Reply when the AI owes a move: after a restart, or a search cut short).
func (s *Service) Game(ctx context.Context, gameID string) (*Snapshot, error) {
	st, err := s.load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return s.result(st, nil), nil
}

// Current returns the game bound to a chat (for /board, /resign, typed moves): ErrNoGame when
// there is none, ErrSetAside when it could not be read (the chat is then free).
func (s *Service) Current(ctx context.Context, chatID int64) (*Snapshot, error) {
	g, err := s.st.GameByChat(ctx, chatID)
	return s.resultOf(ctx, g, err, MessageRef{ChatID: chatID})
}

// CurrentInline returns the game shown in an inline message: ErrNoGame when there is none,
// ErrSetAside when it could not be read (the message is then free).
func (s *Service) CurrentInline(ctx context.Context, inlineID string) (*Snapshot, error) {
	if inlineID == "" {
		return nil, ErrNoGame
	}
	g, err := s.st.GameByInline(ctx, inlineID)
	return s.resultOf(ctx, g, err, MessageRef{InlineID: inlineID})
}

// resultOf is the Snapshot with nothing played of a game the store looked up (through via, the
// chat or inline message that shows it) or just wrote; a game that cannot be read is set aside.
func (s *Service) resultOf(ctx context.Context, g *Game, err error, via ...MessageRef) (*Snapshot, error) {
	if err != nil {
		return nil, storeErr(s.readable(ctx, err, via...))
	}
	st, err := s.replayStored(ctx, g, via...)
	if err != nil {
		return nil, err
	}
	return s.result(st, nil), nil
}

// refsOf lists the chats and the inline message of h, for SetAside to free.
func refsOf(h Hosting) []MessageRef {
	refs := make([]MessageRef, 0, len(h.Chats)+1)
	for _, c := range h.Chats {
		refs = append(refs, MessageRef{ChatID: c})
	}
	if h.InlineID != "" {
		refs = append(refs, MessageRef{InlineID: h.InlineID})
	}
	return refs
}

// AddBoard records a message that shows the game's board, for later steps to update (it is
// then in Snapshot.Game.Boards). A chat keeps one board: a newer message in the same chat
// replaces the older one. It retries on conflicts, since it changes nothing a player sees.
// It moves the game's Updated time but not LastMoveAt, from which ClaimIdle counts.
func (s *Service) AddBoard(ctx context.Context, gameID string, ref MessageRef) (*Game, error) {
	if ref.ChatID == 0 && ref.InlineID == "" {
		return nil, ErrBadRequest
	}
	var err error
	for range 5 {
		var g *Game
		if g, err = s.st.Game(ctx, gameID); err != nil {
			return nil, storeErr(s.readable(ctx, err))
		}
		boards, changed := withBoard(g.Boards, ref)
		if !changed {
			return g, nil
		}
		g.Boards = boards
		if err = s.update(ctx, g); err == nil {
			return g, nil
		}
		if !errors.Is(err, ErrConflict) {
			return nil, err
		}
	}
	return nil, err
}

func withBoard(boards []MessageRef, ref MessageRef) ([]MessageRef, bool) {
	for i, b := range boards {
		if b == ref {
			return boards, false
		}
		if (ref.ChatID != 0 && b.ChatID == ref.ChatID) || (ref.InlineID != "" && b.InlineID == ref.InlineID) {
			out := append([]MessageRef(nil), boards...)
			out[i] = ref
			return out, true
		}
	}
	return append(append([]MessageRef(nil), boards...), ref), true
}
