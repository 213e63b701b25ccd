package telegramtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// state is everything the server knows; guarded by Server.mu.
type state struct {
	wake   map[wakeKey]*wakeup // waits for a chat, a callback query, the update queue, or any change
	closed bool
	seq    int64

	users    map[int64]*userState
	chats    map[int64]*chatState
	inline   map[string]*msgState
	files    map[string]*fileState
	queries  map[string]*queryState
	iqueries map[string]*inlineQueryState
	lastIQ   map[int64]string // user id → their latest inline query id
	commands map[string][]models.BotCommand
	// noFeedback: inline feedback is off (BotFather's /setinlinefeedback), so a chosen
	// inline result sends no chosen_inline_result.
	noFeedback bool

	updates      []pendingUpdate
	nextUpdateID int64
	allowed      map[string]bool // nil: Telegram's default set
	pollGen      uint64

	webhook webhookState

	faults  map[string][]*apiError
	flood   *flood // nil: no flood limits (WithFloodLimits)
	calls   map[string]int
	callLog []Call

	nextUserID  int64
	nextGroupID int64
	nextFile    int
	nextQuery   int
	nextInline  int
}

func (st *state) init() {
	st.wake = map[wakeKey]*wakeup{}
	st.users = map[int64]*userState{}
	st.chats = map[int64]*chatState{}
	st.inline = map[string]*msgState{}
	st.files = map[string]*fileState{}
	st.queries = map[string]*queryState{}
	st.iqueries = map[string]*inlineQueryState{}
	st.lastIQ = map[int64]string{}
	st.commands = map[string][]models.BotCommand{}
	st.faults = map[string][]*apiError{}
	st.calls = map[string]int{}
	st.nextUpdateID = 1
	st.nextUserID = 100000000
	st.nextGroupID = 1001000000000
}

func (st *state) nextSeq() int64 {
	st.seq++
	return st.seq
}

func (st *state) takeFault(method string) *apiError {
	for _, k := range []string{method, "*"} {
		if q := st.faults[k]; len(q) > 0 {
			st.faults[k] = q[1:]
			return q[0]
		}
	}
	return nil
}

func (st *state) logCall(c Call, limit int) {
	st.callLog = append(st.callLog, c)
	if len(st.callLog) >= 2*limit { // trim in bulk: amortised O(1) per call
		st.callLog = slices.Delete(st.callLog, 0, len(st.callLog)-limit)
	}
}

type userState struct {
	model   models.User
	started bool // wrote to the bot in private: the bot may message them
	blocked bool
}

type chatState struct {
	model   models.Chat
	members map[int64]bool // groups only
	msgs    []*msgState
	byID    map[int]*msgState
	nextID  int
	// migratedTo is the supergroup a group became (Group.Upgrade), 0 while it is none:
	// every call on the group is then refused (migrate.go).
	migratedTo int64
}

type fileState struct {
	id, uniqueID string
	data         []byte
	url          string
	width        int
	height       int
}

type msgState struct {
	chatID   int64
	id       int
	inlineID string
	from     int64 // user id; the bot's id for bot messages
	fromBot  bool
	viaBot   bool
	date     int
	editDate int
	text     string
	entities []models.MessageEntity
	caption  string
	photo    *fileState
	animated bool // photo holds an animation (sendAnimation)
	markup   *models.InlineKeyboardMarkup
	edits    int
	deleted  bool
	seq      int64
	source   string // text or caption as the bot sent it, before parse_mode

	// json is messageJSONLocked's rendering of the message, until the message changes
	// (editedLocked drops it; nothing else changes what it holds).
	json json.RawMessage
}

type queryState struct {
	id       string
	from     int64
	data     string
	chatID   int64
	msgID    int
	inlineID string
	created  int64 // unix nanoseconds by the server clock
	answer   CallbackAnswer
}

type inlineQueryState struct {
	id     string
	from   int64
	query  string
	answer InlineAnswer
}

type pendingUpdate struct {
	id   int64
	kind string
	body json.RawMessage
}

type webhookState struct {
	url       string
	secret    string
	attempts  int // failed attempts on the update at the head of the queue
	stats     WebhookStats
	lastError int
}

// ChatMessage is a snapshot of one message as the fake holds it.
type ChatMessage struct {
	// ChatID is the chat the message is in (for an inline message, the chat
	// it was posted into by ChooseInlineResult).
	ChatID int64
	// ID is the message_id within the chat. For an inline message it is only
	// the fake's bookkeeping: the bot never learns it and must use InlineID.
	ID int
	// InlineID is the inline_message_id, set only for messages posted through
	// inline mode with an inline keyboard.
	InlineID string
	// From is the sender's user id (the bot's id when FromBot).
	From int64
	// FromBot reports whether the bot sent the message (inline messages count
	// as the bot's: the bot owns and edits them).
	FromBot bool
	// Text is the visible text (entities parsed away) of a text message.
	Text string
	// Caption is the visible caption of a photo.
	Caption string
	// Entities are the entities of Text, or of Caption for a photo, as the bot sent them
	// (checked to lie inside it; see EntityText).
	Entities []models.MessageEntity
	// Photo holds the bytes of an uploaded photo; nil for a photo sent by URL
	// and for text messages.
	Photo []byte
	// PhotoFileID is the photo's file_id; empty for text messages.
	PhotoFileID string
	// PhotoURL is set when the photo was given as an HTTP URL.
	PhotoURL string
	// Animation holds the bytes of an uploaded animation (sendAnimation), and
	// AnimationFileID its file_id; both empty for other messages.
	Animation       []byte
	AnimationFileID string
	// Markup is the current inline keyboard, nil when there is none.
	Markup *models.InlineKeyboardMarkup
	// Edits counts successful edits of the message.
	Edits int
	// Seq is the sequence number of the message's last change.
	Seq int64
}

// HasPhoto reports whether the message is a photo.
func (m ChatMessage) HasPhoto() bool { return m.PhotoFileID != "" }

// HasAnimation reports whether the message is an animation.
func (m ChatMessage) HasAnimation() bool { return m.AnimationFileID != "" }

// Content is Text for a text message and Caption for a photo or an animation.
func (m ChatMessage) Content() string {
	if m.HasPhoto() || m.HasAnimation() {
		return m.Caption
	}
	return m.Text
}

// Buttons returns the keyboard's rows (nil when there is none).
func (m ChatMessage) Buttons() [][]models.InlineKeyboardButton {
	if m.Markup == nil {
		return nil
	}
	return m.Markup.InlineKeyboard
}

// ButtonCount is the number of buttons in the keyboard.
func (m ChatMessage) ButtonCount() int {
	n := 0
	for _, row := range m.Buttons() {
		n += len(row)
	}
	return n
}

// Button finds the one button whose text equals label, or else the one whose
// callback_data equals label. It reports an error when none or several match.
func (m ChatMessage) Button(label string) (models.InlineKeyboardButton, error) {
	b, _, _, err := findButton(m.Markup, label)
	return b, err
}

// ButtonAt returns the button in row row and column col, counted from 0.
func (m ChatMessage) ButtonAt(row, col int) (models.InlineKeyboardButton, bool) {
	rows := m.Buttons()
	if row < 0 || row >= len(rows) || col < 0 || col >= len(rows[row]) {
		return models.InlineKeyboardButton{}, false
	}
	return rows[row][col], true
}

func findButton(mk *models.InlineKeyboardMarkup, label string) (models.InlineKeyboardButton, int, int, error) {
	if mk == nil {
		return models.InlineKeyboardButton{}, 0, 0, fmt.Errorf("message has no inline keyboard")
	}
	for _, byData := range []bool{false, true} {
		var hits [][2]int
		for r, row := range mk.InlineKeyboard {
			for c, b := range row {
				if (!byData && b.Text == label) || (byData && b.CallbackData != "" && b.CallbackData == label) {
					hits = append(hits, [2]int{r, c})
				}
			}
		}
		switch {
		case len(hits) == 1:
			r, c := hits[0][0], hits[0][1]
			return mk.InlineKeyboard[r][c], r, c, nil
		case len(hits) > 1:
			return models.InlineKeyboardButton{}, 0, 0, fmt.Errorf("%d buttons match %q; use PressAt", len(hits), label)
		}
	}
	var labels []string
	for _, row := range mk.InlineKeyboard {
		for _, b := range row {
			labels = append(labels, b.Text)
		}
	}
	return models.InlineKeyboardButton{}, 0, 0, fmt.Errorf("no button %q among [%s]", label, strings.Join(labels, " "))
}

// CallbackAnswer is what the bot answered to a callback query.
type CallbackAnswer struct {
	// QueryID is the callback query's id.
	QueryID string
	// Data is the callback_data the query carried.
	Data string
	// Answered reports whether answerCallbackQuery succeeded for it.
	Answered bool
	// Text, ShowAlert, URL and CacheTime are the answer's fields.
	Text      string
	ShowAlert bool
	URL       string
	CacheTime int
	// Seq is the sequence number of the answer (0 while unanswered).
	Seq int64
	// Time is when the answer was recorded, by the server's clock (zero while unanswered).
	Time time.Time
}

// InlineAnswer is what the bot answered to an inline query.
type InlineAnswer struct {
	// QueryID is the inline query's id, Query its text.
	QueryID string
	Query   string
	// Answered reports whether answerInlineQuery succeeded for it.
	Answered bool
	// Results are the results offered, in order.
	Results    []InlineResult
	CacheTime  int
	IsPersonal bool
	NextOffset string
	// Seq is the sequence number of the answer.
	Seq int64
}

// InlineResult is one result of an answered inline query, reduced to what the
// message posted from it would show.
type InlineResult struct {
	// ID and Type are the result's id and type (article, photo, ...).
	ID   string
	Type string
	// Title and Description are what the user sees in the result list.
	Title       string
	Description string
	// Text is input_message_content.message_text, if any.
	Text      string
	ParseMode string
	// Caption, PhotoURL and PhotoFileID describe a photo result.
	Caption     string
	PhotoURL    string
	PhotoFileID string
	// Markup is the result's inline keyboard, nil when none.
	Markup *models.InlineKeyboardMarkup
	// Raw is the result's JSON as the bot sent it.
	Raw json.RawMessage
}

// WebhookStats describes webhook delivery so far.
type WebhookStats struct {
	// URL is the current webhook URL ("" when none).
	URL string
	// Delivered counts updates answered with 2xx.
	Delivered int
	// Failed counts attempts that did not get a 2xx answer.
	Failed int
	// Dropped counts updates given up after the last attempt.
	Dropped int
	// LastError describes the last failed attempt.
	LastError string
}

// View is a read-only view of the server's state, valid only during the
// WaitFor predicate it is passed to (or the Server method that made it).
type View struct{ st *state }

func (s *Server) view() View { return View{&s.st} }

// Messages returns the messages of chat chatID that were not deleted, oldest
// first, both the users' and the bot's (see Message.FromBot).
func (v View) Messages(chatID int64) []ChatMessage {
	c := v.st.chats[chatID]
	if c == nil {
		return nil
	}
	out := make([]ChatMessage, 0, len(c.msgs))
	for _, m := range c.msgs {
		if !m.deleted {
			out = append(out, m.snapshot())
		}
	}
	return out
}

// BotMessages returns the bot's messages in chat chatID, oldest first.
func (v View) BotMessages(chatID int64) []ChatMessage {
	var out []ChatMessage
	for _, m := range v.Messages(chatID) {
		if m.FromBot {
			out = append(out, m)
		}
	}
	return out
}

// LastMessage returns the newest message the bot has in chat chatID
// (not deleted; inline messages included).
func (v View) LastMessage(chatID int64) (ChatMessage, bool) {
	c := v.st.chats[chatID]
	if c == nil {
		return ChatMessage{}, false
	}
	for i := len(c.msgs) - 1; i >= 0; i-- {
		if m := c.msgs[i]; m.fromBot && !m.deleted {
			return m.snapshot(), true
		}
	}
	return ChatMessage{}, false
}

// Message returns message id of chat chatID unless it does not exist or was deleted.
func (v View) Message(chatID int64, id int) (ChatMessage, bool) {
	if m := v.message(chatID, id); m != nil {
		return m.snapshot(), true
	}
	return ChatMessage{}, false
}

// Peek is Message without copying the keyboard: the Markup it returns is the server's own,
// which the server never changes (an edit replaces it with another), and which the caller
// must only read. It is for hot loops such as a load generator's.
func (v View) Peek(chatID int64, id int) (ChatMessage, bool) {
	if m := v.message(chatID, id); m != nil {
		return m.peek(), true
	}
	return ChatMessage{}, false
}

func (v View) message(chatID int64, id int) *msgState {
	c := v.st.chats[chatID]
	if c == nil {
		return nil
	}
	if m := c.byID[id]; m != nil && !m.deleted {
		return m
	}
	return nil
}

// MessagesSince returns the messages of chat chatID with an ID above after that were not
// deleted, oldest first, both the users' and the bot's. Unlike Messages it costs only as
// much as the messages it returns.
func (v View) MessagesSince(chatID int64, after int) []ChatMessage {
	c := v.st.chats[chatID]
	if c == nil {
		return nil
	}
	i := len(c.msgs)
	for i > 0 && c.msgs[i-1].id > after { // ids grow along msgs
		i--
	}
	var out []ChatMessage
	for _, m := range c.msgs[i:] {
		if !m.deleted {
			out = append(out, m.snapshot())
		}
	}
	return out
}

// InlineMessage returns the message with inline_message_id id.
func (v View) InlineMessage(id string) (ChatMessage, bool) {
	m := v.st.inline[id]
	if m == nil {
		return ChatMessage{}, false
	}
	return m.snapshot(), true
}

// CallbackAnswer returns the state of callback query id; ok is false for an
// id the server never issued.
func (v View) CallbackAnswer(id string) (CallbackAnswer, bool) {
	q := v.st.queries[id]
	if q == nil {
		return CallbackAnswer{}, false
	}
	return q.answer, true
}

// InlineAnswer returns the state of inline query id.
func (v View) InlineAnswer(id string) (InlineAnswer, bool) {
	q := v.st.iqueries[id]
	if q == nil {
		return InlineAnswer{}, false
	}
	a := q.answer
	a.Results = slices.Clone(a.Results)
	return a, true
}

// Commands returns the commands set with setMyCommands for the default scope
// and language code lang ("" for the commands without a language).
func (v View) Commands(lang string) []models.BotCommand {
	return slices.Clone(v.st.commands[commandsKey("default", lang)])
}

// CommandsFor is Commands for another scope type ("all_private_chats", ...).
func (v View) CommandsFor(scope, lang string) []models.BotCommand {
	return slices.Clone(v.st.commands[commandsKey(scope, lang)])
}

// Calls is how many requests of method the server received.
func (v View) Calls(method string) int { return v.st.calls[canonicalMethod(method)] }

// CallLog returns the recent requests (at least the last 10000), oldest first.
func (v View) CallLog() []Call { return slices.Clone(v.st.callLog) }

// PendingUpdates is the number of updates queued and not yet confirmed by
// the bot (or delivered to its webhook).
func (v View) PendingUpdates() int { return len(v.st.updates) }

// Webhook returns the webhook delivery statistics.
func (v View) Webhook() WebhookStats {
	w := v.st.webhook.stats
	w.URL = v.st.webhook.url
	return w
}

// Seq is the sequence number of the latest event.
func (v View) Seq() int64 { return v.st.seq }

// Server-level shortcuts for the View's methods.

// Messages is View.Messages.
func (s *Server) Messages(chatID int64) []ChatMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().Messages(chatID)
}

// BotMessages is View.BotMessages.
func (s *Server) BotMessages(chatID int64) []ChatMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().BotMessages(chatID)
}

// LastMessage is View.LastMessage.
func (s *Server) LastMessage(chatID int64) (ChatMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().LastMessage(chatID)
}

// Message is View.Message.
func (s *Server) Message(chatID int64, id int) (ChatMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().Message(chatID, id)
}

// Peek is View.Peek: the keyboard of the Message it returns must only be read.
func (s *Server) Peek(chatID int64, id int) (ChatMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().Peek(chatID, id)
}

// MessagesSince is View.MessagesSince.
func (s *Server) MessagesSince(chatID int64, after int) []ChatMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().MessagesSince(chatID, after)
}

// InlineMessage is View.InlineMessage.
func (s *Server) InlineMessage(id string) (ChatMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().InlineMessage(id)
}

// CallbackAnswer is View.CallbackAnswer.
func (s *Server) CallbackAnswer(id string) (CallbackAnswer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().CallbackAnswer(id)
}

// InlineAnswer is View.InlineAnswer.
func (s *Server) InlineAnswer(id string) (InlineAnswer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().InlineAnswer(id)
}

// Commands is View.Commands.
func (s *Server) Commands(lang string) []models.BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().Commands(lang)
}

// Webhook is View.Webhook.
func (s *Server) Webhook() WebhookStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().Webhook()
}

// PendingUpdates is View.PendingUpdates.
func (s *Server) PendingUpdates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().PendingUpdates()
}

// Photo returns the bytes of the uploaded photo with file_id id.
func (s *Server) Photo(fileID string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.st.files[fileID]
	if f == nil || f.data == nil {
		return nil, false
	}
	return f.data, true
}

func (m *msgState) snapshot() ChatMessage {
	out := m.peek()
	out.Markup = cloneMarkup(m.markup)
	return out
}

// peek is snapshot sharing the keyboard.
func (m *msgState) peek() ChatMessage {
	out := ChatMessage{
		ChatID: m.chatID, ID: m.id, InlineID: m.inlineID, From: m.from, FromBot: m.fromBot,
		Text: m.text, Caption: m.caption, Markup: m.markup, Edits: m.edits, Seq: m.seq,
		Entities: slices.Clone(m.entities),
	}
	if m.photo != nil && m.animated {
		out.Animation, out.AnimationFileID = m.photo.data, m.photo.id
	} else if m.photo != nil {
		out.Photo = m.photo.data // never mutated after upload
		out.PhotoFileID = m.photo.id
		out.PhotoURL = m.photo.url
	}
	return out
}

func cloneMarkup(mk *models.InlineKeyboardMarkup) *models.InlineKeyboardMarkup {
	if mk == nil {
		return nil
	}
	rows := make([][]models.InlineKeyboardButton, len(mk.InlineKeyboard))
	for i, r := range mk.InlineKeyboard {
		rows[i] = slices.Clone(r)
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: rows}
}

func commandsKey(scope, lang string) string { return scope + "/" + lang }

// chatInstance is a stable opaque id of a chat, like Telegram's chat_instance.
func chatInstance(chatID int64) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "chat:%d", chatID)
	return fmt.Sprintf("%d", h.Sum64()>>1)
}
