package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// With -groups N the driver also plays games in N group chats, each with two members: one
// opens a lobby with /new@Bot 8 black, the other taps its first button (Join), and both then
// play on the one board the bot posts in the group, each tapping as soon as the board shows
// their turn. Under -limits that is the group figure: the game proceeds at the
// group's budget, not at the players' speed.

// group plays games between a and b in group g, one after another, until ctx ends.
func (d *driver) group(ctx context.Context, g *telegramtest.Group, a, b *telegramtest.Person, rng *rand.Rand) {
	d.loop(ctx, func(ctx context.Context) error { return d.playGroup(ctx, g.ID(), a, b, rng) })
}

// isLobby tells a group lobby whose first button joins it.
func isLobby(m telegramtest.ChatMessage) bool {
	btn, ok := m.ButtonAt(0, 0)
	if !ok {
		return false
	}
	c, ok := callbackOf(btn)
	return ok && c.Action == callback.ActionJoin
}

// playGroup plays one game in the group chat: a opens the lobby (and plays black), b joins.
func (d *driver) playGroup(ctx context.Context, chat int64, a, b *telegramtest.Person, rng *rand.Rand) error {
	last := d.lastID(chat)
	if _, err := a.Send(chat, "/new@"+d.srv.Bot().Username+" 8 black"); err != nil {
		return fmt.Errorf("send /new in a group: %w", err)
	}
	lobby, err := d.newBotMessage(ctx, chat, last, isLobby)
	if err != nil {
		return fmt.Errorf("group lobby: %w", err)
	}
	qid, err := b.PressAt(lobby, 0, 0)
	if err != nil {
		return fmt.Errorf("press Join: %w", err)
	}
	ans, err := d.waitAnswer(ctx, qid)
	if err != nil {
		return fmt.Errorf("answer to Join: %w", err)
	}
	if ans.ShowAlert {
		return errors.New("join refused: " + firstLine(ans.Text))
	}
	board, err := d.newBotMessage(ctx, chat, lobby.ID, isBoard)
	if err != nil {
		return fmt.Errorf("group board: %w", err)
	}
	return d.playBoards(ctx, "group", [2]telegramtest.ChatMessage{board, board}, [2]*telegramtest.Person{a, b}, rng)
}
