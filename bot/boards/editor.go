// Package boards keeps a game's board messages up to date: the Editor posts a board, edits it
// whenever the game changes, and makes sure that what a message shows in the end is the
// newest state of its game, whatever order the edits land in and however many bot processes
// draw into it.
//
//   - Coalescing: the edits of one message run one after the other, and while one is on its
//     way newer requests for that message replace each other, so only the newest is sent
//     next. A request names a game, not a content: the board is drawn from the store when the
//     edit is sent (and again when a 429 made it wait), so it is never sent out of date.
//   - Pacing: with Options.Pacer, the edit queue of a message waits for its chat's budget
//     before it takes the newest request (so all the requests that come while it waits
//     collapse into one), then draws from a fresh read and sends with the unit it was given
//     (Pacer.Paid). A board that shows a player it is their move (botapi.PaceTurn) goes
//     before the chat's other boards, and every board before the chat's infos. Granted tells a
//     tapper's handler when the board of its step goes out, so that its answer can say
//     whether the board is late.
//   - Shared reads: the edits of one step (all the boards of a game, redrawn after a move)
//     share one store read and one replay of the game.
//   - The cross-process recheck: another process may draw a newer state into the same
//     messages while an edit of ours, drawn from an older one, is on its way and lands last.
//     So shortly after a step's edits have landed the Editor reads the game's version once
//     more and draws again every board drawn from an older version, unless a newer edit of
//     its own has drawn it since.
//   - The drawn record (Options.Drawings, shared by the processes): right before an edit of
//     a board leaves, the Editor asks the record of its message (game.Drawings.BeginDraw).
//     The edits of one message are serialised across processes by a short lease, so two
//     processes' edits never race on their way to Telegram; a drawing older than the one
//     the message shows is never sent, nor one equal to it (the redundant edit Telegram
//     would refuse as "not modified"). An edit that finds the message busy leaves its wish
//     in the record: the edit on its way draws the message again from a fresh read once it
//     has landed, and the busy edit's recheck covers a holder that died.
//
// The Editor knows neither the store nor how a board looks: Options give it a Reader, the
// content of a board (Options.Content), the board-style policy and the Bot API client.
package boards

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// Content is what one board message shows. Its text is sent as it is: the caller keeps it
// within Telegram's limits (4096 UTF-16 units for a text, 1024 for a photo's caption).
type Content = present.Content

// API is the part of the Bot API client (bot/botapi.Client) the Editor calls.
type API interface {
	SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error)
	SendPhoto(ctx context.Context, p *tgbot.SendPhotoParams) (*models.Message, error)
	EditMessageText(ctx context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error)
	EditMessageMedia(ctx context.Context, p *tgbot.EditMessageMediaParams) (*models.Message, error)
	EditMessageCaption(ctx context.Context, p *tgbot.EditMessageCaptionParams) (*models.Message, error)
	EditMessageReplyMarkup(ctx context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error)
	// Retry runs fn, a step safe to repeat that makes its calls through a client's Once
	// view, and runs it again as a failed call would be tried again (botapi.Client.Retry).
	Retry(ctx context.Context, fn func() error) error
}

// Reader reads games for drawing their boards (game.Service implements it).
type Reader interface {
	// Lookup returns game id as stored; game.ErrNotFound when there is none.
	Lookup(ctx context.Context, id string) (*game.Game, error)
	// GameAndStyles returns game id together with the board style each of users has chosen,
	// in one round trip. When the game cannot be read g is nil and err says why; when only a
	// style cannot be read, g comes back with err, and that style is game.StyleButtons.
	GameAndStyles(ctx context.Context, id string, users ...int64) (g *game.Game, styles []game.Style, err error)
}

// Options configures an Editor. All but Logger, Context, Work and AfterFunc are required.
type Options struct {
	// API makes the calls of Post, Edit and EditKeyboard, tried again as the client decides,
	// and repeats the queued board edits (API.Retry).
	API API
	// Once makes each call of a queued board edit once: the Editor repeats the whole edit
	// (read, draw, send) with API.Retry, so that a board a 429 held back is drawn afresh.
	Once API
	// Reader reads the games whose boards are drawn.
	Reader Reader
	// Content is what the board message ref of g shows in style, with hint shown as the move
	// suggested to the player to move (engine.Pass: none; see ShowHint). eg is g's replay,
	// shared by the boards of one read (Content must not change it); nil for a lobby, or when
	// the Editor has not replayed g (then Content replays it if it needs to).
	Content func(g *game.Game, eg *engine.Game, ref game.MessageRef, style game.Style, hint engine.Square) (Content, error)
	// StyleUser is whose /style choice the board message ref of g follows: fixed when that
	// board is always drawn as buttons, else the user, 0 when it follows g.Style. The Editor
	// reads that user's style along with the game.
	StyleUser func(g *game.Game, ref game.MessageRef) (user int64, fixed bool)
	// StyleOf is the style of the board message ref of g, reading it on its own: for a board
	// whose style the read of its step did not include.
	StyleOf func(ctx context.Context, g *game.Game, ref game.MessageRef) game.Style
	// AddBoard records ref as a board message of game id (game.Service.AddBoard).
	AddBoard func(ctx context.Context, id string, ref game.MessageRef) (*game.Game, error)

	// Logger gets a line for each edit that failed; nil discards.
	Logger *slog.Logger
	// Context is the context queued edits run in: when it ends they give up, and no
	// recheck starts. nil means context.Background().
	Context context.Context
	// Work counts the Editor's goroutines (queued edits, rechecks to come), so that the owner
	// can wait for them before it stops; nil means the Editor counts them on its own.
	Work *sync.WaitGroup
	// AfterFunc runs f in its own goroutine once d has passed; nil means time.AfterFunc.
	AfterFunc func(d time.Duration, f func())
	// Pacer paces the queued edits (see the package documentation); it should be the one
	// API's client paces with. nil: queued edits go at once.
	Pacer *botapi.Pacer
	// Drawings is the record of what each board message shows, shared by every process that
	// draws into the same messages (see the package documentation). nil: no record, as
	// with one process, where the message's queue alone orders its edits. When a call
	// fails the edit goes as without a record; the Editor logs that only at debug level, so
	// the record should log its own outages (once, not once per edit).
	Drawings game.Drawings
}

// Editor posts and edits the board messages of games (see the package documentation). Its
// methods are safe for concurrent use.
type Editor struct {
	o     Options
	log   *slog.Logger
	base  context.Context
	work  *sync.WaitGroup
	after func(d time.Duration, f func())

	mu    sync.Mutex
	slots map[string]*slot // by key: the messages with an edit running
	// latest is, by key, the newest batch that drew each board and has its recheck
	// (batch.landed) to come.
	latest map[string]*batch

	tokens tokens // name the edits in Options.Drawings
	// styleWarn logs a style that could not be read: in a store outage every edit meets one.
	styleWarn warnEvery
}

// slot is the edit queue of one message: at most one edit running, at most one waiting.
type slot struct {
	pending job             // the edit to run next; nil when none waits
	kind    botapi.PaceKind // pending's
	running bool            // the slot's goroutine runs (an edit, or the wait for budget)
	grants  []chan struct{} // closed when the next edit has its budget (Granted)
}

// job is one queued edit; waited tells it whether it had to wait for an earlier edit of its
// message to end (a board edit that did draws from a read of its own, see batch.read).
type job func(ctx context.Context, waited bool)

// Timeouts of the Editor's work.
const (
	// editTimeout bounds one queued edit, its retries included.
	editTimeout = 2 * botapi.MaxRetryAfter
	// checkTimeout bounds one recheck (a read and the scheduling of redraws).
	checkTimeout = 10 * time.Second
)

// New returns an Editor working with o's parts.
func New(o Options) *Editor {
	e := &Editor{o: o, log: o.Logger, base: o.Context, work: o.Work, after: o.AfterFunc,
		slots: make(map[string]*slot), latest: make(map[string]*batch), tokens: newTokens()}
	if e.log == nil {
		e.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if e.base == nil {
		e.base = context.Background()
	}
	if e.work == nil {
		e.work = new(sync.WaitGroup)
	}
	if e.after == nil {
		e.after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	return e
}

// key names the message ref in the Editor's maps.
func key(ref game.MessageRef) string {
	if ref.InlineID != "" {
		return "i:" + ref.InlineID
	}
	return strconv.FormatInt(ref.ChatID, 10) + ":" + strconv.Itoa(ref.MessageID)
}

// Queue makes do the next edit of the message ref and returns at once. do runs after the edit
// of ref on its way, if any, and replaces an edit of ref that waits to start (only the newest
// request of a message is carried out). With a Pacer it runs once ref's chat has budget for a
// board (botapi.PaceBoard), and its first send or edit into that chat spends it. Its context
// ends after editTimeout or when Options.Context does; a panic in do is logged.
func (e *Editor) Queue(ref game.MessageRef, do func(ctx context.Context)) {
	e.queue(ref, botapi.PaceBoard, func(ctx context.Context, _ bool) { do(ctx) })
}

// queue is Queue of a job of the kind. A job that waited for budget counts as one that waited
// (it draws from a fresh read).
func (e *Editor) queue(ref game.MessageRef, kind botapi.PaceKind, do job) {
	k := key(ref)
	e.mu.Lock()
	s := e.slots[k]
	if s == nil {
		s = &slot{}
		e.slots[k] = s
	}
	s.pending, s.kind = do, kind
	if s.running {
		e.mu.Unlock()
		return
	}
	s.running = true
	e.mu.Unlock()
	e.work.Add(1)
	go func() {
		defer e.work.Done()
		for waited := false; ; waited = true {
			e.mu.Lock()
			if s.pending == nil { // and so no grant waits: Granted adds one only beside a pending edit
				s.running = false
				delete(e.slots, k)
				e.mu.Unlock()
				return
			}
			kind := s.kind
			e.mu.Unlock()
			paid, paced, ok := e.pace(ref, kind)
			e.mu.Lock()
			do := s.pending
			s.pending = nil
			grants := s.grants
			s.grants = nil
			e.mu.Unlock()
			closeAll(grants)
			if !ok {
				continue // the Editor stops: the edit is dropped
			}
			e.run(do, waited || paced, ref, kind, paid)
		}
	}()
}

// pace waits for the budget of ref's chat for an edit of the kind. paid reports that the edit
// has its unit (Pacer.Paid), paced that it had to wait for it; ok is false when the
// Editor's context ended meanwhile or the Pacer stopped (botapi.ErrStopping): the edit is
// dropped. A wait that fails otherwise (the budgets unreachable, or
// editTimeout passed) lets the edit go unpaid: the client paces it again, or a 429 guards it.
func (e *Editor) pace(ref game.MessageRef, kind botapi.PaceKind) (paid, paced, ok bool) {
	if e.o.Pacer == nil {
		return false, false, true
	}
	ctx, cancel := context.WithTimeout(e.base, editTimeout)
	defer cancel()
	paced, err := e.o.Pacer.Wait(ctx, chatOf(ref), kind)
	switch {
	case err == nil:
		return true, paced, true
	case e.base.Err() != nil:
		return false, paced, false
	case errors.Is(err, botapi.ErrStopping):
		// The process stops: the board is left as it is, to be redrawn from the store by the
		// next step of its game or the next tap on it (see botapi.ErrStopping).
		e.log.Debug("edit: dropped, the process stops", "chat", chatOf(ref).String())
		return false, paced, false
	}
	e.log.Warn("edit: pace", "err", err)
	return false, true, true
}

// chatOf is the budget key of the chat of the message ref.
func chatOf(ref game.MessageRef) botapi.ChatKey {
	if ref.InlineID != "" {
		return botapi.InlineOf(ref.InlineID)
	}
	return botapi.ChatOf(ref.ChatID)
}

// closeAll closes each channel of cs.
func closeAll(cs []chan struct{}) {
	for _, c := range cs {
		close(c)
	}
}

// closed is a channel that is closed.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Granted returns a channel that is closed once the edit of ref queued last (by this
// goroutine, or a newer one that replaced it) has its budget and starts: at once when no
// edit of ref waits to start. A handler that has just queued a board's edit (Refresh) can
// wait on it a moment to learn whether the board goes out now or is held back by the flood
// limits.
func (e *Editor) Granted(ref game.MessageRef) <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.slots[key(ref)]
	if s == nil || s.pending == nil {
		return closed
	}
	c := make(chan struct{})
	s.grants = append(s.grants, c)
	return c
}

// InFlight returns how many board messages have an edit running or waiting in this Editor,
// and how many of those have an edit waiting to start (for their chat's budget, or behind the
// edit on its way); a process that stops names them in its log.
func (e *Editor) InFlight() (edits, waiting int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.slots {
		edits++
		if s.pending != nil {
			waiting++
		}
	}
	return edits, waiting
}

// Pending reports whether an edit of ref is on its way or waits in this Editor: the message
// is about to be redrawn.
func (e *Editor) Pending(ref game.MessageRef) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.slots[key(ref)] != nil
}

// run runs one job with its own context, of the kind and, when paid, carrying the unit of ref's
// chat its wait was given; it logs a panic.
func (e *Editor) run(do job, waited bool, ref game.MessageRef, kind botapi.PaceKind, paid bool) {
	ctx, cancel := context.WithTimeout(e.base, editTimeout)
	defer cancel()
	ctx = botapi.WithPaceKind(ctx, kind)
	if paid {
		var giveBack func()
		ctx, giveBack = e.o.Pacer.Paid(ctx, chatOf(ref))
		defer giveBack()
	}
	defer func() {
		if r := recover(); r != nil {
			e.log.Error("panic in edit", "panic", r)
		}
	}()
	do(ctx, waited)
}

// waiting reports whether an edit of ref waits to start in this Editor. Such an edit reads
// the store when it starts, so it draws at least the state the store has now. (An edit
// running now may have read the store before, and may be the very edit a recheck checks.)
func (e *Editor) waiting(ref game.MessageRef) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.slots[key(ref)]
	return s != nil && s.pending != nil
}

// Edit replaces the content of the message ref with c now, outside the message's queue (for
// messages that are no boards: menus, answers). "Message is not modified" is success, and so
// is the `true` an inline edit returns.
func (e *Editor) Edit(ctx context.Context, ref game.MessageRef, c Content) error {
	return edit(ctx, e.o.API, ref, c)
}

// EditKeyboard replaces only the keyboard of the message ref (nil removes it), now.
func (e *Editor) EditKeyboard(ctx context.Context, ref game.MessageRef, kb *models.InlineKeyboardMarkup) error {
	p := &tgbot.EditMessageReplyMarkupParams{InlineMessageID: ref.InlineID, ReplyMarkup: botapi.Markup(kb)}
	if ref.InlineID == "" {
		p.ChatID, p.MessageID = ref.ChatID, ref.MessageID
	}
	_, err := e.o.API.EditMessageReplyMarkup(ctx, p)
	return err
}

// edit edits the message ref to show c through api: its photo by editMessageMedia (an upload
// in a chat; in an inline message, which cannot take one, the picture at c.PhotoURL), else
// its text; c's entities go with the caption or the text. A text for a message that shows a
// picture (an inline invitation to a large board, say) becomes its caption.
func edit(ctx context.Context, api API, ref game.MessageRef, c Content) error {
	var err error
	switch {
	case c.Photo != nil && ref.InlineID == "":
		_, err = api.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{ChatID: ref.ChatID,
			MessageID: ref.MessageID, ReplyMarkup: botapi.Markup(c.Keyboard),
			Media: &models.InputMediaPhoto{Media: "attach://board.png", Caption: c.Text,
				CaptionEntities: c.Entities, MediaAttachment: bytes.NewReader(c.Photo)}})
		return err
	case c.PhotoURL != "" && ref.InlineID != "":
		_, err = api.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{InlineMessageID: ref.InlineID,
			ReplyMarkup: botapi.Markup(c.Keyboard),
			Media:       &models.InputMediaPhoto{Media: c.PhotoURL, Caption: c.Text, CaptionEntities: c.Entities}})
		return err
	}
	p := &tgbot.EditMessageTextParams{InlineMessageID: ref.InlineID, Text: c.Text, Entities: c.Entities,
		ReplyMarkup: botapi.Markup(c.Keyboard)}
	if ref.InlineID == "" {
		p.ChatID, p.MessageID = ref.ChatID, ref.MessageID
	}
	_, err = api.EditMessageText(ctx, p)
	if err != nil && c.Photo == nil && strings.Contains(err.Error(), noTextToEdit) {
		_, err = api.EditMessageCaption(ctx, &tgbot.EditMessageCaptionParams{InlineMessageID: ref.InlineID,
			ChatID: p.ChatID, MessageID: p.MessageID, Caption: c.Text, CaptionEntities: c.Entities,
			ReplyMarkup: p.ReplyMarkup})
	}
	return err
}

// noTextToEdit is how Telegram refuses to edit the text of a message that shows a picture.
const noTextToEdit = "there is no text in the message to edit"

// Has reports whether ref is one of g's board messages.
func Has(g *game.Game, ref game.MessageRef) bool {
	for _, r := range g.Boards {
		if r == ref {
			return true
		}
	}
	return false
}

// Chats returns the chats where the boards of a new game g are posted: each player's private
// chat in an invitation or a match, none for an inline game (its board is the inline message),
// else the game's chat.
func Chats(g *game.Game) []int64 {
	switch g.Flow {
	case game.FlowInvite, game.FlowMatch:
		var out []int64
		for _, p := range g.Players {
			if p.ChatID != 0 {
				out = append(out, p.ChatID)
			}
		}
		return out
	case game.FlowInline:
		return nil
	}
	if g.ChatID != 0 {
		return []int64{g.ChatID}
	}
	return nil
}
