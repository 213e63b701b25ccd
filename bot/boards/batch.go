package boards

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// CheckDelay is how long after a step's board edits have landed the Editor checks that the
// game did not move on meanwhile (see batch.landed). A step of this process on the game within
// that time redraws the boards anyway and makes the check needless, which is the usual case in
// a busy game; a board left stale by another process's step stays so about this long.
const CheckDelay = 250 * time.Millisecond

// Refresh queues an edit of every board of g, drawn from the store when sent; the edits share
// one read (see batch). It returns at once.
func (e *Editor) Refresh(g *game.Game) {
	if g == nil || len(g.Boards) == 0 {
		return
	}
	bb := e.newBatch(g, g.Boards)
	for _, ref := range g.Boards {
		e.queueBoard(bb, g, ref)
	}
}

// Redraw queues an edit of the board message ref of game g and returns at once. The board is
// drawn from the store when the edit is sent, and drawn again when a 429 made it wait, so a
// board held back by the rate limit is never sent out of date; g itself only tells whose board
// style to read along with the game. A message that is no longer one of the game's boards
// when the edit starts is left alone. The edit is sent even when the drawn record
// (Options.Drawings) says the message shows that drawing already: a caller redraws a message
// whose content it changed outside the record (a keyboard edited in place) or that a tap
// showed to be behind. A drawing older than one sent is never sent.
func (e *Editor) Redraw(g *game.Game, ref game.MessageRef) {
	bb := e.newBatch(g, []game.MessageRef{ref})
	bb.force = true
	e.queueBoard(bb, g, ref)
}

// Rewind is Redraw of a board that shows versions of g the store no longer has (a Redis
// failover lost the game's last writes, game.Lost): it is drawn as the game is stored even
// though the drawn record names a newer drawing, which the store's versions will pass again.
func (e *Editor) Rewind(g *game.Game, ref game.MessageRef) {
	bb := e.newBatch(g, []game.MessageRef{ref})
	bb.force, bb.rewind = true, true
	e.queueBoard(bb, g, ref)
}

// redraw is Redraw that sends nothing the drawn record says the message shows already.
func (e *Editor) redraw(g *game.Game, ref game.MessageRef) {
	e.queueBoard(e.newBatch(g, []game.MessageRef{ref}), g, ref)
}

// ShowHint queues an edit of the board message ref of game g that shows hint, the move
// suggested to the player to move in g (game.Service.Hint), and returns at once. The board is
// drawn from the store as Redraw's is; when the game has moved on from g by then (a move, an
// undo, the end), it is drawn without the hint. The hint lasts until the board's next redraw:
// the next move's drops it.
func (e *Editor) ShowHint(g *game.Game, ref game.MessageRef, hint engine.Square) {
	bb := e.newBatch(g, []game.MessageRef{ref})
	bb.hint, bb.hintAt = hint, g.Version
	e.queueBoard(bb, g, ref)
}

// queueBoard queues the edit of the board message ref of game g as part of bb.
func (e *Editor) queueBoard(bb *batch, g *game.Game, ref game.MessageRef) {
	id := g.ID
	hint, _ := e.o.StyleUser(g, ref)
	e.queue(ref, bb.kind, func(ctx context.Context, waited bool) {
		first := true
		// drawn is the version of the game the edit sent drew (or found drawn), 0 while none
		// was; busyMark when the message was busy in the drawn record.
		var drawn int64
		var again *game.Game // the game to draw the message again from: another edit asked
		draw := func() error {
			drawn = 0
			var st state
			var err error
			if first {
				first = false
				st, err = bb.read(ctx, e, waited)
			} else {
				st, err = e.read(ctx, id, bb.users)
			}
			if err != nil {
				if errors.Is(err, game.ErrNotFound) {
					return nil
				}
				return err
			}
			if !Has(st.g, ref) {
				return nil // the message was replaced by a newer board
			}
			// The record first: a drawing older than the message shows, or one it shows
			// already, is not even drawn.
			turn, ok := e.begin(ctx, ref, id, st.g.Version, bb.mode())
			if !ok {
				if turn.start.Verdict == game.DrawBusy {
					drawn = busyMark
				}
				return nil
			}
			var eg *engine.Game // a lobby is not replayed
			if st.g.Status != game.StatusLobby {
				if eg, err = st.replay(); err != nil {
					turn.end(game.DrawFailed, "")
					e.log.Error("edit: draw", "game", id, "err", err)
					return nil
				}
			}
			shown := engine.Pass
			if st.g.Version == bb.hintAt {
				shown = bb.hint
			}
			c, err := e.o.Content(st.g, eg, ref, e.styleIn(ctx, st, ref, hint), shown)
			if err != nil {
				turn.end(game.DrawFailed, "")
				e.log.Error("edit: draw", "game", id, "err", err)
				return nil
			}
			drawn = st.g.Version
			h := contentHash(c)
			if !bb.force && turn.same(h) {
				if turn.end(game.DrawKept, h) {
					again = st.g
				}
				return nil
			}
			sctx, cancel := turn.sendContext(ctx)
			err = edit(sctx, e.o.Once, ref, c)
			cancel()
			end := game.DrawSent
			if err != nil {
				end = game.DrawFailed
			}
			if turn.end(end, h) {
				again = st.g
			}
			return err
		}
		if err := e.o.API.Retry(ctx, draw); err != nil {
			e.log.Warn("edit", "game", id, "err", err)
		}
		if again != nil {
			e.redraw(again, ref) // runs next in this message's queue
		}
		bb.landed(e, ref, drawn)
	})
}

// busyMark is the version a batch records for a board whose edit found the message busy in
// the drawn record: its recheck draws it again unless the record shows the game's version.
const busyMark = -1

// batch is the edits of a game's boards that one step asks for. Each is drawn from the store
// when it is sent; they share one read (and its replay) when they can: an edit that starts
// without having waited for an earlier edit of its message (the usual case: they are
// scheduled together) takes the batch's read, the one on its way or the one made, and so does
// any edit that starts while the read is on its way. An edit that waited and starts after the
// read is over reads again: the store may have moved on since.
//
// Another process may draw a newer state of the game into the same messages at the same time,
// and an edit of ours that drew an older state may land after it. So when the last of the
// batch's edits has landed, the batch reads the game's version once more and draws again every
// board whose edit drew an older one (see landed).
type batch struct {
	id    string
	refs  []game.MessageRef
	users []int64         // whose styles the batch's boards follow, as far as the step's game tells
	kind  botapi.PaceKind // what the boards are to the players (see Kind), as of the step
	// hint is the move the boards show as suggested (ShowHint) while the game is at version
	// hintAt; engine.Pass (the zero Square is a1) when they show none.
	hint   engine.Square
	hintAt int64
	// newer makes the edits draw only what the messages do not show yet, by the drawn
	// record (game.Drawing.OnlyNewer): a recheck's.
	newer bool
	// force sends the drawing even when the drawn record says the message shows it (Redraw).
	force bool
	// rewind sends it even when the record says the message shows a newer one (Rewind).
	rewind bool

	mu    sync.Mutex
	phase int           // batchIdle, batchReading or batchDone
	done  chan struct{} // closed when the read is done
	st    state
	err   error

	left  int                       // edits not yet landed (or given up)
	drawn map[game.MessageRef]int64 // the game version each sent edit drew
}

// The phases of a batch's read.
const (
	batchIdle = iota
	batchReading
	batchDone
)

// newBatch returns the batch of the edits of refs of game g, the newest of those boards.
func (e *Editor) newBatch(g *game.Game, refs []game.MessageRef) *batch {
	bb := &batch{id: g.ID, refs: refs, done: make(chan struct{}), left: len(refs), kind: botapi.PaceBoard,
		hint: engine.Pass}
	if e.o.Pacer != nil {
		bb.kind = Kind(g)
	}
	for _, ref := range refs {
		if u, fixed := e.o.StyleUser(g, ref); !fixed && u != 0 && !slices.Contains(bb.users, u) {
			bb.users = append(bb.users, u)
		}
	}
	e.mu.Lock()
	for _, ref := range refs {
		e.latest[key(ref)] = bb
	}
	e.mu.Unlock()
	return bb
}

// read returns the batch's read for an edit (waited: see batch): the one on its way, or a new
// one when there is none yet; once the read is over, that read again, or a read of the edit's
// own when it waited.
func (bb *batch) read(ctx context.Context, e *Editor, waited bool) (state, error) {
	bb.mu.Lock()
	switch bb.phase {
	case batchIdle:
		bb.phase = batchReading
		bb.mu.Unlock()
		bb.err = errors.New("boards: board read failed") // unless it returns
		defer func() {
			bb.mu.Lock()
			bb.phase = batchDone
			bb.mu.Unlock()
			close(bb.done) // also on a panic, so that no edit waits for ever
		}()
		bb.st, bb.err = e.read(ctx, bb.id, bb.users)
		return bb.st, bb.err
	case batchReading:
		bb.mu.Unlock()
		select {
		case <-bb.done:
			return bb.st, bb.err
		case <-ctx.Done():
			return state{}, ctx.Err()
		}
	}
	bb.mu.Unlock()
	if !waited {
		return bb.st, bb.err
	}
	return e.read(ctx, bb.id, bb.users)
}

// landed records that the edit of ref is over, having drawn version drawn of the game (0 when
// it sent nothing). After the batch's last edit, once CheckDelay has passed, it checks that
// the game is still at the versions drawn and queues a new edit of each board drawn from an
// older one. A game that cannot be read is left alone: its next step draws its boards.
func (bb *batch) landed(e *Editor, ref game.MessageRef, drawn int64) {
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
		e.release(bb)
		return
	}
	e.work.Add(1)
	e.after(CheckDelay, func() {
		defer e.work.Done()
		// A board that a newer batch has drawn since is that batch's to check.
		owned := e.release(bb)
		if len(owned) == 0 || e.base.Err() != nil {
			return
		}
		ctx, cancel := context.WithTimeout(e.base, checkTimeout)
		defer cancel()
		bb.check(ctx, e, owned, sent)
	})
}

// release drops bb as the newest batch of its boards and returns the boards it was that of.
func (e *Editor) release(bb *batch) []game.MessageRef {
	e.mu.Lock()
	defer e.mu.Unlock()
	var owned []game.MessageRef
	for _, r := range bb.refs {
		if k := key(r); e.latest[k] == bb {
			delete(e.latest, k)
			owned = append(owned, r)
		}
	}
	return owned
}

// check reads the game's version and queues a new edit of each board of refs whose edit drew
// an older one (sent: the version each edit sent drew).
func (bb *batch) check(ctx context.Context, e *Editor, refs []game.MessageRef, sent map[game.MessageRef]int64) {
	// Boards with a newer edit waiting here need no check: that edit reads the store.
	var check []game.MessageRef
	for _, r := range refs {
		if _, ok := sent[r]; ok && !e.waiting(r) {
			check = append(check, r)
		}
	}
	if len(check) == 0 {
		return
	}
	g, err := e.o.Reader.Lookup(ctx, bb.id)
	if err != nil {
		return
	}
	for _, r := range check {
		if sent[r] != g.Version {
			nb := e.newBatch(g, []game.MessageRef{r})
			// A hint that found its message busy is drawn still, while the game is where
			// it was asked in.
			nb.hint, nb.hintAt = bb.hint, bb.hintAt
			nb.newer = bb.hint == engine.Pass || g.Version != bb.hintAt
			if sent[r] == busyMark {
				// A redraw that found its message busy asks again as it asked: a rewind
				// above all, since the record it met may be as old as the store (a Redis
				// failover rolled both back) and say the message shows what it does not.
				nb.force, nb.rewind = bb.force, bb.rewind
			}
			e.queueBoard(nb, g, r)
		}
	}
}

// Kind is what a board of g is to its players when the flood limits hold it back:
// botapi.PaceTurn while a person is to move in g (they wait for the board), else
// botapi.PaceBoard (the AI is to move, or the game is a lobby or over).
func Kind(g *game.Game) botapi.PaceKind {
	if g.Status != game.StatusPlaying {
		return botapi.PaceBoard
	}
	if g.AILevel == 0 {
		return botapi.PaceTurn // two people: one of them is to move
	}
	eg, err := engine.ReplayBytes(g.Size, g.Moves)
	if err != nil || eg.Over() {
		return botapi.PaceBoard
	}
	if g.Players[eg.Position().Side()].UserID != 0 {
		return botapi.PaceTurn
	}
	return botapi.PaceBoard
}

// state is a game as read for drawing its boards, with the styles of users.
type state struct {
	g        *game.Game
	users    []int64
	styles   []game.Style
	styleErr error // reading the styles failed
	eg       *replayed
}

// replayed is the replay of a state's game, made once for all its boards.
type replayed struct {
	once sync.Once
	eg   *engine.Game
	err  error
}

// replay returns the replay of st's game (passes inserted, see engine.ReplayBytes); the
// caller must not change it.
func (st state) replay() (*engine.Game, error) {
	st.eg.once.Do(func() { st.eg.eg, st.eg.err = engine.ReplayBytes(st.g.Size, st.g.Moves) })
	return st.eg.eg, st.eg.err
}

// read reads game id and the styles of users in one round trip.
func (e *Editor) read(ctx context.Context, id string, users []int64) (state, error) {
	g, styles, err := e.o.Reader.GameAndStyles(ctx, id, users...)
	if g == nil {
		return state{}, err
	}
	return state{g: g, users: users, styles: styles, styleErr: err, eg: &replayed{}}, nil
}

// styleIn is the style of the board message ref of st's game (see Options.StyleUser), from the
// styles read with it when they include the user whose style the board follows (hint names
// the user expected: a game's players never change once it is played), else read on its own
// (Options.StyleOf).
func (e *Editor) styleIn(ctx context.Context, st state, ref game.MessageRef, hint int64) game.Style {
	want, fixed := e.o.StyleUser(st.g, ref)
	switch {
	case fixed:
		return game.StyleButtons
	case want == 0:
		return st.g.Style
	case want != hint:
		return e.o.StyleOf(ctx, st.g, ref)
	}
	i := slices.Index(st.users, want)
	if i < 0 {
		return e.o.StyleOf(ctx, st.g, ref)
	}
	if st.styleErr != nil {
		e.styleWarn.log(e.log, "board style: the game's used", "user", want, "err", st.styleErr)
		return st.g.Style
	}
	return st.styles[i]
}

// mode is how bb's edits ask the drawn record.
func (bb *batch) mode() drawMode {
	switch {
	case bb.rewind:
		return rewind
	case bb.newer:
		return onlyNewer
	}
	return plainDraw
}
