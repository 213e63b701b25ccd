package telegramtest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
)

// TestMessageJSON checks messageJSONLocked, for every kind of message the fake holds: it
// reads back, with the library's types, as the message's model with its keyboard, and it
// leaves out the empty copy_text of buttons without one, as Telegram does.
func TestMessageJSON(t *testing.T) {
	s := New()
	defer s.Close()
	u := startedUser(t, s, "Al<i>ce & \"Bob\"", "/start x")
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
		got := s.messageJSONLocked(m)
		want := s.messageModelLocked(m)
		if m.markup != nil && len(m.markup.InlineKeyboard) > 0 {
			want.ReplyMarkup = m.markup
		}
		var back models.Message
		if err := json.Unmarshal(got, &back); err != nil || !reflect.DeepEqual(back, want) {
			t.Errorf("message %d: %s\nreads back as %+v, %v\nwant %+v", i, got, back, err, want)
		}
		if strings.Contains(string(got), emptyCopyText) {
			t.Errorf("message %d: %s has an empty copy_text", i, got)
		}
		if wantJSON := mustJSON(want); !jsonEqual(t, got, []byte(strings.ReplaceAll(string(wantJSON), emptyCopyText, ""))) {
			t.Errorf("message %d:\n got %s\nwant %s", i, got, wantJSON)
		}
		if again := s.messageJSONLocked(m); string(again) != string(got) {
			t.Errorf("message %d: a second rendering differs: %s", i, again)
		}
	}
	if m := s.messageModelLocked(msgs[1]); m.From == nil || m.From.ID != s.botUser.ID || m.Chat.ID != u.ID() || m.Text != msgs[1].text {
		t.Errorf("messageModelLocked = %+v", m)
	}
}

// emptyCopyText is how encoding/json writes a button's absent copy_text, which Telegram leaves out.
const emptyCopyText = `,"copy_text":{"text":""}`
