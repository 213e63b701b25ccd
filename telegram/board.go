package telegram

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/telegram/i18n"
)

// replayGame plays the stored moves of g, inserting the forced passes (also after the last
// move), as package host does.
func replayGame(g *game.Game) (*engine.Game, error) {
	eg, err := engine.NewGame(g.Size)
	if err != nil {
		return nil, err
	}
	passes := func() {
		for eg.Position().MustPass() {
			if _, err := eg.Play(engine.Pass); err != nil {
				return
			}
		}
	}
	for i, m := range g.Moves {
		passes()
		if _, err := eg.Play(engine.Square(m)); err != nil {
			return nil, fmt.Errorf("game %s move %d: %w", g.ID, i+1, err)
		}
	}
	passes()
	return eg, nil
}

// viewLang is the language of the board message ref of g: a player's own private chat speaks
// that player's language, any other chat the game's.
func viewLang(g *game.Game, ref game.MessageRef) string {
	if ref.InlineID == "" && ref.ChatID != 0 {
		for _, p := range g.Players {
			if p.UserID != 0 && p.ChatID == ref.ChatID && p.Lang != "" {
				return normLang(p.Lang)
			}
		}
	}
	return normLang(g.Lang)
}

// playerName is how the board names a player.
func playerName(g *game.Game, i int, lang string) string {
	p := g.Players[i]
	if p.UserID == 0 && g.AILevel > 0 {
		return tr(lang, "game.bot_name", levelName(lang, g.AILevel))
	}
	return p.Name
}

// levelName is the name of an AI level.
func levelName(lang string, level int) string {
	return i18n.Level(lang, level)
}

// statusOf returns the render status of g.
func statusOf(g *game.Game, v render.View, lang string) render.StatusInfo {
	return render.StatusInfo{View: v, Black: playerName(g, 0, lang), White: playerName(g, 1, lang), Result: g.Result()}
}

// cb encodes a callback.
func cb(a render.Action, game string, ply int) string {
	return render.Callback{Action: a, Game: game, Ply: ply}.Encode()
}

// button makes a callback button.
func button(text, data string) models.InlineKeyboardButton {
	return models.InlineKeyboardButton{Text: text, CallbackData: data}
}

// viewer is the player whose own private chat shows the board message ref of g: 0 black,
// 1 white, -1 when the message is seen by both or by others (a group, an inline message).
func viewer(g *game.Game, ref game.MessageRef) int {
	if ref.InlineID != "" || ref.ChatID <= 0 {
		return -1
	}
	for i, p := range g.Players {
		if p.UserID != 0 && (p.ChatID == ref.ChatID || p.UserID == ref.ChatID) {
			return i
		}
	}
	return -1
}

// controls are the rows of buttons after a board; turn is the side to move (0 black, 1
// white) and seer the viewer of the message (see viewer). In a game between people the claim
// button is left out of a player's own board while it is their turn, since a claim can only
// come from the player kept waiting; on a board both players see it stays, and a claim made
// too early gets an alert saying how long is left.
func controls(g *game.Game, lang string, turn, seer int) [][]models.InlineKeyboardButton {
	ply := game.Ply(g)
	switch g.Status {
	case game.StatusFinished:
		if g.Reason == game.EndAbandoned {
			return nil
		}
		return [][]models.InlineKeyboardButton{{button(tr(lang, "btn.rematch"), cb(render.ActionRematch, g.ID, ply))}}
	case game.StatusPlaying:
		if g.AILevel > 0 {
			row := []models.InlineKeyboardButton{}
			if g.AILevel <= game.MaxHintLevel {
				row = append(row, button(tr(lang, "btn.hint"), cb(render.ActionHint, g.ID, ply)))
			}
			row = append(row, button(tr(lang, "btn.undo"), cb(render.ActionUndo, g.ID, ply)),
				button(tr(lang, "btn.resign"), cb(render.ActionResign, g.ID, ply)))
			return [][]models.InlineKeyboardButton{row}
		}
		row := []models.InlineKeyboardButton{button(tr(lang, "btn.resign"), cb(render.ActionResign, g.ID, ply))}
		if seer < 0 || seer != turn {
			row = append(row, button(tr(lang, "btn.claim"), cb(render.ActionClaim, g.ID, ply)))
		}
		return [][]models.InlineKeyboardButton{row}
	}
	return nil
}

// boardContent draws game g for the message ref at move-picker page page, in style (see
// styleOf). A chat message of a board bigger than a keyboard, or of an 8×8 board in
// StyleImage, is a photo with the move picker; an inline message of a large board (which
// cannot get a new upload) shows the board as text instead, with the same move picker.
func boardContent(g *game.Game, ref game.MessageRef, page int, style game.Style) (content, error) {
	return boardContentOf(g, nil, ref, page, style)
}

// boardContentOf is boardContent given the replay of g (replayGame), or nil to replay it.
// It does not change eg.
func boardContentOf(g *game.Game, eg *engine.Game, ref game.MessageRef, page int, style game.Style) (content, error) {
	lang := viewLang(g, ref)
	if g.Status == game.StatusLobby {
		return lobbyContent(g, lang, ""), nil
	}
	var err error
	if eg == nil {
		if eg, err = replayGame(g); err != nil {
			return content{}, err
		}
	}
	v := render.ViewOf(eg)
	v.Ply = game.Ply(g) // the ply package host checks taps against (passes not counted)
	text := render.Status(lang, statusOf(g, v, lang))
	if note := passNote(g, eg, lang); note != "" {
		text = note + "\n" + text
	}
	if g.Status == game.StatusFinished && len(g.Moves) > 0 {
		text += "\n" + tr(lang, "result.record", eg.Record())
	}
	opt := render.KeyboardOptions{Game: g.ID, Controls: controls(g, lang, int(eg.Position().Side()), viewer(g, ref))}
	if render.FitsKeyboard(g.Size) && (style != game.StyleImage || ref.InlineID != "") {
		kb, err := render.Keyboard(v, opt)
		if err != nil {
			return content{}, err
		}
		return content{text: text, kb: &kb}, nil
	}
	var kb models.InlineKeyboardMarkup
	if g.Status == game.StatusPlaying {
		kb, err = render.MovePicker(v, page, opt)
	} else {
		kb = models.InlineKeyboardMarkup{InlineKeyboard: opt.Controls}
	}
	if err != nil {
		return content{}, err
	}
	c := content{text: text, kb: &kb}
	if len(kb.InlineKeyboard) == 0 {
		c.kb = nil
	}
	if ref.InlineID != "" {
		c.text = textBoard(v.Position) + "\n" + text
		return c, nil
	}
	c.photo, err = render.PNG(v, render.ImageOptions{Flipped: true, HideHints: g.Status != game.StatusPlaying})
	return c, err
}

// passNote announces the passes played since the side to move last placed a disc (several
// passes in a row happen when the opponent moves again and again). The pass of the very last
// ply is left to the status text, which tells it.
func passNote(g *game.Game, eg *engine.Game, lang string) string {
	moves := eg.Moves()
	n := len(moves)
	if n == 0 || moves[n-1] == engine.Pass || g.Status != game.StatusPlaying {
		return ""
	}
	first := eg.Start().Side()
	side := eg.Position().Side()
	passes := 0
	var passer engine.Color
	for i := n - 1; i >= 0; i-- {
		by := first
		if i%2 == 1 {
			by = first.Opponent()
		}
		if moves[i] != engine.Pass {
			if by == side {
				break
			}
			continue
		}
		passes++
		passer = by
	}
	if passes == 0 {
		return ""
	}
	sym := render.BlackDisc
	if passer == engine.White {
		sym = render.WhiteDisc
	}
	return tr(lang, "game.pass", sym+" "+playerName(g, int(passer), lang))
}

// textBoard draws a position as lines of symbols, for inline messages of large boards:
// a header of column letters, then one line per row with its number.
func textBoard(p engine.Position) string {
	n := p.Size()
	var sb strings.Builder
	sb.WriteString("    ")
	for c := 0; c < n; c++ {
		sb.WriteByte(byte('a' + c))
	}
	sb.WriteByte('\n')
	for r := 0; r < n; r++ {
		fmt.Fprintf(&sb, "%2d ", r+1)
		for c := 0; c < n; c++ {
			col, ok := p.At(engine.SquareAt(c, r))
			switch {
			case !ok:
				sb.WriteString("🟩")
			case col == engine.Black:
				sb.WriteString(render.BlackDisc)
			default:
				sb.WriteString(render.WhiteDisc)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// lobbyContent is an invitation: its first button joins the game. For invites the button is
// a deep link (a forwarded message keeps only URL buttons working for others).
func lobbyContent(g *game.Game, lang, username string) content {
	creator := g.Players[0].Name
	var text string
	var join models.InlineKeyboardButton
	switch g.Flow {
	case game.FlowInvite:
		text = tr(lang, "invite.text", creator, g.Size, g.Size)
		join = models.InlineKeyboardButton{Text: tr(lang, "invite.button"),
			URL: "https://t.me/" + username + "?start=j" + g.ID}
	case game.FlowInline:
		text = tr(lang, "inline.text", creator, g.Size, g.Size)
		join = button(tr(lang, "lobby.join"), cb(render.ActionJoin, g.ID, 0))
	default:
		switch g.CreatorColor {
		case 0, 1:
			text = tr(lang, "lobby.text_color", creator, g.Size, g.Size, colorName(lang, int(g.CreatorColor)))
		default:
			text = tr(lang, "lobby.text", creator, g.Size, g.Size, tr(lang, "lobby.random_colors"))
		}
		join = button(tr(lang, "lobby.join"), cb(render.ActionJoin, g.ID, 0))
	}
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
		{join},
		{button(tr(lang, "lobby.cancel"), cb(render.ActionCancel, g.ID, 0))},
	}}
	return content{text: text, kb: kb}
}

// colorName names colour i (0 black, 1 white) in words.
func colorName(lang string, i int) string {
	if i == 1 {
		return tr(lang, "color.name_white")
	}
	return tr(lang, "color.name_black")
}

// refresh schedules an edit of every board of g, drawn from the store when sent.
func (b *Bot) refresh(g *game.Game) {
	if g == nil || len(g.Boards) == 0 {
		return
	}
	bb := b.newBoardBatch(g, g.Boards)
	for _, ref := range g.Boards {
		b.scheduleIn(bb, g, ref)
	}
}

// scheduleBoard schedules an edit of the board message ref of game g. The board is drawn
// from the store when the edit is sent, and drawn again when a 429 made it wait, so a board
// held back by the rate limit is never sent out of date; g itself only tells whose board
// style to read along with the game.
func (b *Bot) scheduleBoard(g *game.Game, ref game.MessageRef) {
	b.scheduleIn(b.newBoardBatch(g, []game.MessageRef{ref}), g, ref)
}

// scheduleIn schedules the edit of the board message ref of game g as part of bb.
func (b *Bot) scheduleIn(bb *boardBatch, g *game.Game, ref game.MessageRef) {
	id := g.ID
	hint, _ := styleUser(g, ref)
	b.schedule(ref, func(ctx context.Context) {
		first := true
		var drawn int64 // the version of the game the edit sent drew, 0 while none was sent
		edit := func() error {
			drawn = 0
			var st boardState
			var err error
			if first {
				first = false
				st, err = bb.read(ctx, b)
			} else {
				st, err = b.readBoards(ctx, id, bb.users)
			}
			if err != nil {
				if errors.Is(err, game.ErrNotFound) {
					return nil
				}
				return err
			}
			if !hasBoard(st.g, ref) {
				return nil // the message was replaced by a newer board
			}
			var eg *engine.Game // a lobby is not replayed
			if st.g.Status != game.StatusLobby {
				if eg, err = st.replay(); err != nil {
					b.log.Error("edit: draw", "game", id, "err", err)
					return nil
				}
			}
			c, err := boardContentOf(st.g, eg, ref, 0, b.styleIn(ctx, st, ref, hint))
			if err != nil {
				b.log.Error("edit: draw", "game", id, "err", err)
				return nil
			}
			drawn = st.g.Version
			return b.editOnce(ctx, ref, c)
		}
		if err := b.retry(ctx, "editBoard", edit); err != nil {
			b.log.Warn("edit", "game", id, "err", b.scrub(err))
		}
		bb.landed(ctx, b, ref, drawn)
	})
}

// boardBatch is the edits of a game's boards that one step asks for. Each is drawn from the
// store when it is sent; those that start while another's read is on its way (the usual case:
// they are scheduled together) take that read instead of making their own, so that one round
// trip serves them all, and share its replay. A read that was over before an edit started is
// not taken: that edit reads again.
//
// Another process may draw a newer state of the game into the same messages at the same time,
// and an edit of ours that drew an older state may land after it. So when the last of the
// batch's edits has landed, the batch reads the game's version once more and draws again every
// board whose edit drew an older one (see landed).
type boardBatch struct {
	id    string
	refs  []game.MessageRef
	users []int64 // whose styles the batch's boards follow, as far as the step's game tells

	mu    sync.Mutex
	state int           // batchIdle, batchReading or batchDone
	done  chan struct{} // closed when the read is done
	st    boardState
	err   error

	left  int                       // edits not yet landed (or given up)
	drawn map[game.MessageRef]int64 // the game version each sent edit drew
}

// The states of a boardBatch's read.
const (
	batchIdle = iota
	batchReading
	batchDone
)

// newBoardBatch returns the batch of the edits of refs of game g, the newest of those boards.
func (b *Bot) newBoardBatch(g *game.Game, refs []game.MessageRef) *boardBatch {
	bb := &boardBatch{id: g.ID, refs: refs, done: make(chan struct{}), left: len(refs)}
	for _, ref := range refs {
		if u, fixed := styleUser(g, ref); !fixed && u != 0 && !slices.Contains(bb.users, u) {
			bb.users = append(bb.users, u)
		}
	}
	b.edits.mu.Lock()
	for _, ref := range refs {
		b.edits.latest[refKey(ref)] = bb
	}
	b.edits.mu.Unlock()
	return bb
}

// checkDelay is how long after a step's board edits have landed the bot checks that the game
// did not move on meanwhile (see boardBatch.landed). A step of this process on the game within
// that time redraws the boards anyway and makes the check needless, which is the usual case in
// a busy game; a board left stale by another process's step stays so about this long.
const checkDelay = 250 * time.Millisecond

// read returns the batch's read: the one on its way, or a new one when there is none yet;
// after the read is over, a read of the caller's own.
func (bb *boardBatch) read(ctx context.Context, b *Bot) (boardState, error) {
	bb.mu.Lock()
	switch bb.state {
	case batchIdle:
		bb.state = batchReading
		bb.mu.Unlock()
		bb.err = errors.New("bot: board read failed") // unless it returns
		defer func() {
			bb.mu.Lock()
			bb.state = batchDone
			bb.mu.Unlock()
			close(bb.done) // also on a panic, so that no edit waits for ever
		}()
		bb.st, bb.err = b.readBoards(ctx, bb.id, bb.users)
		return bb.st, bb.err
	case batchReading:
		bb.mu.Unlock()
		select {
		case <-bb.done:
			return bb.st, bb.err
		case <-ctx.Done():
			return boardState{}, ctx.Err()
		}
	}
	bb.mu.Unlock()
	return b.readBoards(ctx, bb.id, bb.users)
}

// landed records that the edit of ref is over, having drawn version drawn of the game (0 when
// it sent nothing). After the batch's last edit it checks that the game is still at the
// versions drawn and schedules a new edit of each board drawn from an older one. A game that
// cannot be read is left alone: its next step draws its boards.
func (bb *boardBatch) landed(ctx context.Context, b *Bot, ref game.MessageRef, drawn int64) {
	bb.mu.Lock()
	if drawn != 0 {
		if bb.drawn == nil {
			bb.drawn = make(map[game.MessageRef]int64)
		}
		bb.drawn[ref] = drawn
	}
	bb.left--
	last, sent := bb.left == 0, bb.drawn
	bb.mu.Unlock()
	if !last {
		return
	}
	if len(sent) == 0 {
		b.release(bb)
		return
	}
	b.wg.Add(1)
	time.AfterFunc(checkDelay, func() {
		defer b.wg.Done()
		// A board that a newer batch has drawn since is that batch's to check.
		owned := b.release(bb)
		if len(owned) == 0 || b.base.Err() != nil {
			return
		}
		ctx, cancel := context.WithTimeout(b.base, 10*time.Second)
		defer cancel()
		bb.check(ctx, b, owned, sent)
	})
}

// release drops bb as the newest batch of its boards and returns the boards it was that of.
func (b *Bot) release(bb *boardBatch) []game.MessageRef {
	b.edits.mu.Lock()
	defer b.edits.mu.Unlock()
	var owned []game.MessageRef
	for _, r := range bb.refs {
		if k := refKey(r); b.edits.latest[k] == bb {
			delete(b.edits.latest, k)
			owned = append(owned, r)
		}
	}
	return owned
}

// check reads the game's version and schedules a new edit of each board of refs whose edit
// drew an older one (sent: the version each edit sent drew).
func (bb *boardBatch) check(ctx context.Context, b *Bot, refs []game.MessageRef, sent map[game.MessageRef]int64) {
	// Boards with a newer edit queued here need no check: that edit reads the store.
	var check []game.MessageRef
	for _, r := range refs {
		if _, ok := sent[r]; ok && !b.editQueued(r, false) {
			check = append(check, r)
		}
	}
	if len(check) == 0 {
		return
	}
	g, err := b.svc.Lookup(ctx, bb.id)
	if err != nil {
		return
	}
	for _, r := range check {
		if sent[r] != g.Version {
			b.scheduleBoard(g, r)
		}
	}
}

// boardState is a game as read for drawing its boards, with the styles of users.
type boardState struct {
	g        *game.Game
	users    []int64
	styles   []game.Style
	styleErr error // reading the styles failed
	eg       *replayed
}

// replayed is the replay of a boardState's game, made once for all its boards.
type replayed struct {
	once sync.Once
	eg   *engine.Game
	err  error
}

// replay returns the replay of st's game (see replayGame); the caller must not change it.
func (st boardState) replay() (*engine.Game, error) {
	st.eg.once.Do(func() { st.eg.eg, st.eg.err = replayGame(st.g) })
	return st.eg.eg, st.eg.err
}

// readBoards reads game id and the styles of users in one round trip.
func (b *Bot) readBoards(ctx context.Context, id string, users []int64) (boardState, error) {
	g, styles, err := b.svc.GameAndStyles(ctx, id, users...)
	if g == nil {
		return boardState{}, err
	}
	return boardState{g: g, users: users, styles: styles, styleErr: err, eg: &replayed{}}, nil
}

// styleIn is the style of the board message ref of st's game (see styleOf), from the styles
// read with it when they include the user whose style the board follows (hint names the user
// expected: a game's players never change once it is played).
func (b *Bot) styleIn(ctx context.Context, st boardState, ref game.MessageRef, hint int64) game.Style {
	want, fixed := styleUser(st.g, ref)
	switch {
	case fixed:
		return game.StyleButtons
	case want == 0:
		return st.g.Style
	case want != hint:
		return b.styleOf(ctx, st.g, ref)
	}
	i := slices.Index(st.users, want)
	if i < 0 {
		return b.styleOf(ctx, st.g, ref)
	}
	if st.styleErr != nil {
		b.log.Warn("board style", "user", want, "err", b.scrub(st.styleErr))
		return st.g.Style
	}
	return st.styles[i]
}

// hasBoard reports whether ref is one of g's board messages.
func hasBoard(g *game.Game, ref game.MessageRef) bool {
	for _, r := range g.Boards {
		if r == ref {
			return true
		}
	}
	return false
}

// postBoard sends the board of g to chat as a new message and records it as the chat's board.
// The message gets its buttons only once it is recorded, so a tap never meets a board of the
// game that is not one of its boards, which a tap could not adopt (scopeTap); a process that
// stops in between leaves a board without buttons, and /board posts another.
func (b *Bot) postBoard(ctx context.Context, g *game.Game, chatID int64) error {
	ref := game.MessageRef{ChatID: chatID}
	c, err := boardContent(g, ref, 0, b.styleOf(ctx, g, ref))
	if err != nil {
		return err
	}
	var msg *models.Message
	if c.photo != nil {
		msg, err = b.sendPhoto(ctx, chatID, c.photo, c.text, nil)
	} else {
		msg, err = b.sendText(ctx, chatID, c.text, nil)
	}
	if err != nil {
		return err
	}
	ref.MessageID = msg.ID
	if _, err := b.svc.AddBoard(ctx, g.ID, ref); err != nil {
		return err
	}
	if c.kb == nil {
		return nil
	}
	// g, not the game AddBoard returns: the keyboard was drawn from g, and a move that landed
	// since must make scheduleKeyboard draw the board afresh.
	b.scheduleKeyboard(g, ref, c.kb)
	return nil
}

// scheduleKeyboard gives the board message ref, just posted without buttons from game g, the
// keyboard kb drawn with it; when a move came in the meantime it draws the board afresh.
func (b *Bot) scheduleKeyboard(g *game.Game, ref game.MessageRef, kb *models.InlineKeyboardMarkup) {
	id, moves, status := g.ID, len(g.Moves), g.Status
	b.schedule(ref, func(ctx context.Context) {
		cur, err := b.svc.Lookup(ctx, id)
		if err != nil {
			b.log.Warn("board keyboard", "game", id, "err", b.scrub(err))
			return
		}
		switch {
		case !hasBoard(cur, ref):
			return // replaced by a newer board already
		case len(cur.Moves) != moves || cur.Status != status:
			b.scheduleBoard(cur, ref) // runs after this, in the same slot
		default:
			if err := b.editMarkup(ctx, ref, kb); err != nil {
				b.log.Warn("board keyboard", "game", id, "err", b.scrub(err))
			}
		}
	})
}

// boardChats returns the chats where a new game's boards are posted.
func boardChats(g *game.Game) []int64 {
	switch g.Flow {
	case game.FlowInvite, game.FlowMatch:
		var out []int64
		for _, p := range g.Players {
			if p.ChatID != 0 {
				out = append(out, p.ChatID)
			}
		}
		return out
	case game.FlowInline:
		return nil
	}
	if g.ChatID != 0 {
		return []int64{g.ChatID}
	}
	return nil
}
