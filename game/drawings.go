package game

import (
	"context"
	"time"
)

// Drawings keeps, for each board message, the newest drawing of its game sent into it and the
// edit of it on its way, shared by every process that draws into the same messages, so that
// no process sends a message a drawing older than one already sent and none sends the
// drawing it already shows (package storage's Store implements it; gametest.Drawings keeps it
// in memory). msg names the message (the board Editor's key of it).
//
// BeginDraw is asked right before an edit is sent. Its verdict:
//   - DrawGo: the caller holds the message's lease (d.Token) for lease and the record says
//     the message shows d.Version: the caller sends its drawing unless it equals Start.Hash,
//     and then calls EndDraw, whatever became of it.
//   - DrawStale: the message shows (or is getting) a newer version of d.Game: send nothing.
//   - DrawSame: only with d.OnlyNewer: the message shows d.Version already: send nothing.
//   - DrawBusy: another edit of the message is on its way; BeginDraw noted that d.Version is
//     wanted, and that edit's EndDraw tells its holder to draw the message again.
//
// A drawing of another game than the one recorded (the message went over to a new game)
// always gets DrawGo and starts the record afresh; a lease whose holder never ends it runs
// out after lease.
//
// EndDraw ends the lease token holds, recording what became of its edit (end; hash is the
// content sent with DrawSent), and reports redraw: another edit asked for the message while
// token held it (DrawBusy), so the holder must draw it again from a fresh read. A lease that
// ran out ends nothing, but a wish left by DrawBusy is still reported when no one holds the
// message.
type Drawings interface {
	BeginDraw(ctx context.Context, msg string, d Drawing, lease time.Duration) (DrawStart, error)
	EndDraw(ctx context.Context, msg string, d Drawing, end DrawEnd, hash string) (redraw bool, err error)
}

// Drawing is one edit of a board message, as Drawings sees it.
type Drawing struct {
	Game    string // the game drawn
	Version int64  // the game's version drawn
	Token   string // names the edit: the holder of the message's lease
	// OnlyNewer asks for no edit when the message shows d.Version already, whatever its
	// content (a recheck after another process may have drawn it).
	OnlyNewer bool
	// Rewind says the store has lost the versions the message may show (a Redis failover
	// dropped the game's last writes): the drawing goes even when it is older than the one
	// the record names, and becomes what the message shows.
	Rewind bool
}

// DrawVerdict is BeginDraw's answer (see Drawings).
type DrawVerdict int

// The verdicts of BeginDraw.
const (
	DrawGo DrawVerdict = iota
	DrawBusy
	DrawStale
	DrawSame
)

func (v DrawVerdict) String() string {
	switch v {
	case DrawGo:
		return "go"
	case DrawBusy:
		return "busy"
	case DrawStale:
		return "stale"
	case DrawSame:
		return "same"
	}
	return "unknown"
}

// DrawStart is BeginDraw's answer: the verdict and, with DrawGo, Hash, the content hash of the
// drawing the message shows as far as the record knows ("" when it does not).
type DrawStart struct {
	Verdict DrawVerdict
	Hash    string
}

// DrawEnd is what became of an edit that got DrawGo.
type DrawEnd int

// What EndDraw records.
const (
	// DrawSent: the edit landed (or Telegram found it changed nothing); the message shows
	// the content of hash.
	DrawSent DrawEnd = iota
	// DrawKept: nothing was sent, the message's content was found equal to Start.Hash.
	DrawKept
	// DrawFailed: nothing is known of what the message shows now (the edit failed or was
	// not drawn); the next drawing of the version goes.
	DrawFailed
)

// DrawingsTTL is how long Drawings keep the record of a message after its last drawing: far
// longer than two edits of one message can race (an edit gives up after two 429 waits).
const DrawingsTTL = 15 * time.Minute

// MaxDrawMsg bounds the length of a message's name in Drawings.
const MaxDrawMsg = 200
