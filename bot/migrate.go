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
	return h.cmds.migrate(ctx, from, to)
}

// migrated is told by the Bot API client that a call on chat from was refused because the
// group became the supergroup to: it runs the migration after the call, in case the service
// messages were lost (it changes nothing when they were not).
func (h *handler) migrated(from, to int64) {
	h.after.goAfter(workMigration, migrateTimeout, func(ctx context.Context) {
		if err := h.cmds.migrate(ctx, from, to); err != nil {
			h.cmds.log.Warn("migrate after a refused call", "from", from, "to", to, "err", h.cmds.scrub(err))
		}
	})
}

// migrate moves what the bot keeps under group chat from to chat to, the supergroup it
// became, and, when this call moved the group's game, shows it in the new chat: the lobby's
// invitation, or the board of the game in play (and the AI's move if it owes one).
func (cs *commands) migrate(ctx context.Context, from, to int64) error {
	m, err := cs.svc.MigrateChat(ctx, from, to)
	switch {
	case errors.Is(err, game.ErrBadRequest):
		cs.log.Warn("migrate: not two groups", "from", from, "to", to)
		return nil
	case errors.Is(err, game.ErrAlreadyPlaying):
		// The supergroup hosts a game of its own already: the old group's stays where it was.
		cs.log.Warn("migrate: the supergroup has a game already", "from", from, "to", to)
		return nil
	case m == nil:
		return err
	case err != nil:
		cs.log.Warn("migrate: group records", "from", from, "to", to, "err", cs.scrub(err))
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
	cs.log.Info("group became a supergroup: game moved", "from", from, "to", to, "game", g.ID)
	pl := cs.play
	switch g.Status {
	case game.StatusLobby:
		return cs.postLobby(ctx, g, to, pl.chatLang(ctx, to, g.Lang))
	case game.StatusPlaying:
		if err := cs.boards.Post(ctx, g, to); err != nil {
			return err
		}
		pl.changed(g)
		pl.owedAI(ctx, g.ID)
	}
	return nil
}

// movedInto reports whether group chat became the supergroup that hosts game g now, its game
// moved there (game.Service.ChatMovedTo). A failure to tell counts as no.
func (ts *taps) movedInto(ctx context.Context, g *game.Game, chat int64) bool {
	to, err := ts.svc.ChatMovedTo(ctx, chat)
	if err != nil {
		ts.log.Warn("tap: moved chat", "chat", chat, "err", ts.scrub(err))
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
