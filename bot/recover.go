package bot

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/i18n"
)

// recoverPanics is the middleware that turns a panic in next into an error line in the log
// (with the stack), the outcome error, and an apology to the user (apologize, whose own
// panic is swallowed), never a crash.
func recoverPanics(log *slog.Logger, apologize func(context.Context, *models.Update)) UpdateMiddleware {
	return func(next UpdateHandler) UpdateHandler {
		return func(ctx context.Context, u *models.Update) {
			defer func() {
				r := recover()
				if r == nil {
					return
				}
				setOutcome(ctx, outcomeError, fmt.Errorf("panic: %v", r))
				log.Error("panic in handler", "update", u.ID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				func() {
					defer func() { _ = recover() }()
					apologize(ctx, u)
				}()
			}()
			next(ctx, u)
		}
	}
}

// apologize tells the user something went wrong after a panic, as far as the update allows.
func (m *messenger) apologize(ctx context.Context, u *models.Update) {
	switch {
	case u.CallbackQuery != nil:
		lang := normLang(u.CallbackQuery.From.LanguageCode)
		_ = m.answer(ctx, u.CallbackQuery.ID, tr(lang, i18n.KeyErrInternal), true)
	case u.Message != nil && u.Message.Chat.ID != 0:
		lang := langEN
		if u.Message.From != nil {
			lang = normLang(u.Message.From.LanguageCode)
		}
		_, _ = m.sendText(ctx, u.Message.Chat.ID, tr(lang, i18n.KeyErrInternal), nil)
	}
}
