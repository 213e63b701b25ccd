package bot_test

import (
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// TestAIMenuBack walks the AI menu forward and back: every step has a « Back that returns to
// the step before it, in the same message, with what was chosen before kept.
func TestAIMenuBack(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.NewUser("Alice", "en")
	menu := h.startMenu(alice)
	has := func(sub string) func(telegramtest.ChatMessage) bool {
		return func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, sub) }
	}
	h.press(alice, menu, "🤖 Play the bot")
	menu = h.waitState(menu, "size step", has("board size"))
	h.press(alice, menu, "« Back")
	menu = h.waitState(menu, "main menu again", has("What shall we play?"))
	h.press(alice, menu, "🤖 Play the bot")
	menu = h.waitState(menu, "size step", has("board size"))
	h.press(alice, menu, "10×10")
	menu = h.waitState(menu, "level step", has("bot's level"))
	h.press(alice, menu, "« Back")
	menu = h.waitState(menu, "size step again", has("board size"))
	h.press(alice, menu, "10×10")
	menu = h.waitState(menu, "level step", has("bot's level"))
	h.press(alice, menu, "3. Casual")
	menu = h.waitState(menu, "colour step", has("colour"))
	h.press(alice, menu, "« Back")
	menu = h.waitState(menu, "level step again", has("bot's level"))
	// The level step that Back led to still plays on 10×10.
	h.press(alice, menu, "3. Casual")
	menu = h.waitState(menu, "colour step", has("colour"))
	last := h.lastID(alice.ID())
	h.press(alice, menu, "⚫ Black")
	board := h.boardIn(alice.ID(), last)
	if !board.HasPhoto() {
		t.Errorf("a 10×10 board is a picture:%s", dump([]telegramtest.ChatMessage{board}))
	}
	h.waitState(menu, "the menu's note of the game", has("10×10, Casual"))
	if n := len(h.srv.BotMessages(alice.ID())); n != 2 {
		t.Errorf("the menu walk sent %d messages, want the menu and the board:%s", n, dump(h.srv.BotMessages(alice.ID())))
	}
}

// TestLangMenus checks that /lang names the language in use and marks it, that its buttons
// and the main menu's language button switch in place (the same message, redrawn in the
// language chosen), and that a language the bot does not speak is said so.
func TestLangMenus(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.NewUser("Alice", "en")
	h.send(alice, alice.ID(), "/lang")
	menu := h.waitText(alice.ID(), "Language here: English")
	if _, err := menu.Button("✓ English"); err != nil {
		t.Errorf("the active language is not marked:%s", dump([]telegramtest.ChatMessage{menu}))
	}
	h.press(alice, menu, "Русский")
	menu = h.waitState(menu, "the menu in Russian", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "Язык здесь: русский")
	})
	if _, err := menu.Button("✓ Русский"); err != nil {
		t.Errorf("the new language is not marked:%s", dump([]telegramtest.ChatMessage{menu}))
	}
	h.send(alice, alice.ID(), "/lang")
	h.waitText(alice.ID(), "Язык здесь: русский")
	h.send(alice, alice.ID(), "/lang fr")
	h.waitText(alice.ID(), "Я говорю по-английски (en) и по-русски (ru)")

	main := h.startMenuText(alice, "Во что сыграем?")
	h.press(alice, main, "🌐 Language: English")
	main = h.waitState(main, "the main menu in English", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "What shall we play?")
	})
	if _, err := main.Button("🌐 Язык: русский"); err != nil {
		t.Errorf("the main menu did not toggle in place:%s", dump([]telegramtest.ChatMessage{main}))
	}
	h.send(alice, alice.ID(), "/lang")
	h.waitText(alice.ID(), "Language here: English")
}

// startMenuText has u send /start and waits for the main menu, whose text contains sub.
func (h *harness) startMenuText(u *telegramtest.Person, sub string) telegramtest.ChatMessage {
	h.t.Helper()
	last := h.lastID(u.ID())
	h.send(u, u.ID(), "/start")
	return h.waitMsg(u.ID(), "the main menu", func(m telegramtest.ChatMessage) bool {
		return m.ID > last && strings.Contains(m.Text, sub)
	})
}

// TestGroupLangRedrawsBoard: a group's /lang redraws its open invitation and, later, its
// board in play in the language chosen.
func TestGroupLangRedrawsBoard(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	g := h.srv.NewGroup("Club", alice, bob)
	h.send(bob, g.ID(), "/new")
	lobby := h.waitLobby(g.ID(), "Bob")
	h.send(alice, g.ID(), "/lang@"+telegramtest.DefaultBotUsername+" ru")
	h.waitText(g.ID(), "Буду говорить по-русски")
	lobby = h.waitState(lobby, "the invitation in Russian", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "хочет сыграть") && m.Markup != nil
	})
	last := h.lastID(g.ID())
	h.press(alice, lobby, "✅ Присоединиться")
	board := h.boardIn(g.ID(), last)
	if !strings.Contains(board.Content(), "Ходит") {
		t.Fatalf("the board is not in Russian:%s", dump([]telegramtest.ChatMessage{board}))
	}
	h.send(alice, g.ID(), "/lang@"+telegramtest.DefaultBotUsername+" en")
	h.waitText(g.ID(), "I will speak English")
	h.waitState(board, "the board in English", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "To move")
	})
}
