package telegramtest_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// An upgrade makes a supergroup with the group's members, queues its two service messages in
// the order asked (none when Silent), and from then on refuses every call on the old id with
// Telegram's 400 and parameters.migrate_to_chat_id, which the library reads as a MigrateError.
func TestUpgrade(t *testing.T) {
	for _, order := range []telegramtest.MigrateOrder{telegramtest.OldChatFirst, telegramtest.NewChatFirst, telegramtest.Silent} {
		srv, b, ctx, alice := startedAlice(t)
		bob := started(t, srv, "Bob", "en")
		g := srv.NewBasicGroup("Club", alice, bob)
		if g.ID() >= 0 || strings.HasPrefix(strconv.FormatInt(g.ID(), 10), "-100") {
			t.Fatalf("basic group id %d, want a negative one outside the supergroups' -100…", g.ID())
		}
		if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: g.ID(), Text: "before"}); err != nil {
			t.Fatal(err)
		}
		if _, err := alice.Send(g.ID(), "/new"); err != nil {
			t.Fatal(err)
		}
		drain(t, srv)
		if _, err := g.Upgrade(srv.NewUser("Stranger", "en"), order); !errors.Is(err, telegramtest.ErrNotVisible) {
			t.Fatalf("Upgrade by a stranger = %v, want ErrNotVisible", err)
		}
		sg, err := g.Upgrade(bob, order)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(strconv.FormatInt(sg.ID(), 10), "-100") {
			t.Fatalf("supergroup id %d, want -100…", sg.ID())
		}
		if _, err := g.Upgrade(bob, order); err == nil {
			t.Fatal("a group upgraded twice")
		}

		var got []models.Message
		for _, u := range drain(t, srv) {
			var m models.Message
			if err := json.Unmarshal(u["message"], &m); err != nil {
				t.Fatalf("update %s: %v", u["message"], err)
			}
			got = append(got, m)
		}
		want := 2
		if order == telegramtest.Silent {
			want = 0
		}
		if len(got) != want {
			t.Fatalf("order %d: %d service messages, want %d", order, len(got), want)
		}
		if want == 2 {
			old, fresh := got[0], got[1]
			if order == telegramtest.NewChatFirst {
				old, fresh = fresh, old
			}
			if old.Chat.ID != g.ID() || old.Chat.Type != models.ChatTypeGroup || old.MigrateToChatID != sg.ID() ||
				old.From == nil || old.From.ID != bob.ID() || old.ID != 3 {
				t.Fatalf("order %d: message in the old chat %+v", order, old)
			}
			if fresh.Chat.ID != sg.ID() || fresh.Chat.Type != models.ChatTypeSupergroup || fresh.MigrateFromChatID != g.ID() ||
				fresh.From == nil || fresh.From.ID != bob.ID() {
				t.Fatalf("order %d: message in the new chat %+v", order, fresh)
			}
		}

		// Calls on the old id are refused with the new id; the new chat takes them.
		_, err = b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: g.ID(), Text: "after"})
		var m *tgbot.MigrateError
		if !errors.As(err, &m) || int64(m.MigrateToChatID) != sg.ID() || !strings.Contains(err.Error(), "upgraded to a supergroup") {
			t.Fatalf("send to the old chat = %v, want a MigrateError to %d", err, sg.ID())
		}
		status, body := raw(t, srv, "editMessageText", url.Values{"chat_id": {strconv.FormatInt(g.ID(), 10)},
			"message_id": {"1"}, "text": {"x"}})
		if status != 400 || !strings.Contains(string(body), `"migrate_to_chat_id":`+strconv.FormatInt(sg.ID(), 10)) {
			t.Fatalf("edit in the old chat: %d %s", status, body)
		}
		if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: sg.ID(), Text: "after"}); err != nil {
			t.Fatalf("send to the supergroup: %v", err)
		}
		if _, err := bob.Send(sg.ID(), "/top"); err != nil {
			t.Fatalf("a member writes in the supergroup: %v", err)
		}
		if ms := srv.BotMessages(g.ID()); len(ms) != 1 || ms[0].Text != "before" {
			t.Fatalf("the old chat's messages changed: %+v", ms)
		}
	}
	srv := telegramtest.Start(t)
	u := srv.NewUser("A", "en")
	if _, err := srv.NewGroup("Super", u).Upgrade(u, telegramtest.OldChatFirst); err == nil {
		t.Fatal("a supergroup upgraded")
	}
}
