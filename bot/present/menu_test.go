package present_test

import (
	"testing"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
)

// TestMenuNumbers pins the Arg that ActionMenu buttons carry for each menu: messages already
// sent hold these numbers, so they must not change.
func TestMenuNumbers(t *testing.T) {
	for m, want := range map[present.Menu]int{
		present.MenuMain: 0, present.MenuSize: 1, present.MenuFriend: 2, present.MenuFind: 3,
		present.MenuRules: 4, present.MenuStats: 5, present.MenuStyle: 6,
		present.MenuStyleButtons: 7, present.MenuStyleImage: 8,
	} {
		if int(m) != want {
			t.Errorf("%v = %d, want %d", m, int(m), want)
		}
	}
}

// TestMenuButtonsOpenMenus checks that every ActionMenu button of every menu carries a Menu
// that is known, and that every Drawn menu draws a text and buttons.
func TestMenuButtonsOpenMenus(t *testing.T) {
	for m := present.MenuMain; m <= present.MenuFriendPick; m++ {
		for _, lang := range i18n.Langs() {
			c := present.DrawMenu(m, lang, present.MenuState{Name: "A", Size: 8, Level: 1, Bot: "B"})
			if !m.Drawn() {
				if c.Text != "" || c.Keyboard != nil {
					t.Errorf("%v is no menu but draws %q", m, c.Text)
				}
				continue
			}
			if c.Text == "" || c.Keyboard == nil || len(c.Keyboard.InlineKeyboard) == 0 {
				t.Fatalf("%v in %s draws %+v", m, lang, c)
			}
			for _, row := range c.Keyboard.InlineKeyboard {
				for _, b := range row {
					if b.CallbackData == "" && (b.URL != "" || b.SwitchInlineQueryChosenChat != nil) {
						continue // a link, or the chat picker: no data
					}
					cb, err := callback.Parse(b.CallbackData)
					if err != nil {
						t.Fatalf("%v: button %q: %v", m, b.Text, err)
					}
					if cb.Action == callback.ActionMenu && (cb.Arg > int(present.MenuStyleImage) || present.Menu(cb.Arg).String() == "") {
						t.Errorf("%v: button %q opens %d, which no ActionMenu carries", m, b.Text, cb.Arg)
					}
				}
			}
		}
	}
	if s := present.Menu(99).String(); s != "Menu(99)" {
		t.Errorf("Menu(99) = %q", s)
	}
}

func TestLangOfArg(t *testing.T) {
	// The language menu's buttons carry Arg 1 (English) and 2 (Russian).
	for arg, want := range map[int]string{1: "en", 2: "ru", 0: "", 3: "", -1: ""} {
		got, ok := present.LangOfArg(arg)
		if got != want || ok != (want != "") {
			t.Errorf("LangOfArg(%d) = %q, %v; want %q, %v", arg, got, ok, want, want != "")
		}
	}
}
