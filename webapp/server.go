// Package webapp is the bot's Telegram Mini App: a page that draws a game's board so that a
// player taps the square itself on any board size, its small JSON API, and the check of
// Telegram's initData that guards every request of it. The bot serves it itself (cmd mounts
// Server.Handler under PUBLIC_URL's path + "/app"); the games come from the bot through the
// Games interface, so the page and the chat boards show the same games with the same rules.
//
// The page is embedded (plain HTML, CSS and JavaScript, no build step) and works with or
// without Telegram's telegram-web-app.js. It has no text of its own: index.html carries the
// texts it shows, texts of package i18n, in every language as JSON (PageTexts), and the page
// shows them in the user's language: initData's language_code says which at first, State.Lang
// (the choice the user made in the chat) from the first answer of the API on. Its URLs are
// relative to the mount point:
//
//	GET  ./?g=ID          the page; the game is ?g= or, opened by a direct link, initData's start_param
//	GET  app.js, app.css  its script and style (gzip when accepted, ETag)
//	GET  api/state?g=ID   the game as the viewer sees it: a State
//	POST api/move         {"g": ID, "sq": "d3", "pos": P}: plays the viewer's move on the position
//	                      State.Pos named, answers the new State
//	GET  api/watch?g=ID&after=V   a long poll: the State as soon as its version is above V, or
//	                      204 No Content after Options.Hold without news
//
// Every API request carries initData in the header "Authorization: tma <initData>", which is
// validated each time (ValidateInitData), and counts against the user's budget (Games.Allow).
// An error answer is an ErrorBody with a code (those of package game, or the API's own: see
// CodeAuthBad and the others) and a text in the viewer's language, under the HTTP status that
// fits (see httpStatus); a refused move also carries the game's current State, to roll the
// page back to.
//
// Who may look: the players of a game always; anyone else a game shown in a shared chat
// (FlowGroup, FlowInline), read-only; a private game (FlowAI, FlowInvite, FlowMatch) nobody
// else (403, CodePrivate). Only the player to move may move: Games.Move checks it, and the
// legal moves are sent to that player only. A move is played only on the position the page
// showed, which it names by State.Pos: on any other (the game moved on, or came back to the
// same ply by another line after an undo) it is refused as stale (409) and changes nothing,
// and a move that names none (a page loaded before moves named positions) is refused as
// CodePageOld (409); both answers carry the game's State, which the page draws.
//
// A watched game is seen to change through Server.Changed, which the bot calls after every
// step of a game in this process, and through one poller per watched game, shared by all its
// watchers, which reads it every Options.Poll to see moves made by other bot processes.
package webapp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// Games is what the Mini App asks of the bot (bot.MiniApp implements it).
type Games interface {
	// Game returns the game with the ID as game.Service.Game does (game.ErrNoGame etc.).
	Game(ctx context.Context, id string) (*game.Snapshot, error)
	// Move plays sq for user in game id on the position the player saw, named by its tag pos
	// (State.Pos), exactly as a tap on a chat board: the checks and errors of
	// game.Service.MoveAt (game.ErrStale on any other position); then it redraws the chat
	// boards. When the AI is to move, its reply is played afterwards in the background (the
	// page sees it through its watch).
	Move(ctx context.Context, id string, user int64, sq engine.Square, pos uint64) (*game.Snapshot, error)
	// Allow reports whether the user may make one more request now (the bot's per-user
	// budget of updates, shared by all processes); false is answered 429.
	Allow(ctx context.Context, user int64) bool
	// Lang returns the language the user chose in the bot ("en", "ru"), "" when none.
	Lang(ctx context.Context, user int64) string
}

// Defaults of Options.
const (
	DefaultPoll              = 500 * time.Millisecond
	DefaultHold              = 25 * time.Second
	DefaultMaxWatchesPerUser = 4
	DefaultMaxWatches        = 4096
)

// MaxBody bounds the body of a request to the API; a longer one is refused (413).
const MaxBody = 16 << 10

// moveTimeout bounds a move, which runs to its end even when the page goes away meanwhile (so
// that the chat boards are redrawn); pollTimeout bounds one read of a poller.
const (
	moveTimeout = 15 * time.Second
	pollTimeout = 5 * time.Second
)

// Options configure a Server. Token and Games are required.
type Options struct {
	Token  string // the bot's token: the key of initData's HMAC. It is never logged nor put in an error.
	Games  Games
	MaxAge time.Duration    // the oldest initData accepted (by auth_date); 0 means DefaultMaxAge
	Now    func() time.Time // nil means time.Now
	Logger *slog.Logger     // nil discards the log
	// Poll is how often a watched game is read again from the store, to see the moves that
	// other bot processes make; 0 means DefaultPoll.
	Poll time.Duration
	// Hold is how long api/watch holds a request that has no news; 0 means DefaultHold.
	Hold time.Duration
	// MaxWatchesPerUser bounds the watches one user holds open at once (more are answered
	// 429); 0 means DefaultMaxWatchesPerUser.
	MaxWatchesPerUser int
	// MaxWatches bounds the watches open at once in this process (more are answered 503);
	// 0 means DefaultMaxWatches.
	MaxWatches int
}

// Server is the Mini App: its page, its API and the watches of its games. It is safe for
// concurrent use.
type Server struct {
	games    Games
	secret   []byte
	maxAge   time.Duration
	poll     time.Duration
	hold     time.Duration
	now      func() time.Time
	log      *slog.Logger
	quiet    logLimit
	perUser  int
	maxTotal int
	assets   map[string]*asset
	handler  http.Handler
	timers   timers

	mu      sync.Mutex
	watched map[string]*entry
	users   map[int64]int // open watches of each user
	total   int
	closed  bool
	done    chan struct{}
	pollers sync.WaitGroup
}

// New returns a Server for o; it fails when o lacks its Token or Games.
func New(o Options) (*Server, error) {
	switch {
	case o.Token == "":
		return nil, errors.New("webapp: Options.Token is empty")
	case o.Games == nil:
		return nil, errors.New("webapp: Options.Games is nil")
	}
	assets, err := loadAssets()
	if err != nil {
		return nil, err
	}
	s := &Server{games: o.Games, secret: secretKey(o.Token), maxAge: o.MaxAge, poll: o.Poll, hold: o.Hold,
		now: o.Now, log: o.Logger, perUser: o.MaxWatchesPerUser, maxTotal: o.MaxWatches, assets: assets,
		timers: realTimers, watched: map[string]*entry{}, users: map[int64]int{}, done: make(chan struct{})}
	if s.maxAge <= 0 {
		s.maxAge = DefaultMaxAge
	}
	if s.poll <= 0 {
		s.poll = DefaultPoll
	}
	if s.hold <= 0 {
		s.hold = DefaultHold
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.perUser <= 0 {
		s.perUser = DefaultMaxWatchesPerUser
	}
	if s.maxTotal <= 0 {
		s.maxTotal = DefaultMaxWatches
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveAsset("index.html"))
	mux.HandleFunc("GET /app.js", s.serveAsset("app.js"))
	mux.HandleFunc("GET /app.css", s.serveAsset("app.css"))
	mux.HandleFunc("GET /api/state", s.api(s.handleState))
	mux.HandleFunc("POST /api/move", s.api(s.handleMove))
	mux.HandleFunc("GET /api/watch", s.api(s.handleWatch))
	s.handler = mux
	return s, nil
}

// Handler serves the page at "/" and its API below it (see the package doc). Its URLs are
// relative, so it may be mounted under any prefix with http.StripPrefix; the page must then be
// reached with the trailing slash (PUBLIC_URL/app/?g=ID).
func (s *Server) Handler() http.Handler { return s.handler }

// Changed tells the Server that g changed (the bot calls it after every step of a game in this
// process): the pages watching g get its new state at once. g is not kept (a copy is).
func (s *Server) Changed(g *game.Game) {
	if g == nil {
		return
	}
	s.mu.Lock()
	e := s.watched[g.ID]
	s.mu.Unlock()
	if e != nil {
		s.offer(e, g)
	}
}

// Close ends the watches (answered 204, so that the pages reconnect, to another process or
// after a restart), refuses new ones (503) and stops the pollers. The page and the other
// requests are still served.
func (s *Server) Close() {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.done)
	}
	s.mu.Unlock()
	s.pollers.Wait()
}

// APIError is the error of an answer: a code and its text in the viewer's language.
type APIError struct {
	Code string `json:"code"`
	Text string `json:"text"`
}

// ErrorBody is the body of every error answer of the API. State, when set, is the game as it
// is now (after a refused move).
type ErrorBody struct {
	Error APIError `json:"error"`
	State *State   `json:"state,omitempty"`
}

// request is one API request whose initData is valid.
type request struct {
	w    http.ResponseWriter
	r    *http.Request
	init InitData
	user int64
	lang string
}

// api wraps an API handler: no caching, a bounded body, initData validated, the user's budget
// counted, their language chosen, and a panic turned into a 500 and a log line.
func (s *Server) api(h func(*request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		defer func() {
			if v := recover(); v != nil {
				s.log.Error("webapp: panic in a request", "path", r.URL.Path, "panic", fmt.Sprint(v))
				s.writeError(w, http.StatusInternalServerError, string(game.CodeInternal), acceptLang(r), nil)
			}
		}()
		d, err := s.authenticate(r)
		if err != nil {
			code := CodeAuthBad
			if errors.Is(err, ErrInitDataExpired) {
				code = CodeAuthExpired
			}
			s.refused(r, http.StatusUnauthorized, code, err.Error())
			s.writeError(w, http.StatusUnauthorized, code, acceptLang(r), nil)
			return
		}
		rq := &request{w: w, r: r, init: d, user: d.User.ID}
		if !s.games.Allow(r.Context(), rq.user) {
			s.refused(r, http.StatusTooManyRequests, CodeTooMany, "over the user's budget")
			s.writeError(w, http.StatusTooManyRequests, CodeTooMany, i18n.Pick(d.User.LanguageCode), nil)
			return
		}
		rq.lang = i18n.Pick(d.User.LanguageCode)
		if l := s.games.Lang(r.Context(), rq.user); l != "" {
			rq.lang = i18n.Pick(l)
		}
		h(rq)
	}
}

// authenticate validates the initData of r's Authorization header ("tma <initData>").
func (s *Server) authenticate(r *http.Request) (InitData, error) {
	h := r.Header.Get("Authorization")
	scheme, raw, ok := strings.Cut(h, " ")
	switch {
	case h == "":
		return InitData{}, bad("no Authorization header")
	case !ok || !strings.EqualFold(scheme, "tma"):
		return InitData{}, bad("the Authorization header is not \"tma <initData>\"")
	}
	return validateInitData(strings.TrimSpace(raw), s.secret, s.now(), s.maxAge)
}

// acceptLang is the language of r's Accept-Language, for the answers to requests without a
// valid user.
func acceptLang(r *http.Request) string {
	first, _, _ := strings.Cut(r.Header.Get("Accept-Language"), ",")
	first, _, _ = strings.Cut(first, ";")
	return i18n.Pick(first)
}

// refused logs a refused request for the operator (at most logBurst lines a second): the
// path, the status, the code and why, never initData.
func (s *Server) refused(r *http.Request, status int, code, why string) {
	ok, dropped := s.quiet.allow(s.now())
	if !ok {
		return
	}
	attrs := []any{"path", r.URL.Path, "status", status, "code", code, "reason", why, "remote", r.RemoteAddr}
	if dropped > 0 {
		attrs = append(attrs, "suppressed", dropped)
	}
	s.log.Warn("webapp: request refused", attrs...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) writeError(w http.ResponseWriter, status int, code, lang string, st *State) {
	writeJSON(w, status, ErrorBody{Error: APIError{Code: code, Text: errorText(lang, code)}, State: st})
}

// fail answers rq with the error code under status.
func (s *Server) fail(rq *request, status int, code string) {
	if status != http.StatusTooManyRequests {
		s.refused(rq.r, status, code, "")
	}
	s.writeError(rq.w, status, code, rq.lang, nil)
}

// gameID is the game rq names: given (the query's or the body's g) or else initData's
// start_param; ok is false when there is none, or it cannot be a game's ID.
func gameID(rq *request, given string) (string, bool) {
	id := given
	if id == "" {
		id = rq.init.StartParam
	}
	return id, game.ValidID(id)
}

// gameError answers an error of Games for game id: its code's status and text; internal
// errors are logged.
func (s *Server) gameError(rq *request, id string, err error, st *State) {
	code := game.ErrorCode(err)
	if code == game.CodeNotFound {
		code = game.CodeNoGame
	}
	status := httpStatus(code)
	if status == http.StatusInternalServerError || status == http.StatusServiceUnavailable {
		s.log.Error("webapp: game request failed", "path", rq.r.URL.Path, "game", id, "code", string(code), "err", err)
	}
	if code.Internal() {
		code = game.CodeInternal
	}
	s.writeError(rq.w, status, string(code), rq.lang, st)
}

// read returns the game id replayed, or answers the error and returns nil.
func (s *Server) read(ctx context.Context, rq *request, id string) *frame {
	snap, err := s.games.Game(ctx, id)
	if err == nil && (snap == nil || snap.Game == nil) {
		err = game.ErrNoGame
	}
	if err != nil {
		s.gameError(rq, id, err, nil)
		return nil
	}
	f, err := frameOf(snap.Game)
	if err != nil {
		s.gameError(rq, id, fmt.Errorf("%w: %v", game.ErrCorrupt, err), nil)
		return nil
	}
	if !mayView(f.g, rq.user) {
		s.fail(rq, http.StatusForbidden, CodePrivate)
		return nil
	}
	return f
}

// handleState answers api/state?g=ID: the game as the viewer sees it.
func (s *Server) handleState(rq *request) {
	id, ok := gameID(rq, rq.r.URL.Query().Get("g"))
	if !ok {
		s.fail(rq, http.StatusBadRequest, CodeMissingGame)
		return
	}
	if f := s.read(rq.r.Context(), rq, id); f != nil {
		writeJSON(rq.w, http.StatusOK, f.state(rq.user, rq.lang))
	}
}

// MoveRequest is the body of api/move.
type MoveRequest struct {
	Game   string  `json:"g"`   // the game's ID; "" means initData's start_param
	Square string  `json:"sq"`  // the square, as "d3"
	Pos    *uint64 `json:"pos"` // State.Pos of the board the player tapped: the position the move is made on
	// Ply is State.Ply of that board, which pages sent before Pos existed; a negative one is
	// refused, any other is not needed (Pos names the ply too).
	Ply *int `json:"ply,omitempty"`
	// Version is State.Version of that board, which pages send since versions told a board
	// ahead of the stored game: a stale move from a version above the stored game's is
	// answered CodeMoveLost (the store lost the writes the page showed) rather than as stale.
	Version *int64 `json:"ver,omitempty"`
}

// handleMove answers api/move: plays the move (Games.Move) and answers the new state, or the
// refusal with the state as it is now. A request without Pos (a page loaded before moves named
// their position) plays nothing: it is answered CodePageOld.
func (s *Server) handleMove(rq *request) {
	var m MoveRequest
	if err := json.NewDecoder(rq.r.Body).Decode(&m); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			s.fail(rq, http.StatusRequestEntityTooLarge, CodeTooLarge)
			return
		}
		s.fail(rq, http.StatusBadRequest, CodeBadMoveRequest)
		return
	}
	id, ok := gameID(rq, m.Game)
	if !ok {
		s.fail(rq, http.StatusBadRequest, CodeMissingGame)
		return
	}
	sq, err := engine.ParseSquare(m.Square)
	if err != nil || sq == engine.Pass || m.Ply != nil && *m.Ply < 0 {
		s.fail(rq, http.StatusBadRequest, CodeBadMoveRequest)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(rq.r.Context()), moveTimeout)
	defer cancel()
	if m.Pos == nil {
		s.refused(rq.r, http.StatusConflict, CodePageOld, "a move that names no position")
		s.writeError(rq.w, http.StatusConflict, CodePageOld, rq.lang, s.current(ctx, id, rq))
		return
	}
	snap, err := s.games.Move(ctx, id, rq.user, sq, *m.Pos)
	if err == nil && (snap == nil || snap.Game == nil) {
		err = game.ErrNoGame
	}
	if err != nil {
		st := s.current(ctx, id, rq)
		if errors.Is(err, game.ErrStale) && st != nil && m.Version != nil && *m.Version > st.Version {
			s.writeError(rq.w, http.StatusConflict, CodeMoveLost, rq.lang, st)
			return
		}
		s.gameError(rq, id, err, st)
		return
	}
	s.Changed(snap.Game) // the bot does too; the second call changes nothing
	f, err := frameOf(snap.Game)
	if err != nil {
		s.gameError(rq, id, fmt.Errorf("%w: %v", game.ErrCorrupt, err), nil)
		return
	}
	writeJSON(rq.w, http.StatusOK, f.state(rq.user, rq.lang))
}

// current is the state of game id for rq's viewer, nil when it cannot be read or seen.
func (s *Server) current(ctx context.Context, id string, rq *request) *State {
	snap, err := s.games.Game(ctx, id)
	if err != nil || snap == nil || snap.Game == nil || !mayView(snap.Game, rq.user) {
		return nil
	}
	f, err := frameOf(snap.Game)
	if err != nil {
		return nil
	}
	return f.state(rq.user, rq.lang)
}

// handleWatch answers api/watch?g=ID&after=V: the state as soon as the game's version is
// above V (at once when it is already), 204 after s.hold without one, or when the Server
// closes. A stored game whose version is below V has lost the writes the page showed (a Redis
// failover): its state is answered at once, also to a watch already waiting when the store is
// seen to go back, for the page to go back to it.
func (s *Server) handleWatch(rq *request) {
	q := rq.r.URL.Query()
	id, ok := gameID(rq, q.Get("g"))
	if !ok {
		s.fail(rq, http.StatusBadRequest, CodeMissingGame)
		return
	}
	after := int64(-1)
	if a := q.Get("after"); a != "" {
		n, ok := digits(a, 18)
		if !ok {
			s.fail(rq, http.StatusBadRequest, string(game.CodeBadRequest))
			return
		}
		after = n
	}
	e, code := s.join(id, rq.user)
	if code != "" {
		status := http.StatusTooManyRequests
		if code == CodeServerBusy {
			status = http.StatusServiceUnavailable
		}
		s.fail(rq, status, code)
		return
	}
	defer s.leave(e, rq.user)
	ctx := rq.r.Context()
	began := time.Now()
	f := s.read(ctx, rq, id)
	if f == nil {
		return
	}
	s.publishRead(e, f, began)
	if f.g.Version < after {
		if !mayView(f.g, rq.user) {
			s.fail(rq, http.StatusForbidden, CodePrivate)
			return
		}
		writeJSON(rq.w, http.StatusOK, f.state(rq.user, rq.lang))
		return
	}
	held, stop := s.timers.timer(s.hold)
	defer stop()
	for {
		cur, wake := s.latest(e)
		// Below after only when the store went back since the watch began (publishRead).
		if cur.g.Version != after {
			if !mayView(cur.g, rq.user) {
				s.fail(rq, http.StatusForbidden, CodePrivate)
				return
			}
			writeJSON(rq.w, http.StatusOK, cur.state(rq.user, rq.lang))
			return
		}
		select {
		case <-wake:
		case <-held:
			rq.w.WriteHeader(http.StatusNoContent)
			return
		case <-s.done:
			rq.w.WriteHeader(http.StatusNoContent)
			return
		case <-ctx.Done():
			return
		}
	}
}

// logBurst is how many refusals a second the log gets; the rest are counted, and the next
// line logged says how many were left out.
const logBurst = 20

// logLimit spaces log lines: at most logBurst in a second.
type logLimit struct {
	mu      sync.Mutex
	start   time.Time
	n       int
	dropped int
}

// allow reports whether a line may be logged at now, and how many were left out before it.
func (l *logLimit) allow(now time.Time) (bool, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.start) >= time.Second || now.Before(l.start) {
		l.start, l.n = now, 0
	}
	if l.n >= logBurst {
		l.dropped++
		return false, 0
	}
	l.n++
	d := l.dropped
	l.dropped = 0
	return true, d
}
