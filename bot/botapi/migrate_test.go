package botapi_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// upgraded is Telegram's answer to a call on a group that became the supergroup -100123.
const upgraded = `{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded to a supergroup chat","parameters":{"migrate_to_chat_id":-100123}}`

// migrations records what OnMigrate is told.
type migrations struct {
	mu   sync.Mutex
	seen [][2]int64
}

func (m *migrations) on(from, to int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seen = append(m.seen, [2]int64{from, to})
}

func (m *migrations) got() [][2]int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.seen)
}

// newMigrating starts a scripted server and a Client of it that tells a migrations.
func newMigrating(t *testing.T) (*botapi.Client, *scripted, *migrations) {
	t.Helper()
	s := &scripted{t: t}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	m := &migrations{}
	c, err := botapi.New(botapi.Options{Token: testToken, ServerURL: srv.URL, HTTPClient: srv.Client(), OnMigrate: m.on})
	if err != nil {
		t.Fatal(err)
	}
	return c, s, m
}

// A send refused because its group became a supergroup is made again in the supergroup, by a
// Client and by its Once view alike, and OnMigrate is told; the caller's parameters stay as
// they were.
func TestSendFollowsMigration(t *testing.T) {
	sent := `{"ok":true,"result":{"message_id":5,"date":1,"chat":{"id":-100123,"type":"supergroup"},"text":"x"}}`
	for _, once := range []bool{false, true} {
		c, s, m := newMigrating(t)
		if once {
			c = c.Once()
		}
		s.then(400, upgraded).then(200, sent)
		p := &tgbot.SendMessageParams{ChatID: int64(-42), Text: "x"}
		msg, err := c.SendMessage(context.Background(), p)
		if err != nil || msg == nil || msg.Chat.ID != -100123 {
			t.Fatalf("once=%v: SendMessage = %+v, %v; want the message in the supergroup", once, msg, err)
		}
		reqs := s.requests()
		if len(reqs) != 2 || reqs[0].fields["chat_id"] != "-42" || reqs[1].fields["chat_id"] != "-100123" {
			t.Fatalf("once=%v: requests %+v, want the send to -42, then to -100123", once, reqs)
		}
		if got := m.got(); !slices.Equal(got, [][2]int64{{-42, -100123}}) {
			t.Fatalf("once=%v: OnMigrate told %v", once, got)
		}
		if p.ChatID != int64(-42) {
			t.Fatalf("once=%v: the caller's parameters now name chat %v", once, p.ChatID)
		}
	}
}

// Photos, animations and chat actions follow too.
func TestOtherSendsFollowMigration(t *testing.T) {
	photo := `{"ok":true,"result":{"message_id":6,"date":1,"chat":{"id":-100123,"type":"supergroup"},"photo":[{"file_id":"f","file_unique_id":"u","width":1,"height":1}]}}`
	ctx := context.Background()
	calls := []struct {
		name  string
		reply string
		call  func(c *botapi.Client) error
	}{
		{"sendPhoto", photo, func(c *botapi.Client) error {
			_, err := c.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: int64(-42), Photo: &models.InputFileString{Data: "f"}})
			return err
		}},
		{"sendAnimation", photo, func(c *botapi.Client) error {
			_, err := c.SendAnimation(ctx, &tgbot.SendAnimationParams{ChatID: int64(-42), Animation: &models.InputFileString{Data: "f"}})
			return err
		}},
		{"sendChatAction", `{"ok":true,"result":true}`, func(c *botapi.Client) error {
			_, err := c.SendChatAction(ctx, &tgbot.SendChatActionParams{ChatID: int64(-42), Action: models.ChatActionTyping})
			return err
		}},
	}
	for _, tc := range calls {
		c, s, m := newMigrating(t)
		s.then(400, upgraded).then(200, tc.reply)
		if err := tc.call(c); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if reqs := s.requests(); len(reqs) != 2 || reqs[1].method != tc.name || reqs[1].fields["chat_id"] != "-100123" {
			t.Fatalf("%s: requests %+v", tc.name, reqs)
		}
		if len(m.got()) != 1 {
			t.Fatalf("%s: OnMigrate told %v", tc.name, m.got())
		}
	}
}

// A send is made again once: refused again, it fails with the migration's kind.
func TestSendFollowsMigrationOnce(t *testing.T) {
	c, s, m := newMigrating(t)
	s.then(400, upgraded).then(400, upgraded)
	_, err := c.SendMessage(context.Background(), &tgbot.SendMessageParams{ChatID: int64(-42), Text: "x"})
	var e *botapi.Error
	if !errors.As(err, &e) || e.Kind != botapi.KindMigrated || botapi.MigratedTo(err) != -100123 || e.Status != 400 {
		t.Fatalf("SendMessage refused twice = %v, want a KindMigrated *Error naming -100123", err)
	}
	if n := len(s.requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
	if got := m.got(); !slices.Equal(got, [][2]int64{{-42, -100123}}) {
		t.Fatalf("OnMigrate told %v, want the first refusal (the second names its own chat)", got)
	}
}

// An edit of a message in the old chat cannot follow it: it fails as KindMigrated at once,
// and OnMigrate is told.
func TestEditDoesNotFollowMigration(t *testing.T) {
	c, s, m := newMigrating(t)
	s.then(400, upgraded)
	_, err := c.EditMessageText(context.Background(), &tgbot.EditMessageTextParams{ChatID: int64(-42), MessageID: 3, Text: "x"})
	if botapi.KindOf(err) != botapi.KindMigrated || botapi.MigratedTo(err) != -100123 {
		t.Fatalf("EditMessageText = %v, want KindMigrated", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	if got := m.got(); !slices.Equal(got, [][2]int64{{-42, -100123}}) {
		t.Fatalf("OnMigrate told %v", got)
	}
	if to := botapi.MigratedTo(errors.New("other")); to != 0 {
		t.Fatalf("MigratedTo(another error) = %d", to)
	}
}

// Against the fake Bot API: after an upgrade a send to the group lands in the supergroup, and
// an edit of the group's message fails as KindMigrated.
func TestSendFollowsUpgradeOfTheFake(t *testing.T) {
	srv := telegramtest.Start(t)
	m := &migrations{}
	c, err := botapi.New(botapi.Options{Token: srv.Token(), ServerURL: srv.URL(), OnMigrate: m.on})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	u := srv.NewUser("Alice", "en")
	g := srv.NewBasicGroup("Club", u)
	old, err := c.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: g.ID(), Text: "before"})
	if err != nil {
		t.Fatal(err)
	}
	sg, err := g.Upgrade(u, telegramtest.Silent)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := c.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: g.ID(), Text: "after"})
	if err != nil || msg.Chat.ID != sg.ID() {
		t.Fatalf("SendMessage to the old group = %+v, %v; want it in the supergroup", msg, err)
	}
	if last, ok := srv.LastMessage(sg.ID()); !ok || last.Text != "after" {
		t.Fatalf("the supergroup shows %+v", last)
	}
	_, err = c.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: g.ID(), MessageID: old.ID, Text: "edited"})
	if botapi.KindOf(err) != botapi.KindMigrated || botapi.MigratedTo(err) != sg.ID() {
		t.Fatalf("edit in the old group = %v, want KindMigrated to %d", err, sg.ID())
	}
	if got := m.got(); len(got) != 2 || got[0] != [2]int64{g.ID(), sg.ID()} || got[1] != got[0] {
		t.Fatalf("OnMigrate told %v", got)
	}
}
