package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// commands handles the messages: the /commands (with their arguments and deep-link payloads)
// and the moves typed in a private chat, each answered in the chat's language.
type commands struct {
	*core
	play    *play    // the steps shared with taps
	reviews *Reviews // /review and its deep links
}

// who is the user behind an update, with the language to answer them in.
type who struct {
	id   int64
	name string
	lang string // "ru" or "en": the user's choice (/lang), else Telegram's language_code
	// style is how the user wants 8×8 boards drawn (/style).
	style game.Style
}

// player is the user as a game player whose board (if any) is in chat.
func (w who) player(chat int64) game.Player {
	return game.Player{UserID: w.id, Name: w.name, ChatID: chat, Lang: w.lang}
}

// displayName is how the bot names a Telegram user.
func displayName(u *models.User) string {
	name := strings.TrimSpace(strings.TrimSpace(u.FirstName) + " " + strings.TrimSpace(u.LastName))
	if name == "" {
		name = u.Username
	}
	if name == "" {
		name = "#" + strconv.FormatInt(u.ID, 10)
	}
	return name
}

// msgCtx is one incoming message being handled.
type msgCtx struct {
	chat    int64
	private bool
	user    who
	lang    string // the language to answer in this chat
	args    []string
}

// reply sends a plain text answer.
func (cs *commands) reply(ctx context.Context, m *msgCtx, text string) error {
	_, err := cs.sendText(ctx, m.chat, text, nil)
	return err
}

// replyKey sends the text key in the chat's language.
func (cs *commands) replyKey(ctx context.Context, m *msgCtx, key i18n.Key, args ...any) error {
	return cs.reply(ctx, m, tr(m.lang, key, args...))
}

// replyErr answers a failed step of the host with its text.
func (cs *commands) replyErr(ctx context.Context, m *msgCtx, err error) error {
	if e := cs.replyKey(ctx, m, errKey(err)); e != nil {
		return e
	}
	if game.ErrorCode(err).Internal() {
		return err
	}
	return nil
}

// errKey is the text key of a host error.
func errKey(err error) i18n.Key {
	c := game.ErrorCode(err)
	if c.Internal() {
		return i18n.KeyErrInternal // a store's code (unavailable, corrupt, ...) has no text of its own
	}
	return i18n.Key("err." + string(c))
}

// parseCommand splits "/cmd@bot args" into the command and its arguments; ok is false for
// text that is not a command, or a command for another bot.
func (cs *commands) parseCommand(text string) (cmd string, args []string, ok bool) {
	if !strings.HasPrefix(text, "/") {
		return "", nil, false
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return "", nil, false
	}
	cmd = strings.TrimPrefix(fields[0], "/")
	if at := strings.IndexByte(cmd, '@'); at >= 0 {
		if !strings.EqualFold(cmd[at+1:], cs.username) {
			return "", nil, false
		}
		cmd = cmd[:at]
	}
	return strings.ToLower(cmd), fields[1:], cmd != ""
}

// onMessage handles a message: a command, or a typed move in a private chat.
func (cs *commands) onMessage(ctx context.Context, msg *models.Message) (bool, error) {
	if msg.From == nil || msg.From.IsBot || msg.Chat.ID == 0 {
		return false, nil
	}
	text := strings.TrimSpace(msg.Text)
	private := msg.Chat.Type == models.ChatTypePrivate || msg.Chat.ID == msg.From.ID
	cmd, args, isCmd := cs.parseCommand(text)
	if !isCmd && !private {
		return false, nil // group chatter (or a command for another bot)
	}
	m := &msgCtx{chat: msg.Chat.ID, private: private, user: cs.play.whoIs(ctx, msg.From), args: args}
	m.lang = m.user.lang
	if !private {
		m.lang = cs.play.chatLang(ctx, m.chat, m.user.lang)
	}
	if err := cs.players.TouchUser(ctx, m.user.id, m.user.name); err != nil {
		cs.log.Warn("touch user", "user", m.user.id, "err", cs.scrub(err))
	}
	if !isCmd {
		if text == "" {
			return true, cs.replyKey(ctx, m, i18n.KeyErrBadMove, quote(text))
		}
		if _, err := engine.ParseSquare(strings.ToLower(text)); err == nil && len(text) <= 3 {
			return true, cs.typedMove(ctx, m, text)
		}
		return true, cs.replyKey(ctx, m, i18n.KeyErrBadMove, quote(text))
	}
	var err error
	switch cmd {
	case "start":
		err = cs.cmdStart(ctx, m)
	case "help":
		err = cs.replyKey(ctx, m, i18n.KeyHelpText)
	case "rules":
		err = cs.replyKey(ctx, m, i18n.KeyRulesText)
	case "ai":
		err = cs.cmdAI(ctx, m)
	case "new":
		err = cs.cmdNew(ctx, m)
	case "find":
		err = cs.cmdFind(ctx, m)
	case "cancel":
		err = cs.cmdCancel(ctx, m)
	case "board":
		err = cs.cmdBoard(ctx, m)
	case "resign":
		err = cs.cmdResign(ctx, m)
	case "move":
		switch len(args) {
		case 0:
			err = cs.replyUsage(ctx, m, i18n.KeyUsageMove, nil)
		case 1:
			err = cs.typedMove(ctx, m, args[0])
		default:
			err = cs.replyUsage(ctx, m, i18n.KeyUsageMove, &badArg{word: strings.Join(args, " "), why: i18n.KeyArgUnknown})
		}
	case "stats":
		err = cs.cmdStats(ctx, m)
	case "top":
		err = cs.cmdTop(ctx, m)
	case "lang":
		err = cs.cmdLang(ctx, m)
	case "style":
		err = cs.cmdStyle(ctx, m)
	case "review":
		err = cs.cmdReview(ctx, m)
	default:
		err = cs.replyKey(ctx, m, i18n.KeyErrUnknownCommand)
	}
	return true, err
}

// firstArg is the first of a command's arguments, "" for none.
func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// cmdStart greets (with the AI menu) or, with a payload "j<game>", joins an invitation, with
// "rv<game>" (a player's link from an inline game) reviews that game; in a
// group, the payload of the link that adds the bot to a group (present.StartGroupPayload)
// opens a lobby there for whoever added it.
func (cs *commands) cmdStart(ctx context.Context, m *msgCtx) error {
	if len(m.args) > 0 && strings.HasPrefix(m.args[0], "j") && m.private {
		return cs.joinInvite(ctx, m, m.args[0][1:])
	}
	if id, ok := isReviewLink(firstArg(m.args)); ok && m.private {
		return cs.reviewLinked(ctx, m, id)
	}
	if len(m.args) > 0 && m.args[0] == present.StartGroupPayload && !m.private {
		m.args = nil
		return cs.cmdNew(ctx, m)
	}
	err := cs.sendMenu(ctx, m.chat, present.MenuMain, m.lang, present.MenuState{Name: m.user.name})
	return err
}

// joinInvite joins the invite lobby id from a deep link.
func (cs *commands) joinInvite(ctx context.Context, m *msgCtx, id string) error {
	if (callback.Data{Action: callback.ActionJoin, Game: id}).Validate() != nil || id == "" {
		return cs.replyKey(ctx, m, i18n.KeyErrNoGame)
	}
	search, slang, searching := cs.play.searchShown(ctx, m.user.id)
	res, err := cs.svc.Join(ctx, id, m.user.player(m.chat))
	if err != nil {
		switch key := joinRefusal(ctx, cs.svc, id, m.user.id, err); key {
		case i18n.KeyErrOwnLobby: // a deep link opens an invitation, to be forwarded
			return cs.replyKey(ctx, m, i18n.KeyErrOwnInvite)
		case "":
			return cs.replyErr(ctx, m, err)
		default:
			return cs.replyKey(ctx, m, key)
		}
	}
	if searching {
		cs.play.searchLeft(ctx, search, slang) // the game took the user out of the queue
	}
	return cs.play.started(ctx, res)
}

// cmdAI starts a game against the AI; without arguments it shows the menu.
func (cs *commands) cmdAI(ctx context.Context, m *msgCtx) error {
	if len(m.args) == 0 {
		err := cs.sendMenu(ctx, m.chat, present.MenuSize, m.lang, present.MenuState{})
		return err
	}
	a, bad := parseGameArgs(m.args, cs.svc.ValidSize)
	if bad != nil {
		return cs.replyUsage(ctx, m, i18n.KeyUsageAI, bad)
	}
	size, level := a.size, a.level
	if size == 0 {
		size = 8
	}
	if level == 0 {
		level = 2
	}
	return cs.play.newAIGame(ctx, m.chat, m.user, m.private, size, level, a.color, func(err error) error { return cs.replyErr(ctx, m, err) })
}

// cmdNew opens a game for people: a lobby in a group, an invite in a private chat.
func (cs *commands) cmdNew(ctx context.Context, m *msgCtx) error {
	a, bad := parseGameArgs(m.args, cs.svc.ValidSize)
	if bad == nil && a.level != 0 {
		bad = &badArg{word: a.levelWord, why: i18n.KeyArgBadSize} // /new takes a size, no level
	}
	if bad != nil {
		return cs.replyUsage(ctx, m, i18n.KeyUsageNew, bad)
	}
	size, color := a.size, a.color
	if size == 0 {
		size = 8
	}
	l := game.Lobby{Flow: game.FlowGroup, Creator: m.user.player(0), ChatID: m.chat, Size: size,
		Color: color, Lang: m.lang, Style: m.user.style}
	if m.private {
		l.Flow, l.ChatID, l.Creator.ChatID = game.FlowInvite, 0, m.chat
	}
	search, slang, searching := cs.play.searchShown(ctx, m.user.id)
	res, err := cs.svc.OpenLobby(ctx, l)
	if err != nil {
		return cs.replyErr(ctx, m, err)
	}
	if searching {
		cs.play.searchLeft(ctx, search, slang) // the lobby took the user out of the queue
	}
	if res.Game.Flow == game.FlowInvite {
		if err := cs.replyKey(ctx, m, i18n.KeyInviteCreated, size, size); err != nil {
			return err
		}
	}
	return cs.postLobby(ctx, res.Game, m.chat, m.lang)
}

// postLobby posts the invitation of lobby g in chat. The message is recorded as the lobby's
// before its buttons appear, so nobody can join a lobby whose message the join would not update.
func (cs *commands) postLobby(ctx context.Context, g *game.Game, chat int64, lang string) error {
	c := present.Lobby(g, lang, cs.username)
	msg, err := cs.sendText(ctx, chat, c.Text, nil)
	if err != nil {
		return err
	}
	ref := game.MessageRef{ChatID: sentTo(msg, chat), MessageID: msg.ID}
	g, err = cs.svc.AddBoard(ctx, g.ID, ref)
	if err != nil {
		return err
	}
	if g.Status != game.StatusLobby {
		return nil // cancelled meanwhile
	}
	return cs.editMarkup(ctx, ref, c.Keyboard)
}

// cmdFind looks for a random opponent (see find).
func (cs *commands) cmdFind(ctx context.Context, m *msgCtx) error {
	if !m.private {
		return cs.replyKey(ctx, m, i18n.KeyErrPrivateOnly)
	}
	a, bad := parseGameArgs(m.args, cs.svc.ValidSize)
	if bad == nil && a.level != 0 {
		bad = &badArg{word: a.levelWord, why: i18n.KeyArgBadSize} // /find takes a size, no level
	}
	if bad != nil {
		return cs.replyUsage(ctx, m, i18n.KeyUsageFind, bad)
	}
	size := a.size
	if size == 0 {
		size = 8
	}
	return cs.find(ctx, m, size, game.MessageRef{})
}

// find looks for a random opponent on size×size for the user of m (in their private chat). A
// user has one search, shown in one message that follows it: a search already on keeps its
// message (a second /find edits it, for the new size), else here is used (a menu message
// turned into the search), else a new message is posted. When the queue pairs the user, both
// search messages say who was found, with the opponent's rating, and lose their buttons.
func (cs *commands) find(ctx context.Context, m *msgCtx, size int, here game.MessageRef) error {
	if !m.private {
		return cs.replyKey(ctx, m, i18n.KeyErrPrivateOnly)
	}
	if !cs.svc.ValidSize(size) {
		return cs.replyErr(ctx, m, game.ErrBadSize)
	}
	ref := here
	prev, err := cs.svc.Searching(ctx, m.user.id)
	if err != nil {
		cs.log.Warn("find: earlier search", "user", m.user.id, "err", cs.scrub(err))
	}
	if prev != nil && prev.Waiter.MsgID != 0 && prev.Waiter.ChatID == m.chat {
		if ref.MessageID != 0 && ref.MessageID != prev.Waiter.MsgID {
			// The menu tapped goes back to the main menu: the search stays in its own message.
			if err := cs.edit(ctx, ref, present.DrawMenu(present.MenuMain, m.lang, present.MenuState{Name: m.user.name})); err != nil {
				cs.log.Warn("find: menu", "user", m.user.id, "err", cs.scrub(err))
			}
		}
		ref = game.MessageRef{ChatID: m.chat, MessageID: prev.Waiter.MsgID}
	}
	if ref.MessageID == 0 {
		msg, err := cs.sendText(ctx, m.chat, present.SearchStarting(m.lang, size).Text, nil)
		if err != nil {
			return err
		}
		ref = game.MessageRef{ChatID: m.chat, MessageID: msg.ID}
	} else if err := cs.edit(ctx, ref, present.SearchStarting(m.lang, size)); err != nil {
		cs.log.Warn("find: search message", "user", m.user.id, "err", cs.scrub(err))
	}
	f, err := cs.svc.Seek(ctx, m.user.player(m.chat), size, ref.MessageID)
	if err != nil {
		if e := cs.edit(ctx, ref, content{Text: tr(m.lang, errKey(err))}); e != nil {
			return e
		}
		if game.ErrorCode(err).Internal() {
			return err
		}
		return nil
	}
	if f.Snapshot.Queued {
		left := f.Until.Sub(cs.now())
		if f.Until.IsZero() {
			left = game.DefaultQueueTTL
		}
		return cs.edit(ctx, ref, present.Searching(m.lang, size, left))
	}
	cs.tellPaired(ctx, f, m.user.id, ref)
	return cs.play.started(ctx, f.Snapshot)
}

// tellPaired turns the search messages of a pairing into what each player was found: the
// opponent's name and rating and their own colour. ref is the message of seeker's search; the
// opponent's is the one their search kept (a new message for a search that kept none).
func (cs *commands) tellPaired(ctx context.Context, f *game.Found, seeker int64, ref game.MessageRef) {
	g := f.Snapshot.Game
	for i, p := range g.Players {
		if p.ChatID == 0 {
			continue
		}
		var at game.MessageRef
		switch {
		case p.UserID == seeker:
			at = ref
		case p.UserID == f.Opponent.UserID && f.Opponent.MsgID != 0 && f.Opponent.ChatID == p.ChatID:
			at = game.MessageRef{ChatID: p.ChatID, MessageID: f.Opponent.MsgID}
		}
		rating := game.InitialRating
		if pr, err := cs.players.Profile(ctx, g.Players[1-i].UserID); err == nil {
			rating = pr.Stats.Rating
		}
		lang := normLang(p.Lang)
		c := present.SearchFound(lang, present.PlayerName(g, 1-i, lang), rating, i)
		var err error
		if at.MessageID != 0 {
			err = cs.edit(ctx, at, c)
		} else {
			_, err = cs.sendText(ctx, p.ChatID, c.Text, nil)
		}
		if err != nil {
			cs.log.Warn("paired", "game", g.ID, "err", cs.scrub(err))
		}
	}
}

// cmdCancel leaves the queue (its search message then says so and loses its button), or
// cancels the user's open lobby in this chat.
func (cs *commands) cmdCancel(ctx context.Context, m *msgCtx) error {
	prev, err := cs.svc.Searching(ctx, m.user.id)
	if err != nil {
		cs.log.Warn("cancel: search", "user", m.user.id, "err", cs.scrub(err))
	}
	left, err := cs.svc.CancelFind(ctx, m.user.id)
	if err != nil {
		return cs.replyErr(ctx, m, err)
	}
	if left {
		if prev != nil && prev.Waiter.MsgID != 0 {
			lang := normLang(prev.Waiter.Lang)
			if err := cs.edit(ctx, game.MessageRef{ChatID: prev.Waiter.ChatID, MessageID: prev.Waiter.MsgID}, present.SearchCancelled(lang)); err != nil {
				cs.log.Warn("cancel: search message", "user", m.user.id, "err", cs.scrub(err))
			}
		}
		return cs.replyKey(ctx, m, i18n.KeyFindCancelled)
	}
	cur, err := cs.svc.Current(ctx, m.chat)
	if err == nil && cur.Game.Status == game.StatusLobby && cur.Game.Players[0].UserID == m.user.id {
		return cs.play.cancelLobby(ctx, cur.Game.ID, m.user, func(err error) error { return cs.replyErr(ctx, m, err) },
			func() error { return cs.replyKey(ctx, m, i18n.KeyLobbyCancelled) })
	}
	return cs.replyKey(ctx, m, i18n.KeyFindNotQueued)
}

// cmdBoard moves the board of the chat's game (or its invitation) to a new message at the
// bottom of the chat: the new message becomes the chat's board, and the old one loses its
// buttons and says that the game moved, so a chat has one live board of a game at most.
func (cs *commands) cmdBoard(ctx context.Context, m *msgCtx) error {
	cur, err := cs.svc.Current(ctx, m.chat)
	if err != nil {
		return cs.replyErr(ctx, m, err) // ErrNoGame answers "err.no_game"
	}
	g := cur.Game
	if g.Status == game.StatusLobby {
		if err := cs.postLobby(ctx, g, m.chat, m.lang); err != nil {
			return err
		}
		cs.retire(ctx, g, m.chat)
		return nil
	}
	if err := cs.boards.Post(ctx, g, m.chat); err != nil {
		return err
	}
	cs.retire(ctx, g, m.chat)
	cs.play.owedAI(ctx, g.ID)
	return nil
}

// retire turns the messages of chat that were g's boards (as g was read before a new one was
// posted there) into a line saying where the game went (present.Moved), without buttons: a
// photo keeps its picture under the new caption. The edit goes through the message's queue, so a
// redraw of the old board already on its way cannot bring its buttons back after it.
func (cs *commands) retire(ctx context.Context, g *game.Game, chat int64) {
	for _, ref := range g.Boards {
		if ref.InlineID != "" || ref.ChatID != chat {
			continue
		}
		text := present.Moved(present.ViewLang(g, ref), g.Status == game.StatusLobby).Text
		photo := false
		if g.Status != game.StatusLobby {
			c, err := present.Board(g, ref, 0, cs.styleOf(ctx, g, ref))
			photo = err == nil && c.Photo != nil
		}
		cs.boards.Queue(ref, func(ctx context.Context) {
			caption := func() error {
				_, err := cs.api.EditMessageCaption(ctx, &tgbot.EditMessageCaptionParams{ChatID: ref.ChatID,
					MessageID: ref.MessageID, Caption: text})
				return err
			}
			asText := func() error { return cs.edit(ctx, ref, content{Text: text}) }
			first, second := asText, caption
			if photo {
				first, second = caption, asText
			}
			// The guess of what the message holds (text or photo) goes by the style of now;
			// the other edit is tried when the message was drawn in another one.
			err := first()
			if err != nil && ctx.Err() == nil {
				err = second()
			}
			if err != nil {
				cs.log.Warn("board moved: old board", "game", g.ID, "err", cs.scrub(err))
			}
		})
	}
}

// cmdResign resigns the chat's game (or cancels the user's lobby).
func (cs *commands) cmdResign(ctx context.Context, m *msgCtx) error {
	cur, err := cs.svc.Current(ctx, m.chat)
	if err != nil {
		return cs.replyErr(ctx, m, err) // ErrNoGame answers "err.no_game"
	}
	if cur.Game.Status == game.StatusLobby {
		return cs.play.cancelLobby(ctx, cur.Game.ID, m.user, func(err error) error { return cs.replyErr(ctx, m, err) },
			func() error { return cs.replyKey(ctx, m, i18n.KeyLobbyCancelled) })
	}
	res, err := cs.svc.Resign(ctx, cur.Game.ID, m.user.id)
	if err != nil {
		return cs.replyErr(ctx, m, err)
	}
	cs.play.afterStep(res, m.user.id)
	return nil
}

// typedMove plays a move typed as text ("d3") on the chat's game.
func (cs *commands) typedMove(ctx context.Context, m *msgCtx, text string) error {
	sq, err := engine.ParseSquare(strings.ToLower(text))
	if err != nil {
		return cs.replyUsage(ctx, m, i18n.KeyUsageMove, &badArg{word: text, why: i18n.KeyArgNotSquare})
	}
	cur, err := cs.svc.Current(ctx, m.chat)
	if err != nil {
		return cs.replyErr(ctx, m, err) // ErrNoGame answers "err.no_game"
	}
	res, err := cs.svc.Move(ctx, cur.Game.ID, m.user.id, sq, game.AnyPly)
	if err != nil {
		if errors.Is(err, game.ErrOffBoard) {
			n := cur.Game.Size
			return cs.replyUsage(ctx, m, i18n.KeyUsageMove, &badArg{word: text, why: i18n.KeyArgOffBoard}, string(rune('a'+n-1)), n)
		}
		rerr := cs.replyErr(ctx, m, err)
		if errors.Is(err, game.ErrNotYourTurn) {
			cs.play.owedAI(ctx, cur.Game.ID)
		}
		return rerr
	}
	cs.met.Move("human")
	cs.play.land(res, m.user.id).take(ctx)
	return nil
}

// cmdStats shows the user's results.
func (cs *commands) cmdStats(ctx context.Context, m *msgCtx) error {
	p, err := cs.players.Profile(ctx, m.user.id)
	if err != nil {
		return cs.replyErr(ctx, m, err)
	}
	return cs.reply(ctx, m, present.Stats(m.lang, m.user.name, p.Stats).Text)
}

// cmdTop shows the leaderboard: the group's in a group, the global one in private.
func (cs *commands) cmdTop(ctx context.Context, m *msgCtx) error {
	chat := int64(0)
	if !m.private {
		chat = m.chat
	}
	top, err := cs.players.Top(ctx, chat, 10)
	if err != nil {
		return cs.replyErr(ctx, m, err)
	}
	return cs.reply(ctx, m, present.Top(m.lang, top, chat != 0, m.user.id).Text)
}

// cmdLang sets the language: the user's in a private chat, the group's in a group (and its
// running board's). Without an argument, or with one it does not know, it shows the language
// in use with the buttons to choose.
func (cs *commands) cmdLang(ctx context.Context, m *msgCtx) error {
	if len(m.args) == 0 {
		return cs.sendMenu(ctx, m.chat, present.MenuLang, m.lang, present.MenuState{})
	}
	lang, ok := i18n.Parse(m.args[0])
	if !ok {
		return cs.sendMenu(ctx, m.chat, present.MenuLang, m.lang, present.MenuState{Unknown: true})
	}
	if err := cs.play.setLang(ctx, m.chat, m.private, m.user.id, lang); err != nil {
		return cs.replyErr(ctx, m, err)
	}
	m.lang = lang
	return cs.replyKey(ctx, m, i18n.KeyLangSet)
}

// sendMenu sends menu m of package present, drawn in lang with s, to chat.
func (cs *commands) sendMenu(ctx context.Context, chat int64, m present.Menu, lang string, s present.MenuState) error {
	c := present.DrawMenu(m, lang, s)
	_, err := cs.sendText(ctx, chat, c.Text, c.Keyboard)
	return err
}
