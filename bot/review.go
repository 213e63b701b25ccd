package bot

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/pictures"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// reviewTimeout bounds one review, from the request to the posted chart: its wait for idle AI
// workers (searches that players wait on always go first) and its own searches.
const reviewTimeout = 10 * time.Minute

// replayTimeout bounds drawing and sending a finished game's replays.
const replayTimeout = time.Minute

// minReplayMoves is the fewest moves a finished game needs for a replay: a game resigned
// after a move or two has nothing to watch.
const minReplayMoves = 4

// startReview is the payload of the deep link that opens a review in the bot's private chat
// ("rv" and the game's ID): an inline message, which the bot cannot post under, links there.
const startReview = "rv"

// errReviewPosted refuses a second copy of a review in a chat (game.ReviewRepost).
var errReviewPosted = errors.New("bot: review posted already")

// Reviews posts the reviews that players ask for and the replays of finished games, drawn by
// the drawing workers. Both run as work after a step (afterWork), which a stop waits for;
// Stop makes those in flight give up, since nobody waits on them. Its zero value is not
// usable: New builds it.
type Reviews struct {
	*core
	after   *afterWork
	draw    *pictures.Pictures // draws the charts and the replays
	replays *replays           // the replays of finished games waiting to be drawn and sent
	// stop ends when Stop is called: a review in flight or a replay on its way gives up.
	stop   context.Context
	cancel context.CancelFunc
}

// newReviews returns the reviews and replays of c, drawn by draw (a queue of replays served
// by as many goroutines as draw has workers), run as after's work.
func newReviews(c *core, after *afterWork, draw *pictures.Pictures) *Reviews {
	r := &Reviews{core: c, after: after, draw: draw}
	r.stop, r.cancel = context.WithCancel(after.base)
	r.replays = newReplays(draw.Workers(), replayQueue, func(run func()) bool {
		if !after.startWork(workReplay) {
			return false
		}
		go func() {
			defer after.endWork(workReplay)
			run()
		}()
		return true
	}, r.replay, r.stop, r.log)
	return r
}

// Start does nothing: the reviews and replays run on the goroutines of the work they are
// (see afterWork), started when a step asks for them.
func (r *Reviews) Start() {}

// Stop makes the reviews in flight and the replays queued or on their way give up at once;
// Bot.Shutdown waits for them to return.
func (r *Reviews) Stop(context.Context) error {
	r.cancel()
	return nil
}

// request starts the review of the finished game g for user, to be posted in chat in
// lang: it says at once how long it will take, and posts the chart and the costliest moves
// when the review is done (see game.Service.Review), in a goroutine of its own. It fails,
// with nothing sent, for a game not over or without a move, and with errReviewPosted when
// chat had this review posted in the last game.ReviewRepost.
func (r *Reviews) request(ctx context.Context, g *game.Game, chat int64, lang string, user int64) error {
	switch {
	case g.Status != game.StatusFinished:
		return game.ErrNotOver
	case len(g.Moves) == 0:
		return game.ErrNoMoves
	}
	release, ok, err := r.svc.ClaimReviewPost(ctx, g.ID, chat)
	if err != nil {
		return err
	}
	if !ok {
		return errReviewPosted
	}
	msg, err := r.sendText(ctx, chat, present.ReviewStarted(lang, game.ReviewEstimate(g)), nil)
	if err != nil {
		release()
		return err
	}
	r.after.goAfter(workReview, reviewTimeout, func(ctx context.Context) {
		if !r.postReview(ctx, g, chat, lang, user, msg.ID) {
			release()
		}
	})
	return nil
}

// postReview makes the review of g and posts it in chat, in place of the message progress
// that announced it; it reports whether the review was posted.
func (r *Reviews) postReview(ctx context.Context, g *game.Game, chat int64, lang string, user int64, progress int) bool {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(r.stop, cancel)()
	res, err := r.svc.Review(rctx, g.ID, user, nil)
	if err == nil && g.InlineID != "" { // an inline game had no replay
		if anim, ok := r.drawReplay(ctx, res.Game, res.Replay); ok {
			r.sendReplay(ctx, res.Game, res.Replay, anim, chat, lang)
		}
	}
	if err == nil {
		err = r.sendReview(ctx, res, chat, lang)
	}
	if err != nil {
		key := i18n.KeyReviewFailed
		switch {
		case r.stop.Err() != nil: // the bot is stopping
		case errors.Is(err, game.ErrBusy):
			key = i18n.KeyReviewBusy
		default:
			r.log.Warn("review", "game", g.ID, "chat", chat, "err", r.scrub(err))
		}
		if _, err := r.api.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: chat, MessageID: progress,
			Text: tr(lang, key)}); err != nil {
			r.log.Warn("review: tell failure", "game", g.ID, "chat", chat, "err", r.scrub(err))
		}
		return false
	}
	if _, err := r.api.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: chat, MessageID: progress}); err != nil {
		r.log.Debug("review: delete progress", "game", g.ID, "chat", chat, "err", r.scrub(err))
	}
	return true
}

// sendReview posts a review: the chart of the evaluation with the costliest moves under it.
func (r *Reviews) sendReview(ctx context.Context, res *game.Reviewed, chat int64, lang string) error {
	// The chart is drawn by the drawing workers, as the replays are.
	var plot []byte
	var perr error
	err := r.draw.DrawIdle(ctx, func() { plot, perr = render.EvalPlot(present.ReviewPlot(res.Review, lang)) })
	if err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	caption := clip(present.ReviewCaption(res.Game, res.Replay, res.Review, lang), 1024)
	_, err = r.api.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: chat, Caption: caption,
		Photo: &models.InputFileUpload{Filename: "review.png", Data: bytes.NewReader(plot)}})
	return err
}

// sendReplays queues the replay of the game g that has just finished (see replays.go), unless
// g is too short to watch.
func (r *Reviews) sendReplays(g *game.Game) {
	if len(g.Moves) < minReplayMoves {
		return
	}
	r.replays.add(g)
}

// replay sends the replay of the finished game g into each chat that shows one of its boards
// (none for an inline game: an inline message cannot take another), in the language of that
// board. The replay is drawn once, by the drawing workers after the pictures somebody is
// fetching.
func (r *Reviews) replay(ctx context.Context, g *game.Game) {
	eg, err := present.Replay(g)
	if err != nil {
		r.log.Warn("replay", "game", g.ID, "err", r.scrub(err))
		return
	}
	var anim []byte
	sent := map[int64]bool{}
	for _, ref := range g.Boards {
		if ref.InlineID != "" || ref.ChatID == 0 || sent[ref.ChatID] {
			continue
		}
		if anim == nil {
			var ok bool
			if anim, ok = r.drawReplay(ctx, g, eg); !ok {
				return
			}
		}
		sent[ref.ChatID] = true
		r.sendReplay(ctx, g, eg, anim, ref.ChatID, present.ViewLang(g, ref))
	}
}

// drawReplay draws the replay of the finished game g (replayed as eg) on a drawing worker;
// false, with a log line, when it could not be drawn.
func (r *Reviews) drawReplay(ctx context.Context, g *game.Game, eg *engine.Game) ([]byte, bool) {
	// The drawing writes anim and rerr, which are read only once it is done: a worker may
	// still run it after do gave up waiting.
	var anim []byte
	var rerr error
	err := r.draw.DrawIdle(ctx, func() { anim, rerr = render.Replay(eg, render.ReplayOptions{}) })
	if err == nil {
		err = rerr
	}
	switch {
	case err != nil && r.stop.Err() != nil: // the bot is stopping
		r.log.Debug("replay not drawn: stopping", "game", g.ID)
		return nil, false
	case err != nil:
		r.log.Warn("replay not drawn", "game", g.ID, "err", r.scrub(err))
		return nil, false
	}
	return anim, true
}

// sendReplay sends anim, the replay of the finished game g (replayed as eg), into chat.
func (r *Reviews) sendReplay(ctx context.Context, g *game.Game, eg *engine.Game, anim []byte, chat int64, lang string) {
	_, err := r.api.SendAnimation(ctx, &tgbot.SendAnimationParams{ChatID: chat,
		Caption:   clip(present.ReplayCaption(g, eg, lang), 1024),
		Animation: &models.InputFileUpload{Filename: "replay-" + g.ID + ".gif", Data: bytes.NewReader(anim)}})
	if err != nil {
		r.log.Warn("replay", "game", g.ID, "chat", chat, "err", r.scrub(err))
	}
}

// reviewLink is the deep link that opens the review of game id in the bot's private chat.
func (r *Reviews) reviewLink(id string) string {
	return "https://t.me/" + r.username + "?start=" + startReview + id
}

// tapReview answers a tap on Review under a finished board: the review is posted in the
// board's chat; under an inline message, which the bot cannot post under, the tap opens the
// bot's private chat, where the deep link asks for it.
func (ts *taps) tapReview(ctx context.Context, t *tap) error {
	t.resolve(ctx)
	if t.ref.InlineID != "" {
		t.answered = true
		_, err := ts.api.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: t.q.ID,
			URL: ts.reviews.reviewLink(t.game.ID)})
		return err
	}
	lang := t.user.lang
	if !t.private {
		lang = ts.play.chatLang(ctx, t.ref.ChatID, t.user.lang)
	}
	err := ts.reviews.request(ctx, t.game, t.ref.ChatID, lang, t.user.id)
	switch {
	case errors.Is(err, errReviewPosted):
		return t.answer(ctx, tr(t.user.lang, i18n.KeyReviewPosted), false)
	case err != nil:
		return t.fail(ctx, err)
	}
	return t.answer(ctx, "", false)
}

// cmdReview reviews the chat's game (/review): the one bound to it, else the one that
// finished there last; or answers why it cannot.
func (cs *commands) cmdReview(ctx context.Context, m *msgCtx) error {
	cur, err := cs.svc.Current(ctx, m.chat)
	if errors.Is(err, game.ErrNoGame) { // a chat is free once its game ends
		cur, err = cs.svc.LastFinished(ctx, m.chat)
	}
	if err != nil {
		return cs.replyErr(ctx, m, err)
	}
	return cs.review(ctx, m, cur.Game)
}

// reviewLinked reviews, in a player's private chat, the game a review deep link names.
func (cs *commands) reviewLinked(ctx context.Context, m *msgCtx, id string) error {
	if (callback.Data{Action: callback.ActionReview, Game: id}).Validate() != nil || id == "" {
		return cs.replyErr(ctx, m, game.ErrNoGame)
	}
	res, err := cs.svc.Game(ctx, id)
	if err != nil {
		return cs.replyErr(ctx, m, err)
	}
	if game.Side(res.Game, m.user.id) < 0 {
		return cs.replyKey(ctx, m, i18n.KeyReviewNotYours)
	}
	return cs.review(ctx, m, res.Game)
}

// review asks for the review of g in m's chat.
func (cs *commands) review(ctx context.Context, m *msgCtx, g *game.Game) error {
	err := cs.reviews.request(ctx, g, m.chat, m.lang, m.user.id)
	if errors.Is(err, errReviewPosted) {
		return cs.replyKey(ctx, m, i18n.KeyReviewPosted)
	}
	if err != nil {
		return cs.replyErr(ctx, m, err)
	}
	return nil
}

// isReviewLink reports whether a /start payload is a review deep link, and returns its game.
func isReviewLink(payload string) (string, bool) {
	return strings.CutPrefix(payload, startReview)
}
