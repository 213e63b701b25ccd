package telegramtest

import (
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
)

// messageModel is what messageJSONLocked encodes: m as the Bot API's Message.
func (s *Server) messageModel(m *msgState) models.Message {
	out := models.Message{
		ID: m.id, Date: m.date, EditDate: m.editDate, Text: m.text, Entities: m.entities,
		Caption: m.caption, ReplyMarkup: cloneMarkup(m.markup),
	}
	if m.markup != nil && len(m.markup.InlineKeyboard) == 0 {
		out.ReplyMarkup = nil
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
	if p := m.photo; p != nil {
		out.Photo = []models.PhotoSize{{FileID: p.id, FileUniqueID: p.uniqueID, Width: p.width, Height: p.height, FileSize: len(p.data)}}
	}
	return out
}

// TestMessageJSON checks messageJSONLocked against encoding/json byte for byte (but for the
// empty copy_text it leaves out), for every kind of message the fake holds.
func TestMessageJSON(t *testing.T) {
	s := New()
	defer s.Close()
	u := s.NewUser("Al<i>ce & \"Bob\"", "en")
	if _, err := u.Send(u.ID(), "/start x"); err != nil {
		t.Fatal(err)
	}
	g := s.NewGroup("Группа <1>", u)
	s.mu.Lock()
	defer s.mu.Unlock()
	photo := s.newFileLocked([]byte("png bytes"), 10, 20, "")
	user := s.st.chats[u.ID()].msgs[0]
	msgs := []*msgState{
		user,
		{chatID: u.ID(), id: 2, from: s.botUser.ID, fromBot: true, date: 1_800_000_000, text: "board\n⚫ to move\u2028", markup: boardMarkup()},
		{chatID: u.ID(), id: 3, from: s.botUser.ID, fromBot: true, date: 1, editDate: 2, caption: "a < b", photo: photo, markup: &models.InlineKeyboardMarkup{}},
		{chatID: g.ID(), id: 1, from: u.ID(), fromBot: true, viaBot: true, date: 5, text: "via", markup: boardMarkup(), inlineID: "AgAAAFake1"},
		{chatID: 12345, id: 9, from: 777, date: 3, text: strings.Repeat("x", 5000)}, // no such chat or user
		{chatID: u.ID(), id: 4, from: s.botUser.ID, fromBot: true},
	}
	for i, m := range msgs {
		got, want := s.messageJSONLocked(m), strings.ReplaceAll(string(mustJSON(s.messageModel(m))), emptyCopyText, "")
		if string(got) != want {
			t.Errorf("message %d:\n got %s\nwant %s", i, got, want)
		}
		if again := s.messageJSONLocked(m); string(again) != string(got) {
			t.Errorf("message %d: a second rendering differs: %s", i, again)
		}
	}
}

// emptyCopyText is how encoding/json writes a button's absent copy_text, which Telegram leaves out.
const emptyCopyText = `,"copy_text":{"text":""}`
