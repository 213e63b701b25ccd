package telegramtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"
)

type handler struct {
	name string
	fn   func(s *Server, ctx context.Context, r *request) (any, *apiError)
}

// handlers maps a lower-case method name to its implementation.
var handlers = map[string]handler{}

func init() {
	for _, h := range []handler{
		{"getMe", (*Server).getMe},
		{"getUpdates", (*Server).getUpdates},
		{"setWebhook", (*Server).setWebhook},
		{"deleteWebhook", (*Server).deleteWebhook},
		{"getWebhookInfo", (*Server).getWebhookInfo},
		{"setMyCommands", (*Server).setMyCommands},
		{"getMyCommands", (*Server).getMyCommands},
		{"deleteMyCommands", (*Server).deleteMyCommands},
		{"sendMessage", (*Server).sendMessage},
		{"sendPhoto", (*Server).sendPhoto},
		{"sendAnimation", (*Server).sendAnimation},
		{"editMessageText", (*Server).editMessageText},
		{"editMessageCaption", (*Server).editMessageCaption},
		{"editMessageReplyMarkup", (*Server).editMessageReplyMarkup},
		{"editMessageMedia", (*Server).editMessageMedia},
		{"deleteMessage", (*Server).deleteMessage},
		{"answerCallbackQuery", (*Server).answerCallbackQuery},
		{"answerInlineQuery", (*Server).answerInlineQuery},
		{"getChat", (*Server).getChat},
		{"getChatMember", (*Server).getChatMember},
		{"sendChatAction", (*Server).sendChatAction},
	} {
		handlers[strings.ToLower(h.name)] = h
	}
}

func (s *Server) getMe(_ context.Context, _ *request) (any, *apiError) {
	return s.botUser, nil
}

// chatLocked resolves the chat_id field (a number or @username).
func (s *Server) chatLocked(r *request) (*chatState, *apiError) {
	raw := strings.TrimSpace(r.str("chat_id"))
	if raw == "" {
		return nil, badRequest("chat_id is empty")
	}
	if strings.HasPrefix(raw, "@") {
		for _, c := range s.st.chats {
			if c.model.Username != "" && strings.EqualFold(c.model.Username, raw[1:]) {
				return c, nil
			}
		}
		return nil, errChatNotFound
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return nil, errChatNotFound
	}
	c := s.st.chats[id]
	if c == nil {
		return nil, errChatNotFound
	}
	if c.migratedTo != 0 {
		return nil, errMigrated(c.migratedTo)
	}
	return c, nil
}

// canSendLocked reports whether the bot may post into c.
func (s *Server) canSendLocked(c *chatState) *apiError {
	if c.model.Type != models.ChatTypePrivate {
		return nil
	}
	u := s.st.users[c.model.ID]
	switch {
	case u == nil:
		return errChatNotFound
	case u.blocked:
		return forbidden("bot was blocked by the user")
	case !u.started:
		return forbidden("bot can't initiate conversation with a user")
	}
	return nil
}

// sendChatLocked resolves chat_id as chatLocked does and checks, as canSendLocked does, that
// the bot may post into that chat: what every method that sends into a chat checks first.
func (s *Server) sendChatLocked(r *request) (*chatState, *apiError) {
	c, err := s.chatLocked(r)
	if err != nil {
		return nil, err
	}
	if err := s.canSendLocked(c); err != nil {
		return nil, err
	}
	return c, nil
}

func (s *Server) nowUnix() int { return int(s.cfg.now().Unix()) }

// addMessageLocked appends m to chat c, giving it the next id.
func (s *Server) addMessageLocked(c *chatState, m *msgState) *msgState {
	c.nextID++
	m.chatID, m.id = c.model.ID, c.nextID
	m.date = s.nowUnix()
	m.seq = s.st.nextSeq()
	c.msgs = append(c.msgs, m)
	c.byID[m.id] = m
	s.st.fire(chatKey(m.chatID))
	return m
}

// messageModelLocked is m as the Bot API's Message, without its keyboard.
func (s *Server) messageModelLocked(m *msgState) models.Message {
	out := models.Message{
		ID: m.id, Date: m.date, EditDate: m.editDate, Text: m.text, Entities: m.entities, Caption: m.caption,
	}
	if m.photo != nil { // a photo's entities are its caption's
		out.Entities, out.CaptionEntities = nil, m.entities
	}
	if c := s.st.chats[m.chatID]; c != nil {
		out.Chat = c.model
	}
	if m.fromBot && !m.viaBot {
		b := s.botUser
		out.From = &b
	} else if u := s.st.users[m.from]; u != nil {
		um := u.model
		out.From = &um
	}
	if m.viaBot {
		b := s.botUser
		out.ViaBot = &b
	}
	if p := m.photo; p != nil && m.animated {
		out.Animation = &models.Animation{FileID: p.id, FileUniqueID: p.uniqueID, Width: p.width, Height: p.height,
			FileName: "replay.gif", MimeType: "video/mp4", FileSize: int64(len(p.data))}
	} else if p != nil {
		out.Photo = []models.PhotoSize{{FileID: p.id, FileUniqueID: p.uniqueID, Width: p.width, Height: p.height, FileSize: len(p.data)}}
	}
	return out
}

// messageJSONLocked renders m as the Bot API's Message in JSON: encoding/json's encoding of
// messageModelLocked's Message with the keyboard as answerMarkup has it. The JSON is kept
// until the message changes: a board is sent or edited once and then appears in every
// callback query pressed on it.
func (s *Server) messageJSONLocked(m *msgState) json.RawMessage {
	if m.json == nil {
		msg := s.messageModelLocked(m)
		m.json = mustJSON(struct {
			*models.Message
			ReplyMarkup *answerKeyboard `json:"reply_markup,omitempty"` // hides Message's
		}{&msg, answerMarkup(m.markup)})
	}
	return m.json
}

// Handlers decode and check what depends on the request alone (text, entities, keyboard)
// before they take the server's lock, and report those errors in Telegram's order, after
// the checks of the chat and message.

// formattedText is the request's text as sent and as the chat shows it (formatted by
// parse_mode), with formatText's error for a message text that is malformed or too long.
func (r *request) formattedText() (source, visible string, err *apiError) {
	source = r.str("text")
	visible, err = formatText(source, r.str("parse_mode"), MaxTextLen, "message is too long")
	return source, visible, err
}

// formattedCaption is the request's caption as sent and as the chat shows it (formatted by
// parse_mode), with formatText's error for a caption that is malformed or too long.
func (r *request) formattedCaption() (source, visible string, err *apiError) {
	source = r.str("caption")
	visible, err = formatText(source, r.str("parse_mode"), MaxCaptionLen, "message caption is too long")
	return source, visible, err
}

func (s *Server) sendMessage(_ context.Context, r *request) (any, *apiError) {
	text, visible, ferr := r.formattedText()
	ents, eerr := r.entities("entities", visible)
	mk, merr := r.replyMarkup()
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.sendChatLocked(r)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, badRequest("message text is empty")
	}
	if ferr != nil {
		return nil, ferr
	}
	if strings.TrimSpace(visible) == "" {
		return nil, badRequest("message text is empty")
	}
	if eerr != nil {
		return nil, eerr
	}
	if merr != nil {
		return nil, merr
	}
	if err := checkWebApp(mk, c.model.Type == models.ChatTypePrivate); err != nil {
		return nil, err
	}
	m := s.addMessageLocked(c, &msgState{
		from: s.botUser.ID, fromBot: true, text: visible, entities: ents, source: text, markup: mk,
	})
	return s.messageJSONLocked(m), nil
}

func (s *Server) newFileLocked(data []byte, w, h int, u string) *fileState {
	s.st.nextFile++
	f := &fileState{
		id:       fmt.Sprintf("AgACAgFake%06d", s.st.nextFile),
		uniqueID: fmt.Sprintf("AQADFake%06d", s.st.nextFile),
		data:     data, width: w, height: h, url: u,
	}
	s.st.files[f.id] = f
	return f
}

// photoLocked resolves a photo given as field (upload, attach://, file_id or URL).
func (s *Server) photoLocked(r *request, field, value string, allowUpload bool) (*fileState, *apiError) {
	up, uploaded := r.files[field]
	if name, ok := strings.CutPrefix(value, "attach://"); ok {
		up, uploaded = r.files[name]
		if !uploaded {
			return nil, badRequest("wrong file identifier/HTTP URL specified")
		}
	}
	if uploaded && value == "" || uploaded && strings.HasPrefix(value, "attach://") {
		if !allowUpload {
			return nil, badRequest("can't upload file to an inline message: use file_id or an HTTP URL")
		}
		w, h, err := checkPhoto(up.data)
		if err != nil {
			return nil, err
		}
		return s.newFileLocked(up.data, w, h, ""), nil
	}
	if value == "" {
		return nil, badRequest("there is no photo in the request")
	}
	if f := s.st.files[value]; f != nil {
		return f, nil
	}
	if u, err := url.Parse(value); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return s.newFileLocked(nil, 0, 0, value), nil
	}
	return nil, badRequest("wrong file identifier/HTTP URL specified")
}

func (s *Server) sendPhoto(_ context.Context, r *request) (any, *apiError) {
	cp := r.captioned()
	s.mu.Lock()
	defer s.mu.Unlock()
	c, m, err := s.captionedLocked(r, cp)
	if err != nil {
		return nil, err
	}
	if m.photo, err = s.photoLocked(r, "photo", r.str("photo"), true); err != nil {
		return nil, err
	}
	return s.messageJSONLocked(s.addMessageLocked(c, m)), nil
}

// sendAnimation takes an uploaded GIF (or the file_id of one sent before) with a caption
// and keyboard, as sendPhoto does.
func (s *Server) sendAnimation(_ context.Context, r *request) (any, *apiError) {
	cp := r.captioned()
	s.mu.Lock()
	defer s.mu.Unlock()
	c, m, err := s.captionedLocked(r, cp)
	if err != nil {
		return nil, err
	}
	value := r.str("animation")
	if up, ok := r.files["animation"]; ok && value == "" {
		w, h, err := checkAnimation(up.data)
		if err != nil {
			return nil, err
		}
		m.photo = s.newFileLocked(up.data, w, h, "")
	} else if f := s.st.files[value]; f != nil && value != "" {
		m.photo = f
	} else {
		return nil, badRequest("wrong file identifier/HTTP URL specified")
	}
	m.animated = true
	return s.messageJSONLocked(s.addMessageLocked(c, m)), nil
}

// captionParts are what a message with a caption reads of its request before the lock: the
// caption as sent and as shown, its entities and the keyboard, each with its error.
type captionParts struct {
	source, caption string
	ents            []models.MessageEntity
	mk              *models.InlineKeyboardMarkup
	errs            [3]*apiError // of the caption, the entities, the keyboard
}

// captioned reads r's caption, caption_entities and reply_markup.
func (r *request) captioned() captionParts {
	var cp captionParts
	cp.source, cp.caption, cp.errs[0] = r.formattedCaption()
	cp.ents, cp.errs[1] = r.entities("caption_entities", cp.caption)
	cp.mk, cp.errs[2] = r.replyMarkup()
	return cp
}

// captionedLocked checks a message with a caption as Telegram does, in its order (the chat,
// the caption, its entities, the keyboard, web_app buttons there), and returns its chat and
// the bot's new message with the caption and keyboard, its media still to be set.
func (s *Server) captionedLocked(r *request, cp captionParts) (*chatState, *msgState, *apiError) {
	c, err := s.sendChatLocked(r)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range append(cp.errs[:], checkWebApp(cp.mk, c.model.Type == models.ChatTypePrivate)) {
		if e != nil {
			return nil, nil, e
		}
	}
	return c, &msgState{from: s.botUser.ID, fromBot: true, caption: cp.caption, entities: cp.ents,
		source: cp.source, markup: cp.mk}, nil
}

// chatMessageLocked finds the live message that chat_id and message_id name; verb ("edit",
// "delete") goes into Telegram's "message to … not found" error.
func (s *Server) chatMessageLocked(r *request, verb string) (*chatState, *msgState, *apiError) {
	c, err := s.chatLocked(r)
	if err != nil {
		return nil, nil, err
	}
	id, ok := r.int64("message_id")
	if !ok {
		return nil, nil, badRequest("message identifier is not specified")
	}
	m := c.byID[int(id)]
	if int64(int(id)) != id || m == nil || m.deleted {
		return nil, nil, badRequest("message to %s not found", verb)
	}
	return c, m, nil
}

// editTargetLocked finds the message an edit method names.
func (s *Server) editTargetLocked(r *request) (*msgState, *apiError) {
	if id := r.str("inline_message_id"); id != "" {
		m := s.st.inline[id]
		if m == nil {
			return nil, badRequest("MESSAGE_ID_INVALID")
		}
		return m, nil
	}
	_, m, err := s.chatMessageLocked(r, "edit")
	if err != nil {
		return nil, err
	}
	if !m.fromBot || m.viaBot {
		return nil, badRequest("message can't be edited")
	}
	return m, nil
}

// editedLocked records a successful edit and renders the method's result.
func (s *Server) editedLocked(m *msgState) any {
	m.json = nil
	m.edits++
	m.editDate = s.nowUnix()
	m.seq = s.st.nextSeq()
	s.st.fire(chatKey(m.chatID))
	if m.inlineID != "" {
		return true
	}
	return s.messageJSONLocked(m)
}

func (s *Server) editMessageText(_ context.Context, r *request) (any, *apiError) {
	text, visible, ferr := r.formattedText()
	ents, eerr := r.entities("entities", visible)
	mk, merr := r.replyMarkup()
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.editTargetLocked(r)
	if err != nil {
		return nil, err
	}
	if m.photo != nil {
		return nil, badRequest("there is no text in the message to edit")
	}
	if strings.TrimSpace(text) == "" {
		return nil, badRequest("message text is empty")
	}
	if ferr != nil {
		return nil, ferr
	}
	if eerr != nil {
		return nil, eerr
	}
	if merr != nil {
		return nil, merr
	}
	if err := s.checkWebAppLocked(m, mk); err != nil {
		return nil, err
	}
	if visible == m.text && text == m.source && sameEntities(ents, m.entities) && sameMarkup(mk, m.markup) {
		return nil, errNotModified
	}
	m.text, m.source, m.entities = visible, text, ents
	m.markup = mk
	return s.editedLocked(m), nil
}

func (s *Server) editMessageCaption(_ context.Context, r *request) (any, *apiError) {
	source, caption, ferr := r.formattedCaption()
	ents, eerr := r.entities("caption_entities", caption)
	mk, merr := r.replyMarkup()
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.editTargetLocked(r)
	if err != nil {
		return nil, err
	}
	if m.photo == nil {
		return nil, badRequest("there is no caption in the message to edit")
	}
	if ferr != nil {
		return nil, ferr
	}
	if eerr != nil {
		return nil, eerr
	}
	if merr != nil {
		return nil, merr
	}
	if err := s.checkWebAppLocked(m, mk); err != nil {
		return nil, err
	}
	if caption == m.caption && source == m.source && sameEntities(ents, m.entities) && sameMarkup(mk, m.markup) {
		return nil, errNotModified
	}
	m.caption, m.source, m.entities = caption, source, ents
	m.markup = mk
	return s.editedLocked(m), nil
}

func (s *Server) editMessageReplyMarkup(_ context.Context, r *request) (any, *apiError) {
	mk, merr := r.replyMarkup()
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.editTargetLocked(r)
	if err != nil {
		return nil, err
	}
	if merr != nil {
		return nil, merr
	}
	if err := s.checkWebAppLocked(m, mk); err != nil {
		return nil, err
	}
	if sameMarkup(mk, m.markup) {
		return nil, errNotModified
	}
	m.markup = mk
	return s.editedLocked(m), nil
}

func (s *Server) editMessageMedia(_ context.Context, r *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.editTargetLocked(r)
	if err != nil {
		return nil, err
	}
	var media struct {
		Type            string          `json:"type"`
		Media           string          `json:"media"`
		Caption         string          `json:"caption"`
		ParseMode       string          `json:"parse_mode"`
		CaptionEntities json.RawMessage `json:"caption_entities"`
	}
	if e := json.Unmarshal([]byte(r.str("media")), &media); e != nil {
		return nil, badRequest("can't parse InputMedia JSON object")
	}
	if media.Type != "photo" {
		return nil, badRequest("unsupported media type %q: the fake supports photo", media.Type)
	}
	caption, err := formatText(media.Caption, media.ParseMode, MaxCaptionLen, "message caption is too long")
	if err != nil {
		return nil, err
	}
	ents, err := parseEntityField(string(media.CaptionEntities), media.ParseMode, caption)
	if err != nil {
		return nil, err
	}
	mk, err := parseMarkup(r.str("reply_markup"))
	if err != nil {
		return nil, err
	}
	if err := s.checkWebAppLocked(m, mk); err != nil {
		return nil, err
	}
	photo, err := s.photoLocked(r, "\x00none", media.Media, m.inlineID == "")
	if err != nil {
		return nil, err
	}
	if m.photo != nil && photo.id == m.photo.id && caption == m.caption && sameEntities(ents, m.entities) && sameMarkup(mk, m.markup) {
		return nil, errNotModified
	}
	m.photo, m.caption, m.source, m.markup, m.text, m.entities = photo, caption, media.Caption, mk, "", ents
	m.animated = false
	return s.editedLocked(m), nil
}

func (s *Server) deleteMessage(_ context.Context, r *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, m, err := s.chatMessageLocked(r, "delete")
	if err != nil {
		return nil, err
	}
	if !m.fromBot && c.model.Type != models.ChatTypePrivate {
		return nil, badRequest("message can't be deleted")
	}
	m.deleted = true
	m.seq = s.st.nextSeq()
	s.st.fire(chatKey(m.chatID))
	return true, nil
}

func (s *Server) answerCallbackQuery(_ context.Context, r *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.st.queries[r.str("callback_query_id")]
	if q == nil || q.answer.Answered {
		return nil, errQueryInvalid
	}
	if ttl := s.cfg.callbackTTL; ttl > 0 && s.cfg.now().UnixNano()-q.created > int64(ttl) {
		return nil, errQueryInvalid
	}
	text := r.str("text")
	if utf16Len(text) > MaxAlertLen {
		return nil, badRequest("MESSAGE_TOO_LONG")
	}
	// Without a game, Telegram opens only links that start the bot's own private chat.
	if u := r.str("url"); u != "" && !strings.HasPrefix(u, "https://t.me/"+s.botUser.Username+"?start=") {
		return nil, badRequest("URL_INVALID")
	}
	q.answer.Answered = true
	q.answer.Text, q.answer.ShowAlert, q.answer.URL = text, r.bool("show_alert"), r.str("url")
	q.answer.CacheTime = r.int("cache_time")
	q.answer.Seq = s.st.nextSeq()
	q.answer.Time = s.cfg.now()
	s.st.fire(queryKey(q.id))
	return true, nil
}

var knownResultTypes = map[string]bool{
	"article": true, "photo": true, "gif": true, "mpeg4_gif": true, "video": true, "audio": true,
	"voice": true, "document": true, "location": true, "venue": true, "contact": true, "game": true,
	"sticker": true,
}

func (s *Server) answerInlineQuery(_ context.Context, r *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.st.iqueries[r.str("inline_query_id")]
	if q == nil || q.answer.Answered {
		return nil, errQueryInvalid
	}
	var raws []json.RawMessage
	if e := json.Unmarshal([]byte(r.str("results")), &raws); e != nil {
		return nil, badRequest("can't parse inline query results JSON object")
	}
	if len(raws) > MaxInlineResults {
		return nil, badRequest("RESULTS_TOO_MUCH")
	}
	seen := map[string]bool{}
	results := make([]InlineResult, 0, len(raws))
	for _, raw := range raws {
		res, err := parseInlineResult(raw)
		if err != nil {
			return nil, err
		}
		if seen[res.ID] {
			return nil, badRequest("RESULT_ID_DUPLICATE")
		}
		seen[res.ID] = true
		results = append(results, res)
	}
	q.answer = InlineAnswer{
		QueryID: q.id, Query: q.query, Answered: true, Results: results,
		CacheTime: r.int("cache_time"), IsPersonal: r.bool("is_personal"), NextOffset: r.str("next_offset"),
		Seq: s.st.nextSeq(),
	}
	return true, nil
}

func parseInlineResult(raw json.RawMessage) (InlineResult, *apiError) {
	var w struct {
		Type                string          `json:"type"`
		ID                  string          `json:"id"`
		Title               string          `json:"title"`
		Description         string          `json:"description"`
		Caption             string          `json:"caption"`
		ParseMode           string          `json:"parse_mode"`
		PhotoURL            string          `json:"photo_url"`
		PhotoFileID         string          `json:"photo_file_id"`
		ReplyMarkup         json.RawMessage `json:"reply_markup"`
		InputMessageContent *struct {
			MessageText string `json:"message_text"`
			ParseMode   string `json:"parse_mode"`
		} `json:"input_message_content"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return InlineResult{}, badRequest("can't parse inline query result JSON object")
	}
	if !knownResultTypes[w.Type] {
		return InlineResult{}, badRequest("RESULT_TYPE_INVALID")
	}
	if w.ID == "" || len(w.ID) > 64 {
		return InlineResult{}, badRequest("RESULT_ID_INVALID")
	}
	mk, err := parseMarkupValue(w.ReplyMarkup)
	if err == nil {
		err = checkWebApp(mk, false) // an inline message is in no private chat of the bot's
	}
	if err != nil {
		return InlineResult{}, err
	}
	res := InlineResult{
		ID: w.ID, Type: w.Type, Title: w.Title, Description: w.Description,
		PhotoURL: w.PhotoURL, PhotoFileID: w.PhotoFileID, Markup: mk, Raw: append(json.RawMessage(nil), raw...),
	}
	if w.Type == "photo" && w.PhotoURL == "" && w.PhotoFileID == "" {
		return InlineResult{}, badRequest("PHOTO_INVALID")
	}
	if w.Caption != "" {
		if res.Caption, err = formatText(w.Caption, w.ParseMode, MaxCaptionLen, "MEDIA_CAPTION_TOO_LONG"); err != nil {
			return InlineResult{}, err
		}
	}
	if c := w.InputMessageContent; c != nil {
		if strings.TrimSpace(c.MessageText) == "" {
			return InlineResult{}, badRequest("MESSAGE_EMPTY")
		}
		if res.Text, err = formatText(c.MessageText, c.ParseMode, MaxTextLen, "MESSAGE_TOO_LONG"); err != nil {
			return InlineResult{}, err
		}
		res.ParseMode = c.ParseMode
	} else if w.Type == "article" {
		return InlineResult{}, badRequest("MESSAGE_EMPTY")
	}
	return res, nil
}

func (s *Server) sendChatAction(_ context.Context, r *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.sendChatLocked(r); err != nil {
		return nil, err
	}
	if r.str("action") == "" {
		return nil, badRequest("action is empty")
	}
	return true, nil
}

func (s *Server) getChat(_ context.Context, r *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.chatLocked(r)
	if err != nil {
		return nil, err
	}
	m := c.model
	return models.ChatFullInfo{ID: m.ID, Type: m.Type, Title: m.Title, Username: m.Username, FirstName: m.FirstName, LastName: m.LastName}, nil
}

func (s *Server) getChatMember(_ context.Context, r *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.chatLocked(r)
	if err != nil {
		return nil, err
	}
	uid, _ := r.int64("user_id")
	var user models.User
	if uid == s.botUser.ID {
		user = s.botUser
	} else if u := s.st.users[uid]; u != nil {
		user = u.model
	} else {
		return nil, badRequest("PARTICIPANT_ID_INVALID")
	}
	status := "left"
	switch {
	case uid == s.botUser.ID && c.model.Type != models.ChatTypePrivate:
		status = "administrator"
	case uid == s.botUser.ID, c.model.Type == models.ChatTypePrivate && uid == c.model.ID, c.members[uid]:
		status = "member"
	}
	return map[string]any{"status": status, "user": user}, nil
}

var commandRE = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

// commandsKeyOf is the key in the server's command lists that the request's scope (the
// default scope when there is none) and language_code name; it fails as Telegram does on a
// scope that is not a BotCommandScope object.
func commandsKeyOf(r *request) (string, *apiError) {
	scope := "default"
	if raw := r.str("scope"); raw != "" {
		var sc struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(raw), &sc); err != nil || sc.Type == "" {
			return "", badRequest("can't parse BotCommandScope JSON object")
		}
		scope = sc.Type
	}
	return commandsKey(scope, r.str("language_code")), nil
}

func (s *Server) setMyCommands(_ context.Context, r *request) (any, *apiError) {
	var cmds []models.BotCommand
	if err := json.Unmarshal([]byte(r.str("commands")), &cmds); err != nil {
		return nil, badRequest("can't parse commands JSON object")
	}
	if len(cmds) > 100 {
		return nil, badRequest("BOT_COMMANDS_TOO_MUCH")
	}
	for _, c := range cmds {
		if !commandRE.MatchString(c.Command) {
			return nil, badRequest("BOT_COMMAND_INVALID")
		}
		if n := utf16Len(strings.TrimSpace(c.Description)); n < 1 || n > 256 {
			return nil, badRequest("BOT_COMMAND_DESCRIPTION_INVALID")
		}
	}
	return s.withCommandsLocked(r, func(key string) any {
		s.st.commands[key] = cmds
		s.st.nextSeq()
		return true
	})
}

func (s *Server) getMyCommands(_ context.Context, r *request) (any, *apiError) {
	return s.withCommandsLocked(r, func(key string) any {
		cmds := s.st.commands[key]
		if cmds == nil {
			cmds = []models.BotCommand{}
		}
		return cmds
	})
}

func (s *Server) deleteMyCommands(_ context.Context, r *request) (any, *apiError) {
	return s.withCommandsLocked(r, func(key string) any {
		delete(s.st.commands, key)
		return true
	})
}

// withCommandsLocked runs fn, under the server's lock, on the key of the command list that
// the request's scope and language_code name, and answers fn's result; a scope that does
// not parse is answered with commandsKeyOf's error before the lock is taken.
func (s *Server) withCommandsLocked(r *request, fn func(key string) any) (any, *apiError) {
	key, err := commandsKeyOf(r)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn(key), nil
}

var secretRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

func (s *Server) setWebhook(ctx context.Context, r *request) (any, *apiError) {
	raw := strings.TrimSpace(r.str("url"))
	if raw == "" {
		return s.deleteWebhook(ctx, r)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, badRequest("bad webhook: Failed to resolve host: Name or service not known")
	}
	secret := r.str("secret_token")
	if secret != "" && !secretRE.MatchString(secret) {
		return nil, badRequest("secret token contains unallowed characters")
	}
	allowed, aerr := parseAllowed(r)
	if aerr != nil {
		return nil, aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.has("allowed_updates") {
		s.st.allowed = allowed
	}
	s.pointWebhookLocked(r, raw, secret)
	return true, nil
}

func (s *Server) deleteWebhook(_ context.Context, r *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pointWebhookLocked(r, "", "")
	return true, nil
}

// pointWebhookLocked sends updates to the webhook at to with secret (to "" turns the
// webhook off, so updates wait for getUpdates), starting its count of failed attempts
// afresh; it drops the queued updates when the request's drop_pending_updates asks for it.
func (s *Server) pointWebhookLocked(r *request, to, secret string) {
	if r.bool("drop_pending_updates") {
		s.st.updates = nil
	}
	s.st.webhook.url, s.st.webhook.secret, s.st.webhook.attempts = to, secret, 0
	s.st.nextSeq()
	s.st.fire(updatesKey)
}

func (s *Server) getWebhookInfo(_ context.Context, _ *request) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.st.webhook
	info := models.WebhookInfo{URL: w.url, PendingUpdateCount: len(s.st.updates)}
	if w.lastError != 0 {
		info.LastErrorDate, info.LastErrorMessage = w.lastError, w.stats.LastError
	}
	return info, nil
}

// parseAllowed reads allowed_updates: nil means Telegram's default set.
func parseAllowed(r *request) (map[string]bool, *apiError) {
	raw := strings.TrimSpace(r.str("allowed_updates"))
	if raw == "" {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		return nil, badRequest("can't parse allowed_updates JSON array")
	}
	if len(list) == 0 {
		return nil, nil
	}
	m := make(map[string]bool, len(list))
	for _, k := range list {
		m[k] = true
	}
	return m, nil
}

// conflict errors of getUpdates.
var (
	errWebhookActive = &apiError{code: http.StatusConflict, desc: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"}
	errTerminated    = &apiError{code: http.StatusConflict, desc: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"}
)

// checkWebAppLocked is checkWebApp for a keyboard put on message m: a web_app button only in
// a private chat, never in an inline message.
func (s *Server) checkWebAppLocked(m *msgState, mk *models.InlineKeyboardMarkup) *apiError {
	private := false
	if c := s.st.chats[m.chatID]; c != nil && m.inlineID == "" {
		private = c.model.Type == models.ChatTypePrivate
	}
	return checkWebApp(mk, private)
}
