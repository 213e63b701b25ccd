package bot

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/boards"
	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// play takes the steps that more than one kind of update needs: who a user is and which
// language a chat speaks, and the steps of a game's flow that commands, taps and the Mini App
// share (a game started, a step shown and the AI's reply it left owed: land and aiTurn, a
// lobby cancelled, a board posted again in a new style).
type play struct {
	*core
	after     *afterWork       // the work the steps leave behind them (notices, AI replies)
	pacer     *botapi.Pacer    // the notices' budget; nil: none
	reminders *TurnReminders   // the turn reminders of group and inline games
	reviews   *Reviews         // the replays of finished games
	changed   func(*game.Game) // tells Options.OnGameChange of a step
}

// whoIs resolves the user: their stored language choice beats Telegram's language_code.
// A profile the store cannot give in time (optional.Guard) leaves Telegram's language and
// the default style.
func (pl *play) whoIs(ctx context.Context, u *models.User) who {
	w := who{id: u.ID, name: displayName(u), lang: normLang(u.LanguageCode)}
	if p, ok := pl.profile(ctx, u.ID); ok {
		if p.Lang != "" {
			w.lang = normLang(p.Lang)
		}
		w.style = p.Style
	}
	return w
}

// chatLang is the language of a group chat: its /lang choice, else (also when the store
// cannot tell in time) fallback.
func (pl *play) chatLang(ctx context.Context, chatID int64, fallback string) string {
	var l string
	if pl.optional.Do(ctx, "chat language", func(ctx context.Context) (err error) {
		l, err = pl.players.ChatLang(ctx, chatID)
		return err
	}) && l != "" {
		return normLang(l)
	}
	return fallback
}

// touch records that the user has talked to the bot (game.Players.TouchUser): a game's
// result counts only for users who have.
func (pl *play) touch(ctx context.Context, w who) {
	if err := pl.players.TouchUser(ctx, w.id, w.name); err != nil {
		pl.log.Warn("touch user", "user", w.id, "err", pl.scrub(err))
	}
}

// started shows a game that has just begun (a lobby joined, a pairing, a rematch, a new AI
// game): the lobby message (if any, other than inline) says so, every board chat gets a board,
// and the AI's reply is taken when the start left it owed.
func (pl *play) started(ctx context.Context, res *game.Snapshot) error {
	g := res.Game
	pl.met.GameStarted(g.Flow.String())
	for _, ref := range res.Lobby { // the lobby's messages, if it was one
		lang := present.ViewLang(g, ref)
		text := tr(lang, i18n.KeyGamePlayers, present.PlayerName(g, 0, lang), present.PlayerName(g, 1, lang))
		if err := pl.edit(ctx, ref, content{Text: text}); err != nil {
			pl.log.Warn("edit lobby", "game", g.ID, "err", pl.scrub(err))
		}
	}
	var firstErr error
	for _, chat := range boards.Chats(g) {
		if err := pl.boards.Post(ctx, g, chat); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if g.InlineID != "" {
		ref := game.MessageRef{InlineID: g.InlineID}
		if !boards.Has(g, ref) {
			if _, err := pl.svc.AddBoard(ctx, g.ID, ref); err != nil && firstErr == nil {
				firstErr = err
			}
		}
		pl.boards.Redraw(g, ref)
	}
	pl.changed(g)
	pl.remindTurn(res)
	pl.owed(res).take(ctx)
	return firstErr
}

// land turns the result of a step (a command's, a tap's, the Mini App's) into what the players
// see: every board of its game redrawn, the turn's notices and reminders, a finished game
// counted and its replay sent; by is the user who made the step. It returns the AI's reply
// that the step left owed, for the caller to take once the step is answered: commands, taps
// and the Mini App all show their steps, and the AI's replies, through here.
func (pl *play) land(res *game.Snapshot, by int64) aiTurn {
	pl.afterStep(res, by)
	return pl.owed(res)
}

// owed returns the AI's reply that the step res left owed (game.Snapshot.Reply, which the
// Service sets whenever the AI is to move: after a move, a start, or on a read of a game whose
// reply never came), without showing the step: for a read that only wakes the AI.
func (pl *play) owed(res *game.Snapshot) aiTurn {
	if res == nil {
		return aiTurn{}
	}
	return aiTurn{pl: pl, reply: res.Reply}
}

// aiTurn is the AI's reply that a step left owed, for the step's caller to take once the step
// is answered ("answer the tap, then the AI moves"): take plays it at once, start beside a
// tap's answer, later after a request that does not wait for it (the Mini App's). Each plays
// the reply, records its metrics and shows it as land shows a step. The zero aiTurn owes
// nothing.
type aiTurn struct {
	pl    *play
	reply *game.Reply
}

// due reports whether the AI owes a move.
func (t aiTurn) due() bool { return t.reply != nil }

// take lets the AI play its reply and shows it, returning the reply's step: nil when none was
// owed, when another reply of the game is under way (here or in another process: that one
// shows its move when it lands), or when it failed. A reply the AI could not give in time
// (game.ErrBusy) is told to the chat: a tap on the board wakes the AI again.
func (t aiTurn) take(ctx context.Context) *game.Snapshot {
	if t.reply == nil {
		return nil
	}
	pl := t.pl
	start := time.Now()
	res, err := t.reply.Wait(ctx)
	if err != nil {
		id := t.reply.GameID()
		pl.log.Warn("ai reply", "game", id, "err", pl.scrub(err))
		if errors.Is(err, game.ErrBusy) {
			pl.tellAIBusy(id)
		}
		return nil
	}
	if res.Thinking {
		return nil
	}
	if len(res.Played) > 0 && res.Game.AILevel > 0 {
		pl.met.AIThink(strconv.Itoa(res.Game.AILevel), time.Since(start))
		pl.met.Move("ai")
	}
	pl.afterStep(res, 0)
	return res
}

// start takes the reply in a goroutine of its own, after before (when not nil, with ctx), so
// that the tap is answered meanwhile, and returns the channel its step comes on (take's
// result, then closed); nil when no reply is owed. A handler that starts one receives from
// it before it returns: its context, under which the AI searches, ends then.
func (t aiTurn) start(ctx context.Context, before func(context.Context)) <-chan *game.Snapshot {
	if t.reply == nil {
		return nil
	}
	reply := make(chan *game.Snapshot, 1)
	go func() {
		defer close(reply)
		if before != nil {
			before(ctx)
		}
		reply <- t.take(ctx)
	}()
	return reply
}

// later takes the reply after the caller has returned, as the bot's work (workAIReply, which
// a stopping bot waits for), bounded by DefaultHandlerTimeout as an update's would be: for a
// request (the Mini App's) whose answer does not wait for the AI.
func (t aiTurn) later() {
	if t.reply == nil {
		return
	}
	t.pl.after.goAfter(workAIReply, DefaultHandlerTimeout, func(ctx context.Context) { t.take(ctx) })
}

// busyNoticeTimeout bounds telling the players that the AI could not move (a read and a
// message), which runs after the handler has returned.
const busyNoticeTimeout = 10 * time.Second

// tellAIBusy tells the chat of an AI game that the AI could not answer in time (every search
// slot or remote worker was busy, or no worker answered), so the player knows that a tap on
// the board wakes it again. A stopping bot says nothing: its searches end on purpose; nor
// does a game whose reply came meanwhile (from another process).
func (pl *play) tellAIBusy(id string) {
	if pl.after.closing() {
		return
	}
	ctx, cancel := context.WithTimeout(pl.after.base, busyNoticeTimeout)
	defer cancel()
	res, err := pl.svc.Game(ctx, id)
	if err != nil || res.Reply == nil || res.Game.ChatID == 0 {
		return
	}
	g := res.Game
	if _, err := pl.sendText(ctx, g.ChatID, tr(pl.chatLang(ctx, g.ChatID, g.Lang), i18n.KeyErrBusy), nil); err != nil {
		pl.log.Warn("tell AI busy", "game", id, "err", pl.scrub(err))
	}
}

// owedAI lets the AI move when game id owes one (its last search was cut short, or the
// process stopped before it answered): a player's tap or /board is enough to wake it.
func (pl *play) owedAI(ctx context.Context, id string) {
	if res, err := pl.svc.Game(ctx, id); err == nil {
		pl.owed(res).take(ctx)
	}
}

// afterStep redraws the boards of a step's game and counts a finished game; by is the user
// who made the step (0 for the AI's reply), whose opponent its notice may concern.
func (pl *play) afterStep(res *game.Snapshot, by int64) {
	if res == nil || res.Game == nil {
		return
	}
	pl.refresh(res.Game)
	pl.noticeTurn(res, by)
	pl.remindTurn(res)
	if res.End != nil && len(res.Played) > 0 || res.End != nil && res.End.Reason != game.EndNormal {
		pl.met.GameFinished(res.Game.Flow.String(), res.End.Reason.String())
		pl.reviews.sendReplays(res.Game)
	}
}

// newAIGame starts an AI game in chat and posts its board.
func (pl *play) newAIGame(ctx context.Context, chat int64, w who, private bool, size, level int, color game.Choice, fail func(error) error) error {
	p := w.player(0)
	if private {
		p.ChatID = chat
	}
	search, slang, searching := pl.searchShown(ctx, w.id)
	res, err := pl.svc.NewAIGame(ctx, p, chat, size, level, color)
	if err != nil {
		return fail(err)
	}
	if searching {
		pl.searchLeft(ctx, search, slang) // the new game took the user out of the queue
	}
	return pl.started(ctx, res)
}

// cancelLobby cancels a lobby (its creator resigns it) and marks its messages.
func (pl *play) cancelLobby(ctx context.Context, id string, w who, fail func(error) error, ok func() error) error {
	res, err := pl.svc.Resign(ctx, id, w.id)
	if err != nil {
		return fail(err)
	}
	for _, ref := range res.Game.Boards {
		lang := present.ViewLang(res.Game, ref)
		if err := pl.edit(ctx, ref, content{Text: tr(lang, i18n.KeyLobbyCancelled)}); err != nil {
			pl.log.Warn("edit lobby", "game", id, "err", pl.scrub(err))
		}
	}
	return ok()
}

// setLang stores a language choice: the user's in a private chat, the group's in a group,
// where the group's game in play (or lobby) then speaks it too and its board is redrawn.
func (pl *play) setLang(ctx context.Context, chat int64, private bool, user int64, lang string) error {
	if private {
		return pl.players.SetLang(ctx, user, lang)
	}
	if err := pl.players.SetChatLang(ctx, chat, lang); err != nil {
		return err
	}
	g, err := pl.svc.SetGameLang(ctx, chat, lang)
	switch {
	case errors.Is(err, game.ErrNoGame):
		return nil
	case err != nil:
		pl.log.Warn("group language: game", "chat", chat, "err", pl.scrub(err))
		return nil // the choice is stored; the next game speaks it
	case g.Status == game.StatusLobby:
		for _, ref := range g.Boards {
			if ref.ChatID == chat {
				c := present.Lobby(g, lang, pl.username)
				if err := pl.edit(ctx, ref, c); err != nil {
					pl.log.Warn("group language: lobby", "game", g.ID, "err", pl.scrub(err))
				}
			}
		}
	default:
		pl.refresh(g)
	}
	return nil
}

// restyle posts the board of the game in play in m's private chat again, after the user
// changed style: a text message cannot be edited into a photo or back. The old board message
// loses its buttons, so a tap on it cannot make it the chat's board again.
func (pl *play) restyle(ctx context.Context, m *msgCtx) error {
	if !m.private {
		return nil
	}
	cur, err := pl.svc.Current(ctx, m.chat)
	if errors.Is(err, game.ErrNoGame) {
		return nil
	}
	if err != nil {
		return err
	}
	g := cur.Game
	if g.Status != game.StatusPlaying || !present.FitsKeyboard(g.Size) {
		return nil
	}
	if err := pl.boards.Post(ctx, g, m.chat); err != nil {
		return err
	}
	for _, ref := range g.Boards {
		if ref.InlineID == "" && ref.ChatID == m.chat {
			// Through the message's edit queue, so a redraw of the old board already on its way
			// cannot put the buttons back after they were cleared.
			pl.boards.Queue(ref, func(ctx context.Context) {
				if err := pl.editMarkup(ctx, ref, nil); err != nil {
					pl.log.Warn("restyle: clear old board", "game", g.ID, "err", pl.scrub(err))
				}
			})
		}
	}
	return nil
}

// refresh redraws every board of g (boards.Editor.Refresh) and tells Options.OnGameChange.
func (pl *play) refresh(g *game.Game) {
	pl.boards.Refresh(g)
	pl.changed(g)
}
