package telegramtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"
)

// Person is a scripted Telegram user. Its methods act as the person would in a
// Telegram client and queue the updates the bot would receive.
type Person struct {
	s  *Server
	id int64
}

// Group is a scripted group chat (a supergroup, with a negative id).
type Group struct {
	s  *Server
	id int64
}

// NewUser creates a user with the next free id (its private chat with the
// bot has the same id), a username derived from firstName, and the Telegram
// language code lang ("ru", "en", or "" for none). The bot may not message
// the user until the user has written to it, as in Telegram.
func (s *Server) NewUser(firstName, lang string) *Person {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.nextUserID++
	id := s.st.nextUserID
	m := models.User{
		ID: id, FirstName: firstName, LanguageCode: lang,
		Username: fmt.Sprintf("%s%d", usernameOf(firstName), id%100000),
	}
	s.st.users[id] = &userState{model: m}
	s.st.chats[id] = &chatState{
		model: models.Chat{ID: id, Type: models.ChatTypePrivate, FirstName: firstName, Username: m.Username},
		byID:  map[int]*msgState{},
	}
	s.st.nextSeq()
	s.notifyLocked()
	return &Person{s: s, id: id}
}

func usernameOf(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "user"
	}
	return b.String()
}

// ID is the user's id, which is also the id of their private chat with the bot.
func (u *Person) ID() int64 { return u.id }

// Model is the user as the Bot API describes them.
func (u *Person) Model() models.User {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	return u.s.st.users[u.id].model
}

// SetLanguage changes the user's Telegram language code for later updates.
func (u *Person) SetLanguage(lang string) {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	u.s.st.users[u.id].model.LanguageCode = lang
}

// Block makes the bot's messages to the user fail with 403 "bot was blocked
// by the user" until the user writes to the bot again.
func (u *Person) Block() {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	u.s.st.users[u.id].blocked = true
}

// NewGroup creates a group chat titled title, with the bot and members in it.
// A group also stands in for a private chat between two people (which the
// bot never sees) when a test posts an inline message there.
func (s *Server) NewGroup(title string, members ...*Person) *Group {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.nextGroupID++
	return s.addGroupLocked(-s.st.nextGroupID, models.ChatTypeSupergroup, title, members)
}

// addGroupLocked makes the group chat id of type typ with title, the bot and members in it.
// s.mu is held.
func (s *Server) addGroupLocked(id int64, typ models.ChatType, title string, members []*Person) *Group {
	c := &chatState{
		model:   models.Chat{ID: id, Type: typ, Title: title},
		members: map[int64]bool{},
		byID:    map[int]*msgState{},
	}
	for _, m := range members {
		c.members[m.id] = true
	}
	s.st.chats[id] = c
	s.st.nextSeq()
	s.notifyLocked()
	return &Group{s: s, id: id}
}

// ID is the group's chat id (negative).
func (g *Group) ID() int64 { return g.id }

// Add makes users members of the group.
func (g *Group) Add(users ...*Person) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	for _, u := range users {
		g.s.st.chats[g.id].members[u.id] = true
	}
}

// Remove takes users out of the group.
func (g *Group) Remove(users ...*Person) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	for _, u := range users {
		delete(g.s.st.chats[g.id].members, u.id)
	}
}

// ErrNotVisible is returned when a user acts on a chat or message they
// cannot see.
var ErrNotVisible = errors.New("telegramtest: user cannot see that chat")

// canSeeLocked reports whether u can see chat chatID.
func (s *Server) canSeeLocked(u *Person, chatID int64) (*chatState, error) {
	c := s.st.chats[chatID]
	if c == nil {
		return nil, fmt.Errorf("telegramtest: no chat %d", chatID)
	}
	if c.model.Type == models.ChatTypePrivate && chatID != u.id || c.model.Type != models.ChatTypePrivate && !c.members[u.id] {
		return nil, fmt.Errorf("%w: user %d in chat %d", ErrNotVisible, u.id, chatID)
	}
	return c, nil
}

// Send posts text from the user into chat chatID (their private chat with the
// bot, chatID = u.ID(), or a group they are in) and queues the message update.
// Commands get bot_command entities as Telegram sets them. In a group with
// privacy mode on, only commands for this bot (or for no bot in particular)
// reach the bot; the message is stored either way.
func (u *Person) Send(chatID int64, text string) (ChatMessage, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sendLocked(u, chatID, text)
}

func (s *Server) sendLocked(u *Person, chatID int64, text string) (ChatMessage, error) {
	c, err := s.canSeeLocked(u, chatID)
	if err != nil {
		return ChatMessage{}, err
	}
	if strings.TrimSpace(text) == "" {
		return ChatMessage{}, errors.New("telegramtest: Telegram clients do not send empty messages")
	}
	us := s.st.users[u.id]
	if c.model.Type == models.ChatTypePrivate {
		us.started, us.blocked = true, false
	}
	ents := commandEntities(text)
	m := s.addMessageLocked(c, &msgState{from: u.id, text: text, entities: ents})
	deliver := c.model.Type == models.ChatTypePrivate || !s.cfg.privacy || s.addressedLocked(text, ents)
	if deliver {
		s.enqueueLocked("message", s.messageJSONLocked(m))
	}
	s.notifyLocked()
	return m.snapshot(), nil
}

// addressedLocked reports whether a group message starting with a command is
// meant for this bot (privacy mode).
func (s *Server) addressedLocked(text string, ents []models.MessageEntity) bool {
	if len(ents) == 0 || ents[0].Offset != 0 {
		return false
	}
	cmd := string(utf16.Decode(utf16.Encode([]rune(text))[:ents[0].Length]))
	_, mention, ok := strings.Cut(cmd, "@")
	return !ok || strings.EqualFold(mention, s.botUser.Username)
}

// commandEntities marks /commands (with an optional @botname) that start the
// text or follow whitespace, with offsets in UTF-16 units like Telegram.
func commandEntities(text string) []models.MessageEntity {
	var ents []models.MessageEntity
	units := 0
	runes := []rune(text)
	for i := 0; i < len(runes); i++ {
		if runes[i] == '/' && (i == 0 || isSpace(runes[i-1])) {
			j := i + 1
			for j < len(runes) && isWordRune(runes[j]) {
				j++
			}
			if j > i+1 {
				if j < len(runes) && runes[j] == '@' {
					k := j + 1
					for k < len(runes) && isWordRune(runes[k]) {
						k++
					}
					if k > j+1 {
						j = k
					}
				}
				ents = append(ents, models.MessageEntity{
					Type: models.MessageEntityTypeBotCommand, Offset: units, Length: len(utf16.Encode(runes[i:j])),
				})
				units += len(utf16.Encode(runes[i:j]))
				i = j - 1
				continue
			}
		}
		units += len(utf16.Encode(runes[i : i+1]))
	}
	return ents
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' }

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
}

// Press taps the button labelled label (exact text, or else exact
// callback_data) in the CURRENT keyboard of message m (a chat message or an
// inline message; only m's ChatID/ID or InlineID are used). A callback button
// queues a callback_query update and returns its query id. A URL button that
// deep-links to this bot (t.me/<bot>?start=PAYLOAD) sends "/start PAYLOAD" in
// the user's private chat and returns "". Other buttons are an error.
func (u *Person) Press(m ChatMessage, label string) (string, error) {
	return u.pressPicked(m, func(ms *msgState) (models.InlineKeyboardButton, error) {
		b, _, _, err := findButton(ms.markup, label)
		if err != nil {
			return b, fmt.Errorf("telegramtest: message %s: %w", describe(ms), err)
		}
		return b, nil
	})
}

// PressAt taps the button in row row and column col (from 0) of m's current keyboard.
func (u *Person) PressAt(m ChatMessage, row, col int) (string, error) {
	return u.pressPicked(m, func(ms *msgState) (models.InlineKeyboardButton, error) {
		b, ok := ms.peek().ButtonAt(row, col)
		if !ok {
			return b, fmt.Errorf("telegramtest: message %s has no button at row %d, column %d", describe(ms), row, col)
		}
		return b, nil
	})
}

// pressPicked taps, as u, the button that pick chooses in the current keyboard of the
// message m names, once u is found to see that message; pick runs under the server's lock
// and its error is the tap's.
func (u *Person) pressPicked(m ChatMessage, pick func(ms *msgState) (models.InlineKeyboardButton, error)) (string, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	ms, err := s.visibleMessageLocked(u, m)
	if err != nil {
		return "", err
	}
	b, err := pick(ms)
	if err != nil {
		return "", err
	}
	return s.pressLocked(u, ms, b)
}

// PressInline taps a button of the inline message inlineID, as Press does.
func (u *Person) PressInline(inlineID, label string) (string, error) {
	return u.Press(ChatMessage{InlineID: inlineID}, label)
}

// PressData sends a callback query with arbitrary data, as a modified client
// could, for message msgID of chat chatID. The message need not exist or have
// such a button; when it does not exist the query carries an inaccessible
// message. The user must be able to see the chat.
func (u *Person) PressData(chatID int64, msgID int, data string) (string, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.canSeeLocked(u, chatID)
	if err != nil {
		return "", err
	}
	if ms := c.byID[msgID]; ms != nil && !ms.deleted {
		return s.queryLocked(u, ms, data), nil
	}
	s.st.nextQuery++
	q := &queryState{id: s.queryID(), from: u.id, data: data, chatID: chatID, msgID: msgID, created: s.cfg.now().UnixNano()}
	q.answer = CallbackAnswer{QueryID: q.id, Data: data}
	s.st.queries[q.id] = q
	inaccessible := models.InaccessibleMessage{Chat: c.model, MessageID: msgID}
	s.enqueueLocked("callback_query", wireCallback{
		ID: q.id, From: s.st.users[u.id].model, ChatInstance: chatInstance(chatID), Data: data,
		Message: mustJSON(inaccessible),
	})
	return q.id, nil
}

// PressInlineData sends a callback query with arbitrary data on the inline
// message inlineID, as a modified client could: the message must exist, but
// need not have such a button.
func (u *Person) PressInlineData(inlineID, data string) (string, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := s.st.inline[inlineID]
	if ms == nil {
		return "", fmt.Errorf("telegramtest: no inline message %q", inlineID)
	}
	return s.queryLocked(u, ms, data), nil
}

// SetInlineFeedback switches inline feedback on (the default) or off, as
// BotFather's /setinlinefeedback does: while it is off, a chosen inline
// result posts its message but sends no chosen_inline_result update.
func (s *Server) SetInlineFeedback(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.noFeedback = !on
}

func (s *Server) queryID() string { return fmt.Sprintf("%d%06d", s.botUser.ID%1000, s.st.nextQuery) }

func describe(m *msgState) string {
	if m.inlineID != "" {
		return "inline " + m.inlineID
	}
	return fmt.Sprintf("%d/%d", m.chatID, m.id)
}

// visibleMessageLocked finds m's current state and checks u may see it.
func (s *Server) visibleMessageLocked(u *Person, m ChatMessage) (*msgState, error) {
	if m.InlineID != "" {
		ms := s.st.inline[m.InlineID]
		if ms == nil {
			return nil, fmt.Errorf("telegramtest: no inline message %q", m.InlineID)
		}
		return ms, nil // anyone in the chat, or anyone it was forwarded to
	}
	c, err := s.canSeeLocked(u, m.ChatID)
	if err != nil {
		return nil, err
	}
	ms := c.byID[m.ID]
	if ms == nil || ms.deleted {
		return nil, fmt.Errorf("telegramtest: message %d/%d does not exist (deleted?)", m.ChatID, m.ID)
	}
	return ms, nil
}

// wireCallback is a callback_query as Telegram sends it: no "message" key for
// inline messages.
type wireCallback struct {
	ID              string          `json:"id"`
	From            models.User     `json:"from"`
	Message         json.RawMessage `json:"message,omitempty"`
	InlineMessageID string          `json:"inline_message_id,omitempty"`
	ChatInstance    string          `json:"chat_instance"`
	Data            string          `json:"data,omitempty"`
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("telegramtest: marshal: %v", err)) // our own types: a bug here
	}
	return b
}

func (s *Server) pressLocked(u *Person, ms *msgState, b models.InlineKeyboardButton) (string, error) {
	switch {
	case b.CallbackData != "":
		return s.queryLocked(u, ms, b.CallbackData), nil
	case b.URL != "":
		payload, ok := s.deepLink(b.URL)
		if !ok {
			return "", fmt.Errorf("telegramtest: button %q opens %s, outside Telegram", b.Text, b.URL)
		}
		text := "/start"
		if payload != "" {
			text += " " + payload
		}
		_, err := s.sendLocked(u, u.id, text)
		return "", err
	}
	return "", fmt.Errorf("telegramtest: button %q has no callback data or deep link", b.Text)
}

func (s *Server) queryLocked(u *Person, ms *msgState, data string) string {
	s.st.nextQuery++
	q := &queryState{
		id: s.queryID(), from: u.id, data: data, chatID: ms.chatID, msgID: ms.id, inlineID: ms.inlineID,
		created: s.cfg.now().UnixNano(),
	}
	q.answer = CallbackAnswer{QueryID: q.id, Data: data}
	s.st.queries[q.id] = q
	cb := wireCallback{ID: q.id, From: s.st.users[u.id].model, ChatInstance: chatInstance(ms.chatID), Data: data}
	if ms.inlineID != "" {
		cb.InlineMessageID = ms.inlineID
		s.enqueueLocked("callback_query", cb)
	} else {
		cb.Message = s.messageJSONLocked(ms)
		s.enqueueLocked("callback_query", cb)
	}
	return q.id
}

// deepLink extracts the start payload of a link to this bot.
func (s *Server) deepLink(link string) (string, bool) {
	u, err := url.Parse(link)
	if err != nil {
		return "", false
	}
	var name string
	switch {
	case (u.Scheme == "https" || u.Scheme == "http") && (u.Host == "t.me" || u.Host == "telegram.me"):
		name = strings.Trim(u.Path, "/")
	case u.Scheme == "tg" && u.Host == "resolve":
		name = u.Query().Get("domain")
	default:
		return "", false
	}
	if !strings.EqualFold(name, s.botUser.Username) {
		return "", false
	}
	return u.Query().Get("start"), true
}

// InlineQuery types "@bot query" in any chat: it queues an inline_query update
// and returns its id. The bot's answer is in Server.InlineAnswer.
func (u *Person) InlineQuery(query string) (string, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.nextQuery++
	id := "iq" + s.queryID()
	s.st.iqueries[id] = &inlineQueryState{id: id, from: u.id, query: query, answer: InlineAnswer{QueryID: id, Query: query}}
	s.st.lastIQ[u.id] = id
	from := s.st.users[u.id].model
	s.enqueueLocked("inline_query", models.InlineQuery{ID: id, From: &from, Query: query, ChatType: "sender"})
	return id, nil
}

// ChooseInlineResult picks result resultID of the user's latest answered
// inline query and posts it into chat chatID (the user's own private chat or
// a group they are in), as the user "via @bot". A result with an inline
// keyboard gets an inline_message_id, through which the bot edits it and
// receives its callbacks. A chosen_inline_result update is queued, unless
// inline feedback is off ([Server.SetInlineFeedback]). It returns the posted
// message.
func (u *Person) ChooseInlineResult(resultID string, chatID int64) (ChatMessage, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.st.iqueries[s.st.lastIQ[u.id]]
	if q == nil || !q.answer.Answered {
		return ChatMessage{}, errors.New("telegramtest: the bot has not answered the user's latest inline query")
	}
	var res *InlineResult
	for i := range q.answer.Results {
		if q.answer.Results[i].ID == resultID {
			res = &q.answer.Results[i]
		}
	}
	if res == nil {
		return ChatMessage{}, fmt.Errorf("telegramtest: inline query %q has no result %q", q.id, resultID)
	}
	c, err := s.canSeeLocked(u, chatID)
	if err != nil {
		return ChatMessage{}, err
	}
	ms := &msgState{from: u.id, fromBot: true, viaBot: true, text: res.Text, markup: cloneMarkup(res.Markup)}
	switch {
	case res.Type == "photo" && res.PhotoFileID != "":
		f := s.st.files[res.PhotoFileID]
		if f == nil {
			return ChatMessage{}, fmt.Errorf("telegramtest: result %q names unknown file_id %q", resultID, res.PhotoFileID)
		}
		ms.photo, ms.caption, ms.text = f, res.Caption, ""
	case res.Type == "photo":
		ms.photo, ms.caption, ms.text = s.newFileLocked(nil, 0, 0, res.PhotoURL), res.Caption, ""
	case ms.text == "":
		ms.text = res.Title
	}
	ms.source = ms.text + ms.caption
	if ms.markup != nil && len(ms.markup.InlineKeyboard) > 0 {
		s.st.nextInline++
		ms.inlineID = fmt.Sprintf("AgAAAFake%08d", s.st.nextInline)
		s.st.inline[ms.inlineID] = ms
	}
	s.addMessageLocked(c, ms)
	if !s.st.noFeedback {
		s.enqueueLocked("chosen_inline_result", models.ChosenInlineResult{
			ResultID: resultID, From: s.st.users[u.id].model, InlineMessageID: ms.inlineID, Query: q.query,
		})
	}
	s.notifyLocked()
	return ms.snapshot(), nil
}
