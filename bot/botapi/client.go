// Package botapi makes the bot's calls to the Telegram Bot API. Every call but getUpdates
// goes through go-telegram/bot's methods; on top of them a Client adds what a bot needs
// around each call:
//
//   - a 429 is tried again once its retry_after has passed (at most MaxRetries times, each
//     wait at most MaxRetryAfter, never past the context's deadline);
//   - a call that is safe to repeat (an edit, an answer, a setting) is tried again after a
//     5xx reply or a network error (at most transientRetries times, after a short backoff);
//     a send is not, as the first attempt may have been delivered;
//   - every error is an *Error: the method, the HTTP status, its Kind (classified with
//     errors.Is and errors.As on the library's exported errors), and a text without the
//     bot's token; errors.Is and errors.As see the library's error inside;
//   - a call on a group that became a supergroup (400 with migrate_to_chat_id) tells
//     Options.OnMigrate, and a send is made again, once, in the supergroup (migrate.go);
//   - an edit that changes nothing ("message is not modified") is a success, and so is the
//     `true` that Telegram answers to an edit of an inline message (which the library
//     fails to decode into a Message);
//   - getUpdates is a small request of its own on encoding/json (GetUpdates), which
//     confirms nothing by itself: the caller chooses when to advance the offset, after it
//     has taken the updates (the library's own polling confirms them before). Its updates,
//     and a webhook's (DecodeUpdate), are models.Update with a tapped message cut down to
//     its id, date and chat, which spares decoding the keyboard of every tap.
package botapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// DefaultServerURL is Telegram's Bot API server, used when Options.ServerURL is empty.
const DefaultServerURL = "https://api.telegram.org"

// Options configures a Client. Token is required.
type Options struct {
	// Token is the bot's token from BotFather. No error or log line of the Client shows it.
	Token string
	// ServerURL is the Bot API server's base URL; "" means DefaultServerURL.
	ServerURL string
	// HTTPClient makes the requests; nil means a client with a one-minute timeout. Its
	// timeout must outlast the long-polling timeout given to GetUpdates.
	HTTPClient *http.Client
	// Logger gets the library's own errors and the updates GetUpdates had to leave out;
	// nil discards.
	Logger *slog.Logger
	// OnError is told of every failed attempt of a call (not of those that count as a
	// success, nor of those cut off by the caller's context); nil tells no one.
	OnError func(method string, kind Kind)
	// Pacer keeps the sends and edits inside Telegram's flood limits (see pace.go): each
	// attempt of one waits for its chat's budget first. nil paces nothing.
	Pacer *Pacer
	// OnMigrate is told when a call on group chat from was refused because the group became
	// the supergroup to (KindMigrated); it must return quickly. nil tells no one.
	OnMigrate func(from, to int64)
	// Stop, once closed, ends the waits for a 429's retry_after at once (the call fails with
	// the 429), as PaceOptions.Stop ends the Pacer's: give both the same channel. nil never
	// stops.
	Stop <-chan struct{}
}

// Client makes Bot API calls. Its methods are those of go-telegram/bot's Bot (same names,
// parameters and results), with retries, error kinds and the fixes described in the package
// documentation. It is safe for concurrent use.
type Client struct {
	*shared
	once bool // make each call once: no retries
}

// shared is what a Client and its Once view have in common.
type shared struct {
	tg      *tgbot.Bot
	http    *http.Client
	url     string // base URL + "/bot" + token + "/"
	token   string
	log     *slog.Logger
	onError func(method string, kind Kind)
	pacer   *Pacer
	migrate func(from, to int64) // Options.OnMigrate
	stop    <-chan struct{}      // Options.Stop
}

// DefaultHTTPTimeout bounds one request of a Client made without Options.HTTPClient.
const DefaultHTTPTimeout = time.Minute

// New returns a Client for the bot with the token. It makes no request.
func New(o Options) (*Client, error) {
	if strings.TrimSpace(o.Token) == "" {
		return nil, errors.New("botapi: empty token")
	}
	s := &shared{http: o.HTTPClient, token: o.Token, log: o.Logger, onError: o.OnError, pacer: o.Pacer,
		migrate: o.OnMigrate, stop: o.Stop}
	if s.http == nil {
		s.http = &http.Client{Timeout: DefaultHTTPTimeout}
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	base := strings.TrimRight(o.ServerURL, "/")
	if base == "" {
		base = DefaultServerURL
	}
	s.url = base + "/bot" + o.Token + "/"
	tg, err := tgbot.New(o.Token,
		tgbot.WithSkipGetMe(),
		tgbot.WithServerURL(base),
		tgbot.WithHTTPClient(s.http.Timeout, statusRecorder{s.http}),
		tgbot.WithErrorsHandler(func(err error) {
			if !errors.Is(err, context.Canceled) {
				s.log.Warn("telegram", "err", s.scrub(err.Error()))
			}
		}))
	if err != nil {
		return nil, fmt.Errorf("botapi: %s", s.scrub(err.Error()))
	}
	s.tg = tg
	return &Client{shared: s}, nil
}

// Once returns a view of c that makes each call once, without retries: for callers that
// retry a larger step themselves (with Retry) or must not wait.
func (c *Client) Once() *Client { return &Client{shared: c.shared, once: true} }

// exchange is what the HTTP client saw of one request: the status of its reply (0: none).
type exchange struct{ status int }

type exchangeKey struct{}

// statusRecorder is the HTTP client given to the library: it notes the status of each reply
// in the request's exchange, so that an error can be classified by it (the library gives a
// 5xx reply no error type of its own).
type statusRecorder struct{ c *http.Client }

func (r statusRecorder) Do(req *http.Request) (*http.Response, error) {
	resp, err := r.c.Do(req)
	if x, ok := req.Context().Value(exchangeKey{}).(*exchange); ok && resp != nil {
		x.status = resp.StatusCode
	}
	return resp, err
}

// call is how a call is made and tried again.
type call struct {
	method string
	safe   bool // repeating it does no harm: try it again after a 5xx or a network error
	edit   bool // an edit: "message is not modified" is a success
	inline bool // an edit of an inline message: the result `true` is a success
	paced  bool // a send or an edit: it spends the budget of chat (see Options.Pacer)
	chat   ChatKey
	// rechat, for a call that belongs to its chat rather than to a message there (a send),
	// points the call at the chat's new id (see migrated); nil for the others.
	rechat func(to int64)
}

// do makes the call k with fn (the library's method, given the context of the attempt),
// trying again as k and c allow.
func (c *Client) do(ctx context.Context, k call, fn func(ctx context.Context) error) error {
	err := c.retry(ctx, k.safe, func() error { return c.attempt(ctx, k, fn) })
	if to := MigratedTo(err); to != 0 {
		return c.migrated(ctx, k, fn, err, to)
	}
	return err
}

// attempt makes one attempt of the call k, paced first when it is a send or an edit.
func (c *Client) attempt(ctx context.Context, k call, fn func(ctx context.Context) error) error {
	paced, err := c.pace(ctx, k)
	if err != nil {
		return err
	}
	x := &exchange{}
	err = fn(context.WithValue(ctx, exchangeKey{}, x))
	if paced {
		c.done(ctx, k, x.status != 0)
	}
	switch {
	case err == nil:
		return nil
	case k.edit && NotModified(err):
		return nil
	case k.inline && x.status == http.StatusOK && isTrueResult(err):
		return nil
	}
	var tooMany *tgbot.TooManyRequestsError
	if k.paced && c.pacer != nil && errors.As(err, &tooMany) {
		if herr := c.pacer.Throttled(ctx, k.chat, time.Duration(tooMany.RetryAfter)*time.Second); herr != nil {
			c.log.Warn("pace", "err", c.scrub(herr.Error()))
		}
	}
	return c.fail(ctx, k.method, x.status, err)
}

// pace waits for the budget of the chat of k, a send or an edit, unless ctx has paid for it
// (Pacer.Paid); paced reports that the call spends a unit, which done must end. It fails only
// when ctx ends; a failure of the budgets is logged and the call made.
func (c *Client) pace(ctx context.Context, k call) (paced bool, err error) {
	if !k.paced || c.pacer == nil {
		return false, nil
	}
	if spendPaid(ctx, k.chat) {
		return true, nil
	}
	if _, err := c.pacer.Wait(ctx, k.chat, PaceKindOf(ctx)); err != nil {
		if errors.Is(err, ErrStopping) {
			return false, fmt.Errorf("botapi: %s: %w", k.method, err)
		}
		if ctx.Err() != nil {
			return false, c.fail(ctx, k.method, 0, err)
		}
		c.log.Warn("pace", "method", k.method, "err", c.scrub(err.Error()))
		return false, nil
	}
	return true, nil
}

// done tells the Pacer that the paced call k is over: answered when a reply came back.
func (c *Client) done(ctx context.Context, k call, answered bool) {
	if err := c.pacer.Done(ctx, k.chat, answered); err != nil {
		c.log.Warn("pace", "method", k.method, "err", c.scrub(err.Error()))
	}
}

// chatKey is the budget key of a message in the chat id (a library ChatID: an int64, or an
// @username, which counts as a chat of its own) or the inline message inlineID.
func chatKey(id any, inlineID string) ChatKey {
	if inlineID != "" {
		return InlineOf(inlineID)
	}
	switch v := id.(type) {
	case int64:
		return ChatOf(v)
	case int:
		return ChatOf(int64(v))
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return ChatOf(n)
		}
		return InlineOf("@" + v)
	}
	return ChatOf(0)
}

// messageType is the type the library decodes an edit's result into.
var messageType = reflect.TypeFor[models.Message]()

// isTrueResult reports whether err is the library failing to decode the result `true` (an
// inline message was edited) into a Message.
func isTrueResult(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te) && te.Value == "bool" && te.Type == messageType
}

// fail returns err of the method, whose reply had the HTTP status (0: none), as an *Error,
// and tells OnError unless the caller's context ended.
func (c *Client) fail(ctx context.Context, method string, status int, err error) error {
	e := &Error{Method: method, Status: status, Kind: classify(err, status), err: err,
		text: method + ": " + c.scrub(err.Error())}
	if c.onError != nil && ctx.Err() == nil {
		c.onError(method, e.Kind)
	}
	return e
}

// scrub returns s with the token blanked out.
func (s *shared) scrub(text string) string {
	return strings.ReplaceAll(text, s.token, "***")
}

// GetMe returns the bot's own user.
func (c *Client) GetMe(ctx context.Context) (*models.User, error) {
	var u *models.User
	err := c.do(ctx, call{method: "getMe", safe: true}, func(ctx context.Context) (err error) {
		u, err = c.tg.GetMe(ctx)
		return err
	})
	return u, err
}

// SetMyCommands sets the bot's list of commands.
func (c *Client) SetMyCommands(ctx context.Context, p *tgbot.SetMyCommandsParams) (bool, error) {
	return c.boolCall(ctx, "setMyCommands", func(ctx context.Context) (bool, error) { return c.tg.SetMyCommands(ctx, p) })
}

// DeleteWebhook removes the webhook, so that getUpdates works.
func (c *Client) DeleteWebhook(ctx context.Context, p *tgbot.DeleteWebhookParams) (bool, error) {
	return c.boolCall(ctx, "deleteWebhook", func(ctx context.Context) (bool, error) { return c.tg.DeleteWebhook(ctx, p) })
}

// SetWebhook asks Telegram to deliver updates to a URL.
func (c *Client) SetWebhook(ctx context.Context, p *tgbot.SetWebhookParams) (bool, error) {
	return c.boolCall(ctx, "setWebhook", func(ctx context.Context) (bool, error) { return c.tg.SetWebhook(ctx, p) })
}

// AnswerCallbackQuery answers a button tap. It is tried again after a 5xx or a network
// error: should the first answer have arrived, the second fails harmlessly.
func (c *Client) AnswerCallbackQuery(ctx context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error) {
	return c.boolCall(ctx, "answerCallbackQuery", func(ctx context.Context) (bool, error) {
		return c.tg.AnswerCallbackQuery(ctx, p)
	})
}

// DeleteMessage deletes a message (a bot may delete its own for 48 hours). Telegram does not
// count it against the flood limits, so it is not paced.
func (c *Client) DeleteMessage(ctx context.Context, p *tgbot.DeleteMessageParams) (bool, error) {
	return c.boolCall(ctx, "deleteMessage", func(ctx context.Context) (bool, error) { return c.tg.DeleteMessage(ctx, p) })
}

// SendChatAction shows an action (typing…) in a chat for a few seconds. Telegram does not
// count it against the flood limits, so it is not paced.
func (c *Client) SendChatAction(ctx context.Context, p *tgbot.SendChatActionParams) (bool, error) {
	pp := *p
	var ok bool
	err := c.do(ctx, movable(call{method: "sendChatAction", safe: true}, &pp.ChatID), func(ctx context.Context) (err error) {
		ok, err = c.tg.SendChatAction(ctx, &pp)
		return err
	})
	return ok, err
}

// AnswerInlineQuery answers an inline query.
func (c *Client) AnswerInlineQuery(ctx context.Context, p *tgbot.AnswerInlineQueryParams) (bool, error) {
	if err := c.resultsKeyboardErr(ctx, p.Results); err != nil {
		return false, err
	}
	return c.boolCall(ctx, "answerInlineQuery", func(ctx context.Context) (bool, error) {
		return c.tg.AnswerInlineQuery(ctx, p)
	})
}

// boolCall makes a call, safe to repeat, whose result is true.
func (c *Client) boolCall(ctx context.Context, method string, fn func(ctx context.Context) (bool, error)) (bool, error) {
	var ok bool
	err := c.do(ctx, call{method: method, safe: true}, func(ctx context.Context) (err error) {
		ok, err = fn(ctx)
		return err
	})
	return ok, err
}

// SendMessage sends a text message. After a 5xx or a network error it is not tried again
// (the message may have been sent).
func (c *Client) SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	if err := c.keyboardErr(ctx, "sendMessage", p.ReplyMarkup); err != nil {
		return nil, err
	}
	pp := *p
	return c.messageCall(ctx, sendCall("sendMessage", &pp.ChatID), func(ctx context.Context) (*models.Message, error) {
		return c.tg.SendMessage(ctx, &pp)
	})
}

// SendPhoto sends a photo. An upload (models.InputFileUpload) is read at once, and each
// attempt sends its own copy; like SendMessage, it is not tried again after a 5xx or a network
// error.
func (c *Client) SendPhoto(ctx context.Context, p *tgbot.SendPhotoParams) (*models.Message, error) {
	if err := c.keyboardErr(ctx, "sendPhoto", p.ReplyMarkup); err != nil {
		return nil, err
	}
	photo, err := rereadable(p.Photo)
	if err != nil {
		return nil, c.fail(ctx, "sendPhoto", 0, err)
	}
	q := *p
	return c.messageCall(ctx, sendCall("sendPhoto", &q.ChatID), func(ctx context.Context) (*models.Message, error) {
		pp := q
		pp.Photo = photo()
		return c.tg.SendPhoto(ctx, &pp)
	})
}

// rereadable reads the upload in f at once and returns what gives each attempt of a call
// its own copy of it; for a file_id or URL, f itself.
func rereadable(f models.InputFile) (func() models.InputFile, error) {
	up, ok := f.(*models.InputFileUpload)
	if !ok || up.Data == nil {
		return func() models.InputFile { return f }, nil
	}
	data, err := io.ReadAll(up.Data)
	if err != nil {
		return nil, err
	}
	return func() models.InputFile {
		return &models.InputFileUpload{Filename: up.Filename, Data: bytes.NewReader(data)}
	}, nil
}

// SendAnimation sends an animation (a GIF), as SendPhoto sends a photo: an upload is read at
// once, each attempt sends its own copy, and it is not tried again after a 5xx or a network
// error.
func (c *Client) SendAnimation(ctx context.Context, p *tgbot.SendAnimationParams) (*models.Message, error) {
	if err := c.keyboardErr(ctx, "sendAnimation", p.ReplyMarkup); err != nil {
		return nil, err
	}
	anim, err := rereadable(p.Animation)
	if err != nil {
		return nil, c.fail(ctx, "sendAnimation", 0, err)
	}
	q := *p
	return c.messageCall(ctx, sendCall("sendAnimation", &q.ChatID), func(ctx context.Context) (*models.Message, error) {
		pp := q
		pp.Animation = anim()
		return c.tg.SendAnimation(ctx, &pp)
	})
}

// EditMessageText replaces the text (and keyboard) of a message. Its Message is nil when
// nothing changed or the message is an inline one.
func (c *Client) EditMessageText(ctx context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error) {
	if err := c.keyboardErr(ctx, "editMessageText", p.ReplyMarkup); err != nil {
		return nil, err
	}
	return c.messageCall(ctx, editCall("editMessageText", p.ChatID, p.InlineMessageID), func(ctx context.Context) (*models.Message, error) {
		return c.tg.EditMessageText(ctx, p)
	})
}

// EditMessageCaption replaces the caption (and keyboard) of a message, as EditMessageText.
func (c *Client) EditMessageCaption(ctx context.Context, p *tgbot.EditMessageCaptionParams) (*models.Message, error) {
	if err := c.keyboardErr(ctx, "editMessageCaption", p.ReplyMarkup); err != nil {
		return nil, err
	}
	return c.messageCall(ctx, editCall("editMessageCaption", p.ChatID, p.InlineMessageID), func(ctx context.Context) (*models.Message, error) {
		return c.tg.EditMessageCaption(ctx, p)
	})
}

// EditMessageReplyMarkup replaces the keyboard of a message (nil removes it), as
// EditMessageText.
func (c *Client) EditMessageReplyMarkup(ctx context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error) {
	if err := c.keyboardErr(ctx, "editMessageReplyMarkup", p.ReplyMarkup); err != nil {
		return nil, err
	}
	return c.messageCall(ctx, editCall("editMessageReplyMarkup", p.ChatID, p.InlineMessageID), func(ctx context.Context) (*models.Message, error) {
		return c.tg.EditMessageReplyMarkup(ctx, p)
	})
}

// EditMessageMedia replaces the photo (and caption, keyboard) of a message, as
// EditMessageText. A photo uploaded as models.InputMediaPhoto.MediaAttachment is read at
// once, and each attempt sends its own copy.
func (c *Client) EditMessageMedia(ctx context.Context, p *tgbot.EditMessageMediaParams) (*models.Message, error) {
	const method = "editMessageMedia"
	if err := c.keyboardErr(ctx, method, p.ReplyMarkup); err != nil {
		return nil, err
	}
	params := func() *tgbot.EditMessageMediaParams { return p }
	if ph, ok := p.Media.(*models.InputMediaPhoto); ok && ph.MediaAttachment != nil {
		data, err := io.ReadAll(ph.MediaAttachment)
		if err != nil {
			return nil, c.fail(ctx, method, 0, err)
		}
		params = func() *tgbot.EditMessageMediaParams {
			media := *ph
			media.MediaAttachment = bytes.NewReader(data)
			pp := *p
			pp.Media = &media
			return &pp
		}
	}
	return c.messageCall(ctx, editCall(method, p.ChatID, p.InlineMessageID), func(ctx context.Context) (*models.Message, error) {
		return c.tg.EditMessageMedia(ctx, params())
	})
}

// editCall is the call of an edit by method of the message in chat, or of the inline message
// with inlineID ("" for a message in a chat).
func editCall(method string, chat any, inlineID string) call {
	return call{method: method, safe: true, edit: true, inline: inlineID != "", paced: true,
		chat: chatKey(chat, inlineID)}
}

// sendCall is the call of a send by method into *chat, the chat_id of the call's parameters
// (which a migration points at the new chat): not safe to repeat after a 5xx or a network
// error (the message may have been sent).
func sendCall(method string, chat *any) call {
	return movable(call{method: method, paced: true}, chat)
}

// messageCall makes a call whose result is a Message; the Message is nil unless the call
// returned one.
func (c *Client) messageCall(ctx context.Context, k call, fn func(ctx context.Context) (*models.Message, error)) (*models.Message, error) {
	var msg *models.Message
	err := c.do(ctx, k, func(ctx context.Context) error {
		m, err := fn(ctx)
		if err == nil {
			msg = m
		}
		return err
	})
	return msg, err
}
