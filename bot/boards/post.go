package boards

import (
	"bytes"
	"context"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// Post sends the board of g to chat as a new message and records it as one of g's boards
// (Options.AddBoard). The message gets its buttons only once it is recorded, so a tap never
// meets a board of the game that is not one of its boards, which a tap could not adopt; a
// process that stops in between leaves a board without buttons (posting the board again
// mends it). The buttons come through the message's queue, drawn afresh if a move came in
// the meantime.
func (e *Editor) Post(ctx context.Context, g *game.Game, chatID int64) error {
	ref := game.MessageRef{ChatID: chatID}
	ctx = botapi.WithPaceKind(ctx, Kind(g))
	c, err := e.o.Content(g, nil, ref, e.o.StyleOf(ctx, g, ref), engine.Pass)
	if err != nil {
		return err
	}
	var msg *models.Message
	if c.Photo != nil {
		msg, err = e.o.API.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: chatID,
			Photo:   &models.InputFileUpload{Filename: "board.png", Data: bytes.NewReader(c.Photo)},
			Caption: c.Text, CaptionEntities: c.Entities})
	} else {
		msg, err = e.o.API.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: chatID, Text: c.Text, Entities: c.Entities})
	}
	if err != nil {
		return err
	}
	ref.MessageID = msg.ID
	if msg.Chat.ID != 0 {
		ref.ChatID = msg.Chat.ID // the supergroup that chat became, where the client sent it again
	}
	if _, err := e.o.AddBoard(ctx, g.ID, ref); err != nil {
		return err
	}
	if c.Keyboard == nil {
		return nil
	}
	// g, not the game AddBoard returns: the keyboard was drawn from g, and a move that landed
	// since must make queueKeyboard draw the board afresh.
	e.queueKeyboard(g, ref, c.Keyboard, contentHash(c))
	return nil
}

// queueKeyboard gives the board message ref, just posted without buttons from game g, the
// keyboard kb drawn with it; when a move came in the meantime it draws the board afresh. hash
// is the content hash of the board with kb (the drawn record's, see contentHash): a process
// that has drawn a newer board into the message meanwhile keeps its keyboard.
func (e *Editor) queueKeyboard(g *game.Game, ref game.MessageRef, kb *models.InlineKeyboardMarkup, hash string) {
	id, moves, status, version := g.ID, len(g.Moves), g.Status, g.Version
	e.Queue(ref, func(ctx context.Context) {
		cur, err := e.o.Reader.Lookup(ctx, id)
		if err != nil {
			e.log.Warn("board keyboard", "game", id, "err", err)
			return
		}
		switch {
		case !Has(cur, ref):
			return // replaced by a newer board already
		case len(cur.Moves) != moves || cur.Status != status:
			e.redraw(cur, ref) // runs after this, in the same slot
		default:
			if cur.Version != version {
				// Recording the board (AddBoard) wrote a new version, which the move
				// buttons name (a tap on a board ahead of the store is told its move was
				// lost): the keyboard is drawn from the game as stored, or the first
				// redraw of this very position would be a real edit.
				c, err := e.o.Content(cur, nil, ref, e.o.StyleOf(ctx, cur, ref), engine.Pass)
				if err != nil {
					e.log.Warn("board keyboard", "game", id, "err", err)
					return
				}
				kb, hash = c.Keyboard, contentHash(c)
			}
			turn, ok := e.begin(ctx, ref, id, cur.Version, plainDraw)
			if !ok {
				return // a newer drawing is there, or on its way
			}
			sctx, cancel := turn.sendContext(ctx)
			err := e.EditKeyboard(sctx, ref, kb)
			cancel()
			end := game.DrawSent
			if err != nil {
				end = game.DrawFailed
				e.log.Warn("board keyboard", "game", id, "err", err)
			}
			if turn.end(end, hash) {
				e.redraw(cur, ref)
			}
		}
	})
}
