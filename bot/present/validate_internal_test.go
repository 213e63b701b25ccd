package present

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
)

// TestValidateKeyboardActions checks the rule of the Bot API that a button has exactly one
// action, and the bounds of its data and of its text to copy.
func TestValidateKeyboardActions(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    models.InlineKeyboardButton
		ok   bool
	}{
		{"callback", models.InlineKeyboardButton{Text: "a", CallbackData: "x"}, true},
		{"url", models.InlineKeyboardButton{Text: "a", URL: "https://t.me/x"}, true},
		{"copy", models.InlineKeyboardButton{Text: "a", CopyText: models.CopyTextButton{Text: "c"}}, true},
		{"copy of 256 characters", models.InlineKeyboardButton{Text: "a", CopyText: models.CopyTextButton{Text: strings.Repeat("é", 256)}}, true},
		{"copy of 257 characters", models.InlineKeyboardButton{Text: "a", CopyText: models.CopyTextButton{Text: strings.Repeat("é", 257)}}, false},
		{"chosen chat", models.InlineKeyboardButton{Text: "a", SwitchInlineQueryChosenChat: &models.SwitchInlineQueryChosenChat{AllowUserChats: true}}, true},
		{"no action", models.InlineKeyboardButton{Text: "a"}, false},
		{"callback and url", models.InlineKeyboardButton{Text: "a", CallbackData: "x", URL: "https://t.me/x"}, false},
		{"callback and copy", models.InlineKeyboardButton{Text: "a", CallbackData: "x", CopyText: models.CopyTextButton{Text: "c"}}, false},
		{"web app and pay", models.InlineKeyboardButton{Text: "a", WebApp: &models.WebAppInfo{URL: "https://x"}, Pay: true}, false},
	} {
		err := ValidateKeyboard(models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{tc.b}}})
		if tc.ok != (err == nil) || err != nil && !errors.Is(err, ErrKeyboard) {
			t.Errorf("%s: ValidateKeyboard = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
