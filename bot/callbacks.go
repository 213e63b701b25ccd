package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/boards"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// hintTimeout bounds the wait for a hint: the tap's answer (which carries the hint) must go
// out while Telegram still takes it.
const hintTimeout = 3 * time.Second

// taps handles the button taps (callback queries): moves, the move picker's pages, resign,
// hint, undo, claim, rematch, joining and cancelling lobbies, and the menus; each tap is
// checked against the message it was made on (tapscope.go) and answered exactly once.
type taps struct {
	*core
	play    *play          // the steps shared with commands
	cmds    *commands      // the main menu's entries that act as commands do
	inline  *inlineMode    // a Join on an inline post opened from its invitation
	reviews *Reviews       // Review under a finished board
	offers  *OfferExpiries // a rematch offer's expiry, scheduled when it is made
	// finish turns a drawn board into what the bot sends (the Mini App's button, the
	// picture of a large inline board).
	finish func(g *game.Game, ref game.MessageRef, c content) content
}

// tap is one callback query being handled. Its answer is sent exactly once: by the first
// call of answer, or with no text when the handler returns without answering.
type tap struct {
	h        *taps // the handler of taps, whose Bot answers this one
	q        *models.CallbackQuery
	user     who // resolved (whoIs) unless lazy
	lazy     bool
	ref      game.MessageRef // the message tapped (chat or inline)
	private  bool
	answered bool
	// game is the game the tap acts on, as read when its message was checked (scopeTap);
	// stray is set when the message is in the game's chat but none of its boards: nothing is
	// drawn into it.
	game  *game.Game
	stray bool
}

// resolve looks the user up (whoIs) if that was left until needed: a move that is applied
// needs nothing but the user's ID, which the update carries.
func (t *tap) resolve(ctx context.Context) {
	if t.lazy {
		t.user, t.lazy = t.h.play.whoIs(ctx, &t.q.From), false
	}
}

// answer answers the tap once; later calls do nothing.
func (t *tap) answer(ctx context.Context, text string, alert bool) error {
	if t.answered {
		return nil
	}
	t.answered = true
	return t.h.answer(ctx, t.q.ID, text, alert)
}

// fail answers the tap with the alert text of a host error; internal errors are returned.
func (t *tap) fail(ctx context.Context, err error) error {
	t.resolve(ctx)
	aerr := t.answer(ctx, tr(t.user.lang, errKey(err)), !routine(err))
	if game.ErrorCode(err).Internal() {
		return err
	}
	return aerr
}

// routine reports whether err is a refusal a player meets in the normal course of a game
// (not their turn, not their game, the game is over): its answer is a toast that goes by
// itself, not an alert to dismiss. Alerts are kept for what needs reading.
func routine(err error) bool {
	return errors.Is(err, game.ErrNotYourTurn) || errors.Is(err, game.ErrNotYourGame) ||
		errors.Is(err, game.ErrGameOver) || errors.Is(err, game.ErrOwnOffer) ||
		errors.Is(err, game.ErrNoOffer) || errors.Is(err, game.ErrOfferExpired)
}

// onCallback handles a button tap.
func (ts *taps) onCallback(ctx context.Context, q *models.CallbackQuery) (err error) {
	c, perr := callback.Parse(q.Data)
	t := &tap{h: ts, q: q}
	if perr == nil && c.Action == callback.ActionMove {
		t.user, t.lazy = who{id: q.From.ID, name: displayName(&q.From), lang: normLang(q.From.LanguageCode)}, true
	} else {
		t.user = ts.play.whoIs(ctx, &q.From)
	}
	if q.InlineMessageID != "" {
		t.ref = game.MessageRef{InlineID: q.InlineMessageID}
	} else if msg := q.Message.Message; msg != nil {
		t.ref = game.MessageRef{ChatID: msg.Chat.ID, MessageID: msg.ID}
		t.private = msg.Chat.Type == models.ChatTypePrivate || msg.Chat.ID == q.From.ID
	} else if im := q.Message.InaccessibleMessage; im != nil {
		t.ref = game.MessageRef{ChatID: im.Chat.ID, MessageID: im.MessageID}
		t.private = im.Chat.ID == q.From.ID
	}
	defer func() {
		if !t.answered {
			if aerr := t.answer(ctx, "", false); aerr != nil && err == nil {
				err = aerr
			}
		}
	}()
	if perr != nil {
		return t.answer(ctx, tr(t.user.lang, i18n.KeyErrBadRequest), true)
	}
	if gameScoped(t, c) {
		if ok, err := ts.scopeTap(ctx, t, &c); !ok {
			return err
		}
	} else if editsTapped(t, c) {
		if ok, err := ts.scopeMenu(ctx, t); !ok {
			return err
		}
	}
	switch c.Action {
	case callback.ActionNoop:
		if c.Game != "" {
			return t.answer(ctx, tr(t.user.lang, i18n.KeyErrOccupied), false)
		}
		return t.answer(ctx, "", false)
	case callback.ActionMove:
		return ts.tapMove(ctx, t, c)
	case callback.ActionPage:
		return ts.tapPage(ctx, t, c)
	case callback.ActionResign:
		return ts.tapResign(ctx, t, c)
	case callback.ActionHint:
		hctx, cancel := context.WithTimeout(ctx, hintTimeout)
		sq, err := ts.svc.Hint(hctx, c.Game, t.user.id)
		cancel()
		if err != nil {
			return t.fail(ctx, err)
		}
		if err := t.answer(ctx, tr(t.user.lang, i18n.KeyGameHint, sq.String()), false); err != nil {
			return err
		}
		// The tapper's board shows the hint, marked and named with its place, until the next
		// move redraws it.
		if !t.stray && boards.Has(t.game, t.ref) {
			ts.boards.ShowHint(t.game, t.ref, sq)
		}
		return nil
	case callback.ActionUndo:
		// Only on the position the board showed: an Undo on an older board takes nothing back.
		res, err := ts.svc.UndoAt(ctx, c.Game, t.user.id, c.Pos)
		if err != nil {
			return ts.moveFailed(ctx, t, c, err)
		}
		if err := t.answer(ctx, i18n.Plural(t.user.lang, i18n.KeyGameUndone, res.Undone), false); err != nil {
			return err
		}
		ts.play.afterStep(res, t.user.id)
		return nil
	case callback.ActionClaim:
		res, err := ts.svc.ClaimIdle(ctx, c.Game, t.user.id)
		if err != nil {
			var idle *game.IdleError
			if errors.As(err, &idle) {
				return t.answer(ctx, tr(t.user.lang, i18n.KeyGameIdleWait, i18n.Duration(t.user.lang, idle.Left)), true)
			}
			if errors.Is(err, game.ErrNotIdle) {
				return t.answer(ctx, tr(t.user.lang, i18n.KeyGameClaimOwnTurn), true)
			}
			return t.fail(ctx, err)
		}
		return ts.stepDone(ctx, t, res)
	case callback.ActionRematch:
		return ts.tapRematch(ctx, t, c)
	case callback.ActionJoin:
		return ts.tapJoin(ctx, t, c)
	case callback.ActionCancel:
		return ts.tapCancel(ctx, t, c)
	case callback.ActionMenu:
		return ts.tapMainMenu(ctx, t, c)
	case callback.ActionSize, callback.ActionLevel, callback.ActionColor:
		return ts.tapMenu(ctx, t, c)
	case callback.ActionLang:
		return ts.tapLang(ctx, t, c)
	case callback.ActionReview:
		return ts.tapReview(ctx, t)
	case callback.ActionRefresh:
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		ts.play.refresh(t.game)
		return nil
	}
	return t.answer(ctx, tr(t.user.lang, i18n.KeyErrBadRequest), true)
}

// stepDone answers a tap whose step succeeded and redraws the boards of its game.
func (ts *taps) stepDone(ctx context.Context, t *tap, res *game.Snapshot) error {
	if err := t.answer(ctx, "", false); err != nil {
		return err
	}
	ts.play.afterStep(res, t.user.id)
	return nil
}

// boardLate is how long a tap's answer waits for the board of its step to go out: when the
// flood limits hold the board back longer, the answer says what the step did.
const boardLate = 300 * time.Millisecond

// tapMove plays a tapped square, on the position its board showed only (callback.Data.Pos),
// and redraws the boards, while the AI thinks if it is to move. The tap is answered once the
// tapped board goes out with the move (an empty answer: the board says it all) or, when the
// flood limits hold it back for boardLate, with what happened: "d3 played; the bot answered
// e6; the board updates in a moment".
func (ts *taps) tapMove(ctx context.Context, t *tap, c callback.Data) error {
	res, err := ts.svc.MoveOnAt(ctx, t.game, t.user.id, c.Square, c.Pos)
	if err != nil {
		return ts.moveFailed(ctx, t, c, err)
	}
	ts.met.Move("human")
	ai := ts.play.land(res, t.user.id)
	granted := ts.boards.Granted(t.ref)
	// The typing action goes beside the answer, not before it.
	reply := ai.start(ctx, func(ctx context.Context) { ts.typing(ctx, t.ref) })
	if took := ts.answerMove(ctx, t, c.Square, granted, reply); reply != nil && !took {
		<-reply // the handler ends with the AI's reply, as the handler's budget expects
	}
	return nil
}

// answerMove answers the tap that played sq: empty once granted is closed (the board goes
// out), else after boardLate with the move and the AI's reply if it came by then (from
// reply, nil when the AI is not to move). It reports whether it took the AI's step from
// reply.
func (ts *taps) answerMove(ctx context.Context, t *tap, sq engine.Square, granted <-chan struct{}, reply <-chan *game.Snapshot) (took bool) {
	late := time.NewTimer(boardLate)
	defer late.Stop()
	var ai *game.Snapshot
	for {
		select {
		case <-granted:
			ts.answerOrLog(ctx, t, "")
			return took
		case ai = <-reply:
			took, reply = true, nil
		case <-late.C:
			t.resolve(ctx)
			text := tr(t.user.lang, i18n.KeyGameMoved, sq.String())
			if squares := aiSquares(ai); squares != "" {
				text = tr(t.user.lang, i18n.KeyGameMovedReply, sq.String(), squares)
			}
			ts.answerOrLog(ctx, t, text)
			return took
		}
	}
}

// answerOrLog answers the tap with text, logging a failure: the move is made either way.
func (ts *taps) answerOrLog(ctx context.Context, t *tap, text string) {
	if err := t.answer(ctx, text, false); err != nil {
		ts.log.Warn("answer", "err", ts.scrub(err))
	}
}

// aiSquares lists the squares the AI played in its step res ("e6", or "e6, f5" when the
// player had to pass), "" when it played none.
func aiSquares(res *game.Snapshot) string {
	if res == nil {
		return ""
	}
	var out []string
	for _, p := range res.Played {
		if p.UserID == 0 && p.Square != engine.Pass {
			out = append(out, p.Square.String())
		}
	}
	return strings.Join(out, ", ")
}

// moveFailed answers a tapped move that could not be applied, and the other taps that act on
// the position their board showed (an undo, a page of the move picker, the answer to
// "Resign?"). A tap on a board that is out of date (ErrStale: another position than the
// game's, also one of the same ply after an undo and another line) is answered that the board
// is about to be redrawn, once it is (the process may have stopped before it drew it, or the
// flood limits hold it back); the AI is woken if it owes a move.
func (ts *taps) moveFailed(ctx context.Context, t *tap, c callback.Data, err error) error {
	if t.stray && errors.Is(err, game.ErrStale) {
		// Not one of the game's boards: it does not catch up; /board posts one.
		return t.answer(ctx, tr(t.user.lang, i18n.KeyErrOldBoard), true)
	}
	var aerr error
	var ai aiTurn // the AI's reply owed, taken once the tap is answered
	switch {
	case !t.stray && (errors.Is(err, game.ErrNotYourTurn) || errors.Is(err, game.ErrStale)):
		var behind, lost bool
		ai, behind, lost = ts.catchUp(ctx, c, t.ref, t.user.id)
		if lost {
			// The board showed writes the store no longer has (a Redis failover lost them):
			// it is redrawn as the game is stored, and the player is told to play again.
			t.resolve(ctx)
			aerr = t.answer(ctx, tr(t.user.lang, i18n.KeyGameMoveLost), true)
			break
		}
		// A board behind its game is about to be redrawn when catchUp has just queued its
		// redraw (that edit may be done already, so Pending is not asked then: the answer
		// would depend on timing) or when an edit of it is still queued; when the AI owes a
		// move, catchUp leaves the redraw to its reply.
		if behind && (!ai.due() || ts.boards.Pending(t.ref)) {
			t.resolve(ctx)
			aerr = t.answer(ctx, tr(t.user.lang, i18n.KeyGameRedrawing), false)
			break
		}
		aerr = t.fail(ctx, err)
	case errors.Is(err, game.ErrNotYourTurn):
		aerr = t.fail(ctx, err)
		ts.play.owedAI(ctx, c.Game) // the tap still wakes an AI that owes its move
	default:
		aerr = t.fail(ctx, err)
	}
	ai.take(ctx) // after the answer: the AI may think for a while
	return aerr
}

// catchUp brings a player's out-of-date board ref of the game c names, drawn on the position
// of tag c.Pos (0 for a board that named none), up to date after
// a tap c that could not be applied (the process may have stopped before the board was drawn),
// and returns the AI's reply when the game owes one (the caller takes it once the tap is answered),
// whether the board was behind its game (only then is a pending edit of it a redraw the
// player waits for, rather than, say, the buttons of a board just posted), and whether it
// was ahead of it instead: a move button drawn from a newer version of the game than the
// store has now (present.KeyboardOptions.Version, game.Lost), whose writes a Redis failover
// lost; such a board is redrawn as the game is stored, like one behind. A board that is up
// to date is not drawn again, so a player tapping while it is not their turn
// spends none of the chat's budget. ref must belong to the game (scopeTap): a chat message is
// drawn only when it is one of the game's boards; the inline message the game was made for is
// recorded as its board again if it is missing (the process stopped before recording it).
func (ts *taps) catchUp(ctx context.Context, c callback.Data, ref game.MessageRef, user int64) (ai aiTurn, behind, lost bool) {
	id, pos := c.Game, c.Pos
	res, err := ts.svc.Game(ctx, id)
	if err != nil || game.Side(res.Game, user) < 0 || ref == (game.MessageRef{}) {
		return aiTurn{}, false, false
	}
	lost = c.Action == callback.ActionMove && game.Lost(res.Game, int64(c.Arg))
	g := res.Game
	recorded := boards.Has(g, ref)
	if !recorded {
		if ref.InlineID == "" || ref.InlineID != g.InlineID {
			return aiTurn{}, false, false
		}
		if g, err = ts.svc.AddBoard(ctx, id, ref); err != nil {
			return aiTurn{}, false, lost
		}
	}
	behind = (!recorded || res.Pos.Tag() != pos) && !lost
	if ai = ts.play.owed(res); ai.due() {
		return ai, behind, lost // its reply redraws the boards
	}
	switch {
	case lost:
		ts.boards.Rewind(g, ref)
	case behind:
		ts.boards.Redraw(g, ref)
	}
	return aiTurn{}, behind, lost
}

// tapPage shows another page of the move picker in the tapped message. A picker drawn on
// another position than the game's (callback.Data.Pos) is redrawn whole instead: its
// picture would not show the position of the moves listed under it.
func (ts *taps) tapPage(ctx context.Context, t *tap, c callback.Data) error {
	g := t.game
	if t.stray {
		return t.answer(ctx, tr(t.user.lang, i18n.KeyErrOldBoard), true)
	}
	if !onPosition(g, c.Pos) {
		return ts.moveFailed(ctx, t, c, game.ErrStale)
	}
	if err := t.answer(ctx, "", false); err != nil {
		return err
	}
	if !boards.Has(g, t.ref) {
		return nil // an inline message not recorded: a move's catch-up records it
	}
	cont, err := present.Board(g, t.ref, c.Page, ts.styleOf(ctx, g, t.ref))
	if err != nil {
		return err
	}
	return ts.editMarkup(ctx, t.ref, ts.finish(g, t.ref, cont).Keyboard)
}

// onPosition reports whether game g is on the position of tag pos (callback.Data.Pos):
// false for pos 0, which names none, and for a game that does not replay.
func onPosition(g *game.Game, pos uint64) bool {
	tag, err := game.PosTag(g)
	return err == nil && tag == pos
}

// tapResign handles the Resign button and its question (callback.ResignAsk, ResignYes,
// ResignNo). The first tap asks in place: the tapped board's Resign button gives way to
// "Resign? Yes / No" for the player who tapped it, with no new message. Yes resigns; No draws
// the board again as it is. Only the player asked may answer; anyone but the players is
// refused at the first tap. A Yes counts only on the position it was asked on
// (callback.Data.Pos): after a move it resigns nothing, and the board is drawn again
// without the question. The creator of a lobby that has a Resign button (none is drawn
// now) cancels it at once, as /resign does.
func (ts *taps) tapResign(ctx context.Context, t *tap, c callback.Data) error {
	g := t.game
	side := game.Side(g, t.user.id)
	switch {
	case g.Status == game.StatusPlaying && c.Arg == callback.ResignYes && side >= 0 && c.Page == side+1 &&
		!onPosition(g, c.Pos):
		return ts.moveFailed(ctx, t, c, game.ErrStale)
	case g.Status == game.StatusLobby || c.Arg == callback.ResignYes && side >= 0 && c.Page == side+1:
		res, err := ts.svc.Resign(ctx, c.Game, t.user.id)
		if err != nil {
			return t.fail(ctx, err)
		}
		return ts.stepDone(ctx, t, res)
	case g.Status == game.StatusFinished:
		if c.Arg == callback.ResignNo && !t.stray {
			ts.boards.Redraw(g, t.ref) // the final board, without the question
		}
		return t.fail(ctx, game.ErrGameOver)
	case side < 0:
		return t.fail(ctx, game.ErrNotYourGame)
	case c.Arg == callback.ResignYes || c.Arg == callback.ResignNo:
		if c.Page != side+1 {
			return t.answer(ctx, tr(t.user.lang, i18n.KeyEndNotAsked), false)
		}
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		if !t.stray {
			ts.boards.Redraw(g, t.ref)
		}
		return nil
	case t.stray:
		// Not one of the game's boards: nothing is drawn into it; /board posts one.
		return t.answer(ctx, tr(t.user.lang, i18n.KeyErrOldBoard), true)
	}
	cont, err := present.ResignPrompt(g, t.ref, 0, ts.styleOf(ctx, g, t.ref), side)
	if err != nil {
		return t.fail(ctx, err)
	}
	cont = ts.finish(g, t.ref, cont)
	if err := t.answer(ctx, "", false); err != nil {
		return err
	}
	return ts.editMarkup(ctx, t.ref, cont.Keyboard)
}

// tapRematch handles the rematch buttons of a finished game (callback.RematchOffer,
// RematchAccept, RematchDecline). Against the AI the offer starts the rematch at once.
// Between people an offer, a decline or a withdrawal redraws the finished game's boards,
// which show where the offer stands to both players; an accept starts the rematch and
// redraws them too (but an inline message, which shows the rematch now). An offer found
// expired says so on the boards and in the answer; a new offer's expiry is scheduled, so
// that its boards say so by themselves when nobody answers (offers.go).
func (ts *taps) tapRematch(ctx context.Context, t *tap, c callback.Data) error {
	var res *game.Snapshot
	var err error
	switch c.Arg {
	case callback.RematchAccept:
		res, err = ts.svc.AcceptRematch(ctx, c.Game, t.user.id)
	case callback.RematchDecline:
		res, err = ts.svc.DeclineRematch(ctx, c.Game, t.user.id)
	default:
		res, err = ts.svc.Rematch(ctx, c.Game, t.user.id)
	}
	if err != nil {
		if errors.Is(err, game.ErrOfferExpired) || errors.Is(err, game.ErrNoOffer) {
			ts.refreshOld(ctx, c.Game) // it says where the offer stands now
		}
		return t.fail(ctx, err)
	}
	if res.Offered || c.Arg == callback.RematchDecline {
		text := ""
		if res.Offered {
			text = tr(t.user.lang, i18n.KeyEndOfferSent)
			if res.Game.RematchBy != t.user.id {
				text = ""
			}
		}
		if err := t.answer(ctx, text, false); err != nil {
			return err
		}
		if res.Offered {
			ts.offers.schedule(ctx, res.Game) // before the boards show the offer
		}
		ts.play.refresh(res.Game)
		if old := t.game; res.Offered && !(old.Rematch == game.RematchOffered && old.RematchBy == res.Game.RematchBy) {
			ts.play.noticeOffer(res.Game) // a new offer, not the same one asked again
		}
		return nil
	}
	if err := t.answer(ctx, "", false); err != nil {
		return err
	}
	if res.Game.AILevel == 0 && res.Game.InlineID == "" {
		ts.refreshOld(ctx, c.Game) // "Rematch accepted"
	}
	if res.Existing {
		return nil
	}
	return ts.play.started(ctx, res)
}

// refreshOld redraws the boards of the finished game id as it is stored now, but not an
// inline message that shows its rematch already.
func (ts *taps) refreshOld(ctx context.Context, id string) {
	old, err := ts.svc.Game(ctx, id)
	if err != nil || old.Game.InlineID != "" && old.Game.Rematch == game.RematchAccepted {
		return
	}
	ts.play.refresh(old.Game)
}

// tapJoin joins a lobby: a group lobby or an inline post (opened from its signed invitation
// on the first tap if chosen_inline_result did not come first).
func (ts *taps) tapJoin(ctx context.Context, t *tap, c callback.Data) error {
	id := c.Game
	if t.game == nil {
		g, key, err := ts.inline.openInvitation(ctx, t.ref.InlineID, c)
		if key != "" {
			return t.answer(ctx, tr(t.user.lang, key), true)
		}
		if err != nil {
			return t.fail(ctx, err)
		}
		id = g.ID
	}
	ts.play.touch(ctx, t.user) // the joiner's results count from now on (storage RecordResult)
	search, slang, searching := ts.play.searchShown(ctx, t.user.id)
	res, err := ts.svc.Join(ctx, id, t.user.player(0))
	if err != nil {
		if key := joinRefusal(ctx, ts.svc, id, t.user.id, err); key != "" {
			return t.answer(ctx, tr(t.user.lang, key), true)
		}
		return t.fail(ctx, err)
	}
	if err := t.answer(ctx, "", false); err != nil {
		return err
	}
	if searching {
		ts.play.searchLeft(ctx, search, slang) // the game took the user out of the queue
	}
	return ts.play.started(ctx, res)
}

// tapCancel cancels a lobby (its creator only) or the user's search.
func (ts *taps) tapCancel(ctx context.Context, t *tap, c callback.Data) error {
	if c.Game == "" && t.ref.InlineID == "" {
		// A search's Cancel: it stops the user's own search, whichever message it is on; on a
		// search that is over it says so, and the message loses the button.
		left, err := ts.svc.CancelFind(ctx, t.user.id)
		if err != nil {
			return t.fail(ctx, err)
		}
		c := present.SearchOver(t.user.lang)
		if left {
			c = present.SearchCancelled(t.user.lang)
		}
		if err := t.answer(ctx, c.Text, false); err != nil {
			return err
		}
		return ts.edit(ctx, t.ref, c)
	}
	id, g := c.Game, t.game
	if g.Status != game.StatusLobby {
		return t.fail(ctx, game.ErrLobbyTaken)
	}
	if g.Players[0].UserID != t.user.id {
		return t.fail(ctx, game.ErrNotYourGame)
	}
	return ts.play.cancelLobby(ctx, id, t.user, func(err error) error { return t.fail(ctx, err) },
		func() error { return t.answer(ctx, tr(t.user.lang, i18n.KeyLobbyCancelled), false) })
}

// tapMenu walks the AI menu: size, level, colour, then the game starts in that chat.
func (ts *taps) tapMenu(ctx context.Context, t *tap, c callback.Data) error {
	lang := t.user.lang
	if t.ref.ChatID == 0 {
		return t.answer(ctx, tr(lang, i18n.KeyErrBadRequest), true)
	}
	if !t.private {
		lang = ts.play.chatLang(ctx, t.ref.ChatID, lang)
	}
	switch c.Action {
	case callback.ActionSize:
		if !ts.svc.ValidSize(c.Arg) {
			return t.fail(ctx, game.ErrBadSize)
		}
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		return ts.editMenu(ctx, t.ref, present.MenuLevel, lang, present.MenuState{Size: c.Arg})
	case callback.ActionLevel:
		if !ts.svc.ValidSize(c.Page) {
			return t.fail(ctx, game.ErrBadSize)
		}
		if c.Arg < 1 || c.Arg > game.MaxLevel {
			return t.fail(ctx, game.ErrBadLevel)
		}
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		return ts.editMenu(ctx, t.ref, present.MenuColor, lang, present.MenuState{Size: c.Page, Level: c.Arg})
	case callback.ActionColor:
		ts.play.touch(ctx, t.user) // the player's results count from now on (storage RecordResult)
		color := game.ChooseRandom
		switch c.Arg {
		case 0:
			color = game.ChooseBlack
		case 1:
			color = game.ChooseWhite
		}
		var failed error
		err := ts.play.newAIGame(ctx, t.ref.ChatID, t.user, t.private, c.Page, c.Ply, color, func(err error) error {
			failed = err
			return t.fail(ctx, err)
		})
		if failed != nil {
			return err
		}
		if aerr := t.answer(ctx, "", false); aerr != nil && err == nil {
			err = aerr
		}
		if err == nil {
			// The menu has done its job: leave a short note instead of stale buttons.
			sz := strconv.Itoa(c.Page)
			_ = ts.edit(ctx, t.ref, content{Text: sz + "×" + sz + ", " + present.LevelName(lang, c.Ply)})
		}
		return err
	}
	if err := t.answer(ctx, "", false); err != nil {
		return err
	}
	return ts.editMenu(ctx, t.ref, present.MenuSize, lang, present.MenuState{})
}

// tapLang sets the language from the /lang menu (redrawn in place, the new language marked)
// or from the main menu's language button (the main menu redrawn in place in it).
func (ts *taps) tapLang(ctx context.Context, t *tap, c callback.Data) error {
	lang, ok := present.LangOfArg(c.Arg)
	if !ok {
		return t.answer(ctx, tr(t.user.lang, i18n.KeyErrBadRequest), true)
	}
	if t.ref.ChatID == 0 {
		return t.answer(ctx, tr(t.user.lang, i18n.KeyErrBadRequest), true)
	}
	if err := ts.play.setLang(ctx, t.ref.ChatID, t.private, t.user.id, lang); err != nil {
		return t.fail(ctx, err)
	}
	if err := t.answer(ctx, tr(lang, i18n.KeyLangSet), false); err != nil {
		return err
	}
	if c.Page == present.LangInMenu {
		// The main menu's language button: the menu stays, now in the language chosen.
		return ts.editMenu(ctx, t.ref, present.MenuMain, lang, present.MenuState{Name: t.user.name})
	}
	return ts.editMenu(ctx, t.ref, present.MenuLang, lang, present.MenuState{})
}

// tapMainMenu follows an entry of the /start menu.
func (ts *taps) tapMainMenu(ctx context.Context, t *tap, c callback.Data) error {
	if t.ref.ChatID == 0 {
		return t.answer(ctx, tr(t.user.lang, i18n.KeyErrBadRequest), true)
	}
	lang := t.user.lang
	if !t.private {
		lang = ts.play.chatLang(ctx, t.ref.ChatID, lang)
	}
	m := &msgCtx{chat: t.ref.ChatID, private: t.private, user: t.user, lang: lang}
	if c.Game != "" {
		// A finished board's buttons for what comes next: the menu comes in a message of its
		// own, so the final board stays.
		switch mm := present.Menu(c.Arg); mm {
		case present.MenuMain, present.MenuSize:
			if err := t.answer(ctx, "", false); err != nil {
				return err
			}
			return ts.cmds.sendMenu(ctx, t.ref.ChatID, mm, lang, present.MenuState{Name: t.user.name})
		}
		return t.answer(ctx, tr(lang, i18n.KeyErrBadRequest), true)
	}
	switch present.Menu(c.Arg) {
	case present.MenuMain:
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		return ts.editMenu(ctx, t.ref, present.MenuMain, lang, present.MenuState{Name: t.user.name})
	case present.MenuSize:
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		return ts.editMenu(ctx, t.ref, present.MenuSize, lang, present.MenuState{})
	case present.MenuFriend:
		// Page 0: the ways to play a friend, drawn in place; FriendLink: an invitation link
		// (what /new does), posted below.
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		if c.Page == present.FriendLink {
			m.args = nil
			return ts.cmds.cmdNew(ctx, m)
		}
		return ts.editMenu(ctx, t.ref, present.MenuFriendPick, lang, present.MenuState{Bot: ts.username})
	case present.MenuFind:
		// Page 0: the size choice, drawn in place; a size: the search, shown in this message.
		if c.Page == 0 {
			if err := t.answer(ctx, "", false); err != nil {
				return err
			}
			return ts.editMenu(ctx, t.ref, present.MenuFindSize, lang, present.MenuState{})
		}
		if !ts.svc.ValidSize(c.Page) {
			return t.fail(ctx, game.ErrBadSize)
		}
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		return ts.cmds.find(ctx, m, c.Page, t.ref)
	case present.MenuRules:
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		return ts.cmds.replyKey(ctx, m, i18n.KeyRulesText)
	case present.MenuStats:
		if err := t.answer(ctx, "", false); err != nil {
			return err
		}
		return ts.cmds.cmdStats(ctx, m)
	case present.MenuStyle, present.MenuStyleButtons, present.MenuStyleImage:
		return ts.tapStyle(ctx, t, m, c.Arg)
	}
	return t.answer(ctx, tr(lang, i18n.KeyErrBadRequest), true)
}

// editMenu replaces the message ref with menu m of package present, drawn in lang with s.
func (ts *taps) editMenu(ctx context.Context, ref game.MessageRef, m present.Menu, lang string, s present.MenuState) error {
	return ts.edit(ctx, ref, present.DrawMenu(m, lang, s))
}
