package telegramtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

// DefaultToken is the bot token a Server accepts unless [WithToken] says otherwise.
const DefaultToken = "7000000001:AAFakeTokenForTelegramTestServer0000"

// DefaultBotUsername is the bot's username unless [WithBotUsername] says otherwise.
const DefaultBotUsername = "ReversiTestBot"

// ServerOption configures a Server.
type ServerOption func(*config)

type config struct {
	addr            string
	token           string
	botUsername     string
	botName         string
	privacy         bool
	now             func() time.Time
	webhookAttempts int
	webhookBackoff  time.Duration
	callbackTTL     time.Duration
	callLogSize     int
	flood           *FloodLimits
}

// WithToken sets the only token the server accepts; requests with another
// token get 401 Unauthorized. The bot's user id is the number before the colon.
func WithToken(token string) ServerOption { return func(c *config) { c.token = token } }

// WithBotUsername sets the username getMe reports and that deep links
// (t.me/<username>?start=...) and /cmd@<username> are matched against.
func WithBotUsername(username string) ServerOption {
	return func(c *config) { c.botUsername = username }
}

// WithAddr makes the server listen on addr (for example "127.0.0.1:8081")
// instead of a random loopback port.
func WithAddr(addr string) ServerOption { return func(c *config) { c.addr = addr } }

// WithPrivacyMode sets the bot's group privacy mode (on by default, as in
// Telegram): when on, the bot receives from groups only messages that start
// with a command (for this bot or for no bot in particular).
func WithPrivacyMode(on bool) ServerOption { return func(c *config) { c.privacy = on } }

// WithClock sets the clock used for message dates and callback query expiry.
func WithClock(now func() time.Time) ServerOption { return func(c *config) { c.now = now } }

// WithWebhookRetry sets how often a webhook delivery is tried before the
// update is dropped (attempts ≥ 1) and the pause after the first failure,
// doubled after every further failure. The default is 5 attempts from 10ms.
func WithWebhookRetry(attempts int, backoff time.Duration) ServerOption {
	return func(c *config) {
		if attempts < 1 {
			attempts = 1
		}
		c.webhookAttempts, c.webhookBackoff = attempts, backoff
	}
}

// WithCallbackTTL makes answerCallbackQuery fail as "query is too old" when
// called more than ttl after the query was sent (by the server's clock). The
// default 0 means queries never expire, which keeps slow -race runs stable.
func WithCallbackTTL(ttl time.Duration) ServerOption { return func(c *config) { c.callbackTTL = ttl } }

// Server is a fake Telegram Bot API server. Create it with [New] or [Start]
// and stop it with [Server.Close].
type Server struct {
	cfg     config
	botUser models.User
	url     string
	ln      net.Listener
	hs      *http.Server
	done    chan struct{}
	wg      sync.WaitGroup
	whc     *http.Client

	closeOnce sync.Once

	mu sync.Mutex
	st state
}

// New starts a server on a loopback port and returns it. It panics only if no
// port can be opened, which is a broken test machine, not a test failure.
func New(opts ...ServerOption) *Server {
	s, err := Listen(opts...)
	if err != nil {
		panic(fmt.Sprintf("telegramtest: %v", err))
	}
	return s
}

// Start is [New] for tests: it fails tb if the server cannot listen and
// closes the server when the test ends.
func Start(tb testing.TB, opts ...ServerOption) *Server {
	tb.Helper()
	s, err := Listen(opts...)
	if err != nil {
		tb.Fatalf("telegramtest: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Listen starts a server and returns an error when it cannot listen.
func Listen(opts ...ServerOption) (*Server, error) {
	cfg := config{
		addr:            "127.0.0.1:0",
		token:           DefaultToken,
		botUsername:     DefaultBotUsername,
		botName:         "Reversi",
		privacy:         true,
		now:             time.Now,
		webhookAttempts: 5,
		webhookBackoff:  10 * time.Millisecond,
		callLogSize:     10000,
	}
	for _, o := range opts {
		o(&cfg)
	}
	botID, err := strconv.ParseInt(strings.SplitN(cfg.token, ":", 2)[0], 10, 64)
	if err != nil || botID <= 0 {
		return nil, fmt.Errorf("token %q does not start with a bot id", cfg.token)
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg: cfg,
		botUser: models.User{
			ID: botID, IsBot: true, FirstName: cfg.botName, Username: cfg.botUsername,
			CanJoinGroups: true, SupportInlineQueries: true,
		},
		url:  "http://" + ln.Addr().String(),
		ln:   ln,
		done: make(chan struct{}),
		whc:  &http.Client{Timeout: 10 * time.Second},
	}
	s.st.init()
	if cfg.flood != nil {
		s.st.flood = newFlood(*cfg.flood)
	}
	s.hs = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		_ = s.hs.Serve(ln) // returns http.ErrServerClosed after Close
	}()
	go s.webhookLoop()
	return s, nil
}

// URL is the base URL to give a client: http://127.0.0.1:PORT (no trailing slash).
func (s *Server) URL() string { return s.url }

// Token is the token the server accepts.
func (s *Server) Token() string { return s.cfg.token }

// Bot is the bot's own user, as getMe reports it.
func (s *Server) Bot() models.User { return s.botUser }

// Close ends pending long polls, stops webhook delivery, closes all
// connections and waits for the server's goroutines. It is idempotent.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.st.closed = true
		s.st.fireAll()
		s.mu.Unlock()
		close(s.done)
		_ = s.hs.Close()
		s.wg.Wait()
	})
}

// apiError is an error answer of the Bot API.
type apiError struct {
	code       int
	desc       string
	retryAfter int
	migrateTo  int64 // parameters.migrate_to_chat_id (migrate.go), 0 for none
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.code, e.desc) }

func badRequest(format string, a ...any) *apiError {
	return &apiError{code: http.StatusBadRequest, desc: "Bad Request: " + fmt.Sprintf(format, a...)}
}

func forbidden(desc string) *apiError {
	return &apiError{code: http.StatusForbidden, desc: "Forbidden: " + desc}
}

var (
	errNotFound     = &apiError{code: http.StatusNotFound, desc: "Not Found"}
	errUnauthorized = &apiError{code: http.StatusUnauthorized, desc: "Unauthorized"}
	errChatNotFound = badRequest("chat not found")
	errQueryInvalid = badRequest("query is too old and response timeout expired or query ID is invalid")
	errNotModified  = badRequest("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
)

// ServeHTTP answers one Bot API request. The server is an http.Handler so it
// can also be mounted in-process.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/")
	if !strings.HasPrefix(path, "bot") {
		writeError(w, errNotFound)
		return
	}
	token, method, ok := strings.Cut(strings.TrimPrefix(path, "bot"), "/")
	if !ok || method == "" || strings.Contains(method, "/") {
		writeError(w, errNotFound)
		return
	}
	if token != s.cfg.token {
		writeError(w, errUnauthorized)
		return
	}
	req, perr := parseRequest(r)
	key := strings.ToLower(method)
	h, known := handlers[key]
	name := method
	if known {
		name = h.name
	}

	s.mu.Lock()
	seq := s.st.nextSeq()
	s.st.calls[name]++
	call := Call{Seq: seq, Method: name, Params: req.summary()}
	var fault *apiError
	switch {
	case !known:
		fault = errNotFound
	case perr != nil:
		fault = perr
	default:
		fault = s.st.takeFault(name)
	}
	if f := s.st.flood; fault == nil && f != nil {
		if key, ok := s.floodKeyLocked(name, req); ok {
			fault = f.admit(key, s.cfg.now())
		}
	}
	s.mu.Unlock()

	var result any
	err := fault
	if err == nil {
		err = checkCall(name, req) // spec.go: what the Bot API's description forbids
	}
	if err == nil {
		result, err = h.fn(s, r.Context(), req)
	}
	if err != nil {
		call.Code, call.Description = err.code, err.desc
	} else {
		call.Code = http.StatusOK
	}
	s.mu.Lock()
	s.st.logCall(call, s.cfg.callLogSize)
	s.notifyLocked()
	s.mu.Unlock()

	if err != nil {
		writeError(w, err)
		return
	}
	writeResult(w, result)
}

func writeError(w http.ResponseWriter, e *apiError) {
	body := struct {
		OK          bool   `json:"ok"`
		ErrorCode   int    `json:"error_code"`
		Description string `json:"description"`
		Parameters  *struct {
			RetryAfter int   `json:"retry_after,omitempty"`
			MigrateTo  int64 `json:"migrate_to_chat_id,omitempty"`
		} `json:"parameters,omitempty"`
	}{ErrorCode: e.code, Description: e.desc}
	if e.retryAfter > 0 || e.migrateTo != 0 {
		body.Parameters = &struct {
			RetryAfter int   `json:"retry_after,omitempty"`
			MigrateTo  int64 `json:"migrate_to_chat_id,omitempty"`
		}{e.retryAfter, e.migrateTo}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.code)
	_ = json.NewEncoder(w).Encode(body)
}

// writeResult answers {"ok":true,"result":result}. A json.RawMessage result is a message
// that messageJSONLocked encoded (with encoding/json), which goes into the answer as it is:
// encoding/json would only check it and copy it again.
func writeResult(w http.ResponseWriter, result any) {
	raw, ok := result.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(result); err != nil {
			writeError(w, &apiError{code: http.StatusInternalServerError, desc: "Internal Server Error: " + err.Error()})
			return
		}
	}
	const head, tail = `{"ok":true,"result":`, "}"
	h := w.Header()
	h["Content-Type"] = []string{"application/json"}
	h["Content-Length"] = []string{strconv.Itoa(len(head) + len(raw) + len(tail))} // not chunked
	_, _ = io.WriteString(w, head)
	_, _ = w.Write(raw)
	_, _ = io.WriteString(w, tail)
}

// FailNext makes the next n calls of method (Telegram's spelling, case does
// not matter; "*" means any method) fail before they take effect, with HTTP
// status and error_code code. A 429 carries parameters.retry_after =
// retryAfter and the description "Too Many Requests: retry after N"; other
// codes carry Telegram's usual description for them. Faults queue up: a
// later FailNext adds to the earlier ones.
func (s *Server) FailNext(method string, n int, code int, retryAfter int) {
	name := canonicalMethod(method)
	e := &apiError{code: code}
	switch {
	case code == http.StatusTooManyRequests:
		e.retryAfter = retryAfter
		e.desc = fmt.Sprintf("Too Many Requests: retry after %d", retryAfter)
	case code == http.StatusBadRequest:
		e.desc = "Bad Request: injected fault"
	case code == http.StatusForbidden:
		e.desc = "Forbidden: injected fault"
	default:
		e.desc = http.StatusText(code)
		if e.desc == "" {
			e.desc = "Error " + strconv.Itoa(code)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.st.faults[name] = append(s.st.faults[name], e)
	}
}

func canonicalMethod(method string) string {
	if method == "*" {
		return "*"
	}
	if h, ok := handlers[strings.ToLower(method)]; ok {
		return h.name
	}
	return method
}

// Call is one request the server received, in the order of Seq.
type Call struct {
	// Seq orders calls, messages and answers: a larger Seq happened later.
	Seq int64
	// Method is the method's canonical name (sendMessage), or the name as
	// sent when the method is unknown.
	Method string
	// Params are the request's fields as text; an uploaded file appears as
	// "<file NAME, N bytes>".
	Params map[string]string
	// Code is 200 for success, else the error_code returned.
	Code int
	// Description is the error description, empty on success.
	Description string
}

// Calls is how many requests of method the server has received, including
// failed ones. method is case-insensitive.
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().Calls(method)
}

// CallLog returns the recent requests (at least the last 10000), oldest first.
func (s *Server) CallLog() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().CallLog()
}

// notifyLocked wakes every WaitFor; s.mu must be held.
func (s *Server) notifyLocked() { s.st.fire(anyKey) }

// ErrClosed is returned by waits when the server was closed.
var ErrClosed = errors.New("telegramtest: server closed")

// WaitFor blocks until pred, called with a consistent view of the state,
// returns true, and then returns nil. It re-checks after every change of
// the state. It returns ctx's error (wrapped) when ctx ends first and
// ErrClosed when the server is closed. pred must only use the View, never the
// Server's own methods (that would deadlock).
func (s *Server) WaitFor(ctx context.Context, pred func(v View) bool) error {
	return s.waitKey(ctx, anyKey, pred)
}

// WaitMessage waits until chat chatID holds a message sent by the bot for
// which pred returns true (pred nil matches any), and returns the newest such
// message. Messages already there count. It is woken only by changes in that chat.
func (s *Server) WaitMessage(ctx context.Context, chatID int64, pred func(ChatMessage) bool) (ChatMessage, error) {
	var found ChatMessage
	err := s.WaitChat(ctx, chatID, func(v View) bool {
		c := v.st.chats[chatID]
		if c == nil {
			return false
		}
		for i := len(c.msgs) - 1; i >= 0; i-- {
			if m := c.msgs[i]; m.fromBot && !m.deleted {
				if snap := m.snapshot(); pred == nil || pred(snap) {
					found = snap
					return true
				}
			}
		}
		return false
	})
	if err != nil {
		return ChatMessage{}, fmt.Errorf("no matching bot message in chat %d: %w", chatID, err)
	}
	return found, nil
}

// WaitCallbackAnswer waits until the bot has answered callback query id. It is
// woken only by that answer.
func (s *Server) WaitCallbackAnswer(ctx context.Context, id string) (CallbackAnswer, error) {
	var a CallbackAnswer
	err := s.waitKey(ctx, queryKey(id), func(v View) bool {
		var ok bool
		a, ok = v.CallbackAnswer(id)
		return ok && a.Answered
	})
	if err != nil {
		return CallbackAnswer{}, fmt.Errorf("callback query %q not answered: %w", id, err)
	}
	return a, nil
}

// WaitInlineAnswer waits until the bot has answered inline query id.
func (s *Server) WaitInlineAnswer(ctx context.Context, id string) (InlineAnswer, error) {
	var a InlineAnswer
	err := s.WaitFor(ctx, func(v View) bool {
		var ok bool
		a, ok = v.InlineAnswer(id)
		return ok && a.Answered
	})
	if err != nil {
		return InlineAnswer{}, fmt.Errorf("inline query %q not answered: %w", id, err)
	}
	return a, nil
}

// WaitIdle waits until every queued update has been taken by the bot
// (confirmed by a later getUpdates offset, or delivered to the webhook).
// It does not mean the bot has finished handling them.
func (s *Server) WaitIdle(ctx context.Context) error {
	return s.WaitFor(ctx, func(v View) bool { return v.PendingUpdates() == 0 })
}
