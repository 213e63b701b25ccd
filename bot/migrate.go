package bot

import (
	"context"
	"errors"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/game"
)

// A group that becomes a supergroup gets a new chat id, and the old one serves no more. The
// bot learns it from either of two service messages (migrate_to_chat_id in the old chat,
// migrate_from_chat_id in the new one; both come, in either order, maybe to different
// processes) or from a call on the old id that Telegram refuses (botapi.Options.OnMigrate).
// Each runs the same idempotent migration: game.Service.MigrateChat moves the group's game,
// leaderboard, language and last game to the new id, and the one call that moved the game
// posts its board (or its lobby) again in the new chat, since the old messages can no longer
// be edited. A send the bot makes on the old id meanwhile is made again on the new one by the
// Bot API client.

// migrateTimeout bounds a migration found out by a refused call, which runs after that call.
const migrateTimeout = 30 * time.Second

// isMigration reports whether msg is one of the service messages of a group's upgrade.
func isMigration(msg *models.Message) bool {
	return msg.MigrateToChatID != 0 || msg.MigrateFromChatID != 0
}

// onMigrate handles a service message of a group's upgrade: in the old chat it names the new
// one (migrate_to_chat_id), in the new chat the old one (migrate_from_chat_id).
func (h *handler) onMigrate(ctx context.Context, msg *models.Message) error {
	from, to := msg.Chat.ID, msg.MigrateToChatID
	if msg.MigrateFromChatID != 0 {
		from, to = msg.MigrateFromChatID, msg.Chat.ID
	}
	return h.cmds.bot.migrate(ctx, from, to)
}

// migrated is told by the Bot API client that a call on chat from was refused because the
// group became the supergroup to: it runs the migration after the call, in case the service
// messages were lost (it changes nothing when they were not).
func (b *Bot) migrated(from, to int64) {
	if b.base == nil {
		return // a call of New, before the bot runs
	}
	b.goAfter(workMigration, migrateTimeout, func(ctx context.Context) {
		if err := b.migrate(ctx, from, to); err != nil {
			b.log.Warn("migrate after a refused call", "from", from, "to", to, "err", b.scrub(err))
		}
	})
}

// migrate moves what the bot keeps under group chat from to chat to, the supergroup it
// became, and, when this call moved the group's game, shows it in the new chat: the lobby's
// invitation, or the board of the game in play (and the AI's move if it owes one).
func (b *Bot) migrate(ctx context.Context, from, to int64) error {
	m, err := b.svc.MigrateChat(ctx, from, to)
	switch {
	case errors.Is(err, game.ErrBadRequest):
		b.log.Warn("migrate: not two groups", "from", from, "to", to)
		return nil
	case errors.Is(err, game.ErrAlreadyPlaying):
		// The supergroup hosts a game of its own already: the old group's stays where it was.
		b.log.Warn("migrate: the supergroup has a game already", "from", from, "to", to)
		return nil
	case m == nil:
		return err
	case err != nil:
		b.log.Warn("migrate: group records", "from", from, "to", to, "err", b.scrub(err))
	}
	if !m.Moved || m.Game == nil {
		return nil
	}
	g := m.Game.Game
	for _, ref := range g.Boards {
		if ref.ChatID == to {
			return nil // a send to the old chat landed there already (botapi made it again)
		}
	}
	b.log.Info("group became a supergroup: game moved", "from", from, "to", to, "game", g.ID)
	pl := &play{bot: b}
	switch g.Status {
	case game.StatusLobby:
		cs := &commands{bot: b, play: pl}
		return cs.postLobby(ctx, g, to, pl.chatLang(ctx, to, g.Lang))
	case game.StatusPlaying:
		if err := b.boards.Post(ctx, g, to); err != nil {
			return err
		}
		b.changed(g)
		pl.owedAI(ctx, g.ID)
	}
	return nil
}

// movedInto reports whether group chat became the supergroup that hosts game g now, its game
// moved there (game.Service.ChatMovedTo). A failure to tell counts as no.
func (ts *taps) movedInto(ctx context.Context, g *game.Game, chat int64) bool {
	to, err := ts.bot.svc.ChatMovedTo(ctx, chat)
	if err != nil {
		ts.bot.log.Warn("tap: moved chat", "chat", chat, "err", ts.bot.scrub(err))
		return false
	}
	return to != 0 && inGameChat(g, to)
}

// sentTo is the chat that msg, sent to chat, landed in: chat's new id when the Bot API
// client made the send again in the supergroup chat became.
func sentTo(msg *models.Message, chat int64) int64 {
	if msg != nil && msg.Chat.ID != 0 {
		return msg.Chat.ID
	}
	return chat
}
