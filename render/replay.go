package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	"github.com/reversibot/reversi/engine"
)

// ErrNoGame is returned by Replay for a nil game or the zero engine.Game.
var ErrNoGame = errors.New("render: no game to replay")

// ErrReplayOptions is returned by Replay for options out of range.
var ErrReplayOptions = errors.New("render: invalid replay options")

// ReplayOptions tunes Replay. The zero value gives the defaults, chosen for a phone.
type ReplayOptions struct {
	// Shrink divides the width and height of the board picture (Image, about 880 pixels):
	// 1 keeps it, 2 halves it, up to MaxShrink. 0 picks 2 for boards up to 10×10, whose cells
	// stay 40 pixels or more, and 1 for the larger ones.
	Shrink int
	// MoveDelay is how long a move shows: its disc is placed, and flips MoveDelay·2/5 later.
	// 0 means 700 ms. A pass holds the picture before it another MoveDelay.
	MoveDelay time.Duration
	// StartDelay is how long the start position shows; 0 means 2 s.
	StartDelay time.Duration
	// EndDelay is how long the final position shows before the animation starts again; 0
	// means 3 s.
	EndDelay time.Duration
}

// MaxShrink is the largest ReplayOptions.Shrink.
const MaxShrink = 4

// The defaults of ReplayOptions, and the longest delay a GIF frame can hold (in hundredths of
// a second, 16 bits).
const (
	defaultMoveDelay  = 700 * time.Millisecond
	defaultStartDelay = 2 * time.Second
	defaultEndDelay   = 3 * time.Second
	maxFrameDelay     = 65535 * 10 * time.Millisecond
	// minFrameDelay is the shortest delay a frame gets: browsers show anything shorter than
	// two hundredths of a second for a tenth.
	minFrameDelay = 2
	// shrinkCellPixels is the least cell size that the default Shrink keeps.
	shrinkCellPixels = 40
)

// replayImage is how a replay draws each moment: the last move and its flips marked, no hints.
var replayImage = ImageOptions{Flipped: true, HideHints: true}

// replayPalette is the board picture's palette without the labels' colours (a replay shows no
// hints) and one transparent colour, which a frame uses for the pixels it leaves as they were.
// Every frame shares it, so the GIF carries it once.
var (
	replayPalette     = append(palette[:basicEntries+hintEntries:basicEntries+hintEntries], color.NRGBA{})
	replayTransparent = uint8(basicEntries + hintEntries)
)

// Replay returns an animated GIF of g from its start position to its current one, looping
// forever. The first frame is the picture of the start (Image of ViewOf a game with no moves,
// with ImageOptions{Flipped: true, HideHints: true}, shrunk by opt.Shrink); then each disc
// placed takes two frames: the disc appears, marked as the last move, with rings on the discs
// it will flip, then they flip (the picture of the game after the move: ViewOf). So a replay
// has 1 + 2·Ply frames (engine.Game.Ply; passes add none, only time), and its last frame is
// the picture of ViewOf(g). Every frame after the first holds only the rectangle that changed,
// with the unchanged pixels in it transparent, over the frames before (disposal none); all
// share one palette. A full 8×8 game (60 moves, 441 pixels square) comes to about 250 KB, a
// 16×16 one (about 250 moves, 882 pixels) to about 1.3 MB. Errors: ErrNoGame, ErrSize and
// ErrReplayOptions for options out of range.
func Replay(g *engine.Game, opt ReplayOptions) ([]byte, error) {
	var buf bytes.Buffer
	if err := EncodeReplay(&buf, g, opt); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// EncodeReplay writes the GIF of Replay to w.
func EncodeReplay(w io.Writer, g *engine.Game, opt ReplayOptions) error {
	start, ok := startOf(g)
	if !ok {
		return ErrNoGame
	}
	n := start.Size()
	if !engine.ValidSize(n) {
		return fmt.Errorf("%w: %d", ErrSize, n)
	}
	opt, err := opt.withDefaults(n)
	if err != nil {
		return err
	}
	steps, err := replaySteps(g, start, opt)
	if err != nil {
		return err
	}
	anim := newAnimator(assetsFor(n), opt.Shrink)
	out := &gif.GIF{
		Image:    make([]*image.Paletted, len(steps)),
		Delay:    make([]int, len(steps)),
		Disposal: make([]byte, len(steps)),
		Config:   image.Config{ColorModel: color.Palette(replayPalette), Width: anim.shown.Rect.Dx(), Height: anim.shown.Rect.Dy()},
	}
	for i, s := range steps {
		out.Image[i] = anim.frame(s.view, i == 0)
		out.Delay[i] = s.delay
		out.Disposal[i] = gif.DisposalNone
	}
	return gif.EncodeAll(w, out)
}

// startOf returns the start position of g; ok is false for nil and for the zero engine.Game,
// whose Start panics (the engine documents it as unusable; nothing else tells it apart).
func startOf(g *engine.Game) (p engine.Position, ok bool) {
	if g == nil {
		return engine.Position{}, false
	}
	defer func() {
		if recover() != nil {
			p, ok = engine.Position{}, false
		}
	}()
	return g.Start(), true
}

// withDefaults checks opt and fills in the defaults for a board of size n.
func (opt ReplayOptions) withDefaults(n int) (ReplayOptions, error) {
	if opt.Shrink < 0 || opt.Shrink > MaxShrink {
		return opt, fmt.Errorf("%w: Shrink %d (want 0…%d)", ErrReplayOptions, opt.Shrink, MaxShrink)
	}
	if opt.Shrink == 0 {
		opt.Shrink = 1
		if layoutFor(n).cell/2 >= shrinkCellPixels {
			opt.Shrink = 2
		}
	}
	for _, d := range []struct {
		name string
		d    *time.Duration
		def  time.Duration
	}{
		{"MoveDelay", &opt.MoveDelay, defaultMoveDelay},
		{"StartDelay", &opt.StartDelay, defaultStartDelay},
		{"EndDelay", &opt.EndDelay, defaultEndDelay},
	} {
		if *d.d < 0 || *d.d > maxFrameDelay {
			return opt, fmt.Errorf("%w: %s %v (want 0…%v)", ErrReplayOptions, d.name, *d.d, maxFrameDelay)
		}
		if *d.d == 0 {
			*d.d = d.def
		}
	}
	return opt, nil
}

// centis is d in hundredths of a second, at least minFrameDelay and at most what a GIF holds.
func centis(d time.Duration) int {
	return min(max(int(d/(10*time.Millisecond)), minFrameDelay), 65535)
}

// replayStep is one frame of a replay: the moment it shows and for how long, in hundredths of
// a second.
type replayStep struct {
	view  View
	delay int
}

// replaySteps plays g again from start and returns the moments its replay shows (see Replay).
func replaySteps(g *engine.Game, start engine.Position, opt ReplayOptions) ([]replayStep, error) {
	moves := g.Moves()
	steps := make([]replayStep, 1, 1+2*g.Ply())
	steps[0] = replayStep{view: NewView(start), delay: centis(opt.StartDelay)}
	placedDelay := opt.MoveDelay * 2 / 5
	flipDelay := opt.MoveDelay - placedDelay
	pass := centis(opt.MoveDelay)
	again := engine.NewGameFrom(start)
	for i, m := range moves {
		before := again.Position()
		flipped, err := again.Play(m)
		if err != nil {
			return nil, fmt.Errorf("render: replay of move %d (%v): %w", i+1, m, err)
		}
		if m == engine.Pass {
			last := &steps[len(steps)-1]
			last.delay = min(last.delay+pass, 65535)
			continue
		}
		after := ViewOf(again)
		placed, err := placedView(before, m, flipped, after)
		if err != nil {
			return nil, err
		}
		steps = append(steps,
			replayStep{view: placed, delay: centis(placedDelay)},
			replayStep{view: after, delay: centis(flipDelay)})
	}
	if len(steps) > 1 {
		steps[len(steps)-1].delay = centis(opt.EndDelay)
	} else {
		steps[0].delay = centis(max(opt.StartDelay, opt.EndDelay))
	}
	return steps, nil
}

// placedView is the moment between before and after (the View after sq was played): the disc
// on sq, marked as the last move, and the discs it flips (flipped) not yet turned, ringed.
func placedView(before engine.Position, sq engine.Square, flipped engine.Set, after View) (View, error) {
	n := before.Size()
	text := []byte(before.BoardText())
	text[sq.Row()*n+sq.Col()] = before.Side().Symbol()
	p, err := engine.ParseBoard(string(text), before.Side().Opponent())
	if err != nil {
		return View{}, fmt.Errorf("render: replay at %v: %w", sq, err)
	}
	return View{Position: p, Last: sq, LastBy: before.Side(), Flipped: flipped, Run: after.Run, Ply: after.Ply}, nil
}
