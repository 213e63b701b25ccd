package storage

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/reversibot/reversi/game"
)

// The binary game format, version 1. The first nine bytes never move, because the
// compare-and-set script reads them:
//
//	[0]     format version (1)
//	[1:5]   Version, uint32 big endian
//	[5:9]   write nonce: random per UpdateGame call, so a retried call is told from a racer
//	        with identical content (EncodeGame writes zeros; decoding ignores it)
//	[9]     Size
//	[10]    Flow | Status<<4
//	[11]    Outcome | Reason<<4
//	[12]    CreatorColor as int8
//	        uvarint AILevel
//	        2 × player: varint UserID, string Name, varint ChatID, string Lang
//	        varint ChatID, string InlineID, string Lang
//	        uvarint len(Boards), each: varint ChatID, varint MessageID, string InlineID
//	        varint Created (unix seconds, 0 = zero time), varint Updated-Created (seconds)
//	        uvarint len(Moves), Moves
//
// Version 2 is version 1 followed by: varint LastMoveAt (unix seconds, 0 = zero time), one
// byte Style. EncodeGame writes version 1 when both are zero, so games that do not use
// them encode as they always did, and version 1 records still decode (with both zero).
//
// Version 3 is version 2 followed by what the end of a game leaves: one byte Rating.Rated
// (0 or 1) and, when 1, varint Rating.Before[0], After[0], Before[1], After[1]; one byte
// Rematch, varint RematchBy, varint RematchAt (unix seconds, 0 = zero time). EncodeGame writes
// version 3 only for a game with a rating change or a rematch offer, so that older records
// and games without them encode as before.
//
// A string is a uvarint length and that many bytes. The ID is not stored: it is the key.
const (
	gameFormat    = 1
	gameFormat2   = 2 // gameFormat with LastMoveAt and Style appended
	gameFormat3   = 3 // gameFormat2 with the rating change and the rematch offer appended
	waiterFormat  = 1
	waiterFormat2 = 2 // waiterFormat with MsgID appended
	gameHeaderLen = 13
	maxString     = 1024 // bytes in one string field
	maxBoards     = 32   // messages showing one board
	maxVersion    = 1<<32 - 1
	minSize       = 4
	maxSize       = 16
	maxUnix       = 1 << 40 // seconds; timestamps must lie in 1970…36812
	maxRating     = 1 << 31 // ratings must lie within ±maxRating
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", game.ErrInvalid, fmt.Sprintf(format, args...))
}

// EncodeGame encodes g (all fields but ID) in the store's compact, versioned format.
// It fails with ErrInvalid for a game the store would not keep: a size that is not even
// and within 4…16, a move off the board, more moves than squares, an unknown enum value,
// a Version outside 0…2³²-1, or an over-long string.
func EncodeGame(g *game.Game) ([]byte, error) {
	if err := validate(g); err != nil {
		return nil, err
	}
	n := gameHeaderLen + 5*binary.MaxVarintLen64 + 1 + len(g.Moves) + len(g.InlineID) + len(g.Lang)
	for _, p := range g.Players {
		n += 2*binary.MaxVarintLen64 + len(p.Name) + len(p.Lang) + 4
	}
	for _, b := range g.Boards {
		n += 2*binary.MaxVarintLen64 + len(b.InlineID) + 2
	}
	buf := make([]byte, gameHeaderLen, n)
	buf[0] = gameFormat
	binary.BigEndian.PutUint32(buf[1:5], uint32(g.Version))
	buf[9] = byte(g.Size)
	buf[10] = byte(g.Flow) | byte(g.Status)<<4
	buf[11] = byte(g.Outcome) | byte(g.Reason)<<4
	buf[12] = byte(g.CreatorColor)
	buf = binary.AppendUvarint(buf, uint64(g.AILevel))
	for _, p := range g.Players {
		buf = binary.AppendVarint(buf, p.UserID)
		buf = appendString(buf, p.Name)
		buf = binary.AppendVarint(buf, p.ChatID)
		buf = appendString(buf, p.Lang)
	}
	buf = binary.AppendVarint(buf, g.ChatID)
	buf = appendString(buf, g.InlineID)
	buf = appendString(buf, g.Lang)
	buf = binary.AppendUvarint(buf, uint64(len(g.Boards)))
	for _, b := range g.Boards {
		buf = binary.AppendVarint(buf, b.ChatID)
		buf = binary.AppendVarint(buf, int64(b.MessageID))
		buf = appendString(buf, b.InlineID)
	}
	created, updated := unixOrZero(g.Created), unixOrZero(g.Updated)
	buf = binary.AppendVarint(buf, created)
	buf = binary.AppendVarint(buf, updated-created)
	buf = binary.AppendUvarint(buf, uint64(len(g.Moves)))
	buf = append(buf, g.Moves...)
	ended := g.Rating.Rated || g.Rematch != game.RematchNone || g.RematchBy != 0 || !g.RematchAt.IsZero()
	if last := unixOrZero(g.LastMoveAt); last != 0 || g.Style != game.StyleButtons || ended {
		buf[0] = gameFormat2
		buf = binary.AppendVarint(buf, last)
		buf = append(buf, byte(g.Style))
	}
	if ended {
		buf[0] = gameFormat3
		if g.Rating.Rated {
			buf = append(buf, 1)
			for i := range 2 {
				buf = binary.AppendVarint(buf, int64(g.Rating.Before[i]))
				buf = binary.AppendVarint(buf, int64(g.Rating.After[i]))
			}
		} else {
			buf = append(buf, 0)
		}
		buf = append(buf, byte(g.Rematch))
		buf = binary.AppendVarint(buf, g.RematchBy)
		buf = binary.AppendVarint(buf, unixOrZero(g.RematchAt))
	}
	return buf, nil
}

func validate(g *game.Game) error {
	switch {
	case g.Size < minSize || g.Size > maxSize || g.Size%2 != 0:
		return invalidf("board size %d", g.Size)
	case g.Version < 0 || g.Version > maxVersion:
		return invalidf("version %d", g.Version)
	case !g.Flow.Valid() || !g.Status.Valid() || !game.ValidOutcome(g.Outcome) || !game.ValidReason(g.Reason) ||
		!g.Style.Valid() || !g.Rematch.Valid():
		return invalidf("enum value out of range")
	case !g.Rating.Rated && g.Rating != (game.RatingChange{}):
		return invalidf("ratings of an unrated game")
	case g.CreatorColor < -1 || g.CreatorColor > 1:
		return invalidf("creator colour %d", g.CreatorColor)
	case g.AILevel < 0 || g.AILevel > 255:
		return invalidf("AI level %d", g.AILevel)
	case len(g.Boards) > maxBoards:
		return invalidf("%d board messages", len(g.Boards))
	}
	for _, r := range [...]int{g.Rating.Before[0], g.Rating.Before[1], g.Rating.After[0], g.Rating.After[1]} {
		if r < -maxRating || r > maxRating {
			return invalidf("rating %d", r)
		}
	}
	for _, t := range []time.Time{g.Created, g.Updated, g.LastMoveAt, g.RematchAt} {
		if s := unixOrZero(t); s < 0 || s > maxUnix {
			return invalidf("timestamp %v", t)
		}
	}
	if err := checkMoves(g.Moves, g.Size); err != nil {
		return err
	}
	strs := []string{g.InlineID, g.Lang, g.Players[0].Name, g.Players[0].Lang, g.Players[1].Name, g.Players[1].Lang}
	for _, b := range g.Boards {
		if int64(b.MessageID) != int64(int32(b.MessageID)) {
			return invalidf("message id %d", b.MessageID)
		}
		strs = append(strs, b.InlineID)
	}
	for _, s := range strs {
		if len(s) > maxString {
			return invalidf("string of %d bytes", len(s))
		}
	}
	return nil
}

func checkMoves(moves []byte, size int) error {
	if len(moves) > size*size {
		return invalidf("%d moves on %d×%d", len(moves), size, size)
	}
	for i, m := range moves {
		if int(m>>4) >= size || int(m&15) >= size {
			return invalidf("move %d (%#02x) off the %d×%d board", i, m, size, size)
		}
	}
	return nil
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func timeOrZero(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// DecodeGame decodes data written by EncodeGame into g, leaving g.ID as it was.
// Any input that EncodeGame could not have produced (unknown format, truncated, trailing
// bytes, values out of range) yields an error wrapping ErrInvalid; it never panics.
func DecodeGame(g *game.Game, data []byte) error {
	if len(data) < gameHeaderLen {
		return invalidf("game record of %d bytes", len(data))
	}
	if data[0] != gameFormat && data[0] != gameFormat2 && data[0] != gameFormat3 {
		return invalidf("game format %d", data[0])
	}
	var out game.Game
	out.ID = g.ID
	out.Version = int64(binary.BigEndian.Uint32(data[1:5]))
	out.Size = int(data[9])
	out.Flow, out.Status = game.Flow(data[10]&15), game.Status(data[10]>>4)
	out.Outcome, out.Reason = game.Outcome(data[11]&15), game.EndReason(data[11]>>4)
	out.CreatorColor = int8(data[12])
	r := reader{b: data[gameHeaderLen:]}
	out.AILevel = int(r.uvarint(255))
	for i := range out.Players {
		p := &out.Players[i]
		p.UserID = r.varint()
		p.Name = r.str()
		p.ChatID = r.varint()
		p.Lang = r.str()
	}
	out.ChatID = r.varint()
	out.InlineID = r.str()
	out.Lang = r.str()
	if nb := int(r.uvarint(maxBoards)); nb > 0 {
		out.Boards = make([]game.MessageRef, 0, min(nb, len(r.b)))
		for range nb {
			var b game.MessageRef
			b.ChatID = r.varint()
			mid := r.varint()
			if mid != int64(int32(mid)) {
				r.fail("message id")
			}
			b.MessageID = int(mid)
			b.InlineID = r.str()
			out.Boards = append(out.Boards, b)
		}
	}
	created := r.varint()
	updated := created + r.varint()
	if created < 0 || created > maxUnix || updated < 0 || updated > maxUnix {
		r.fail("timestamp")
	}
	out.Created, out.Updated = timeOrZero(created), timeOrZero(updated)
	nm := int(r.uvarint(maxSize * maxSize))
	out.Moves = r.bytes(nm)
	if data[0] >= gameFormat2 {
		last := r.varint()
		if last < 0 || last > maxUnix {
			r.fail("timestamp")
		}
		out.LastMoveAt = timeOrZero(last)
		if st := r.bytes(1); len(st) == 1 {
			out.Style = game.Style(st[0])
		}
	}
	if data[0] == gameFormat3 {
		switch rated := r.bytes(1); {
		case len(rated) == 1 && rated[0] == 1:
			out.Rating.Rated = true
			for i := range 2 {
				out.Rating.Before[i] = int(r.varint())
				out.Rating.After[i] = int(r.varint())
			}
		case len(rated) == 1 && rated[0] != 0:
			r.fail("rating flag")
		}
		if st := r.bytes(1); len(st) == 1 {
			out.Rematch = game.RematchState(st[0])
		}
		out.RematchBy = r.varint()
		at := r.varint()
		if at < 0 || at > maxUnix {
			r.fail("timestamp")
		}
		out.RematchAt = timeOrZero(at)
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return invalidf("%d trailing bytes in game record", len(r.b))
	}
	if err := validate(&out); err != nil {
		return err
	}
	*g = out
	return nil
}

// reader decodes the primitives of the format; after the first error every read returns
// a zero value and err keeps that first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = invalidf("bad %s", what)
	}
	r.b = nil
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) uvarint(limit uint64) uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > limit {
		r.fail("length or count")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n int) []byte {
	if n > len(r.b) {
		r.fail("length")
		return nil
	}
	out := append([]byte(nil), r.b[:n]...)
	r.b = r.b[n:]
	return out
}

func (r *reader) str() string {
	n := int(r.uvarint(maxString))
	if n > len(r.b) {
		r.fail("string")
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// encodeWaiter encodes w as: format byte, varint UserID, varint ChatID, string Name, string Lang,
// and, in format 2 (written when MsgID is set), varint MsgID.
func encodeWaiter(w game.Waiter) ([]byte, error) {
	if len(w.Name) > maxString || len(w.Lang) > maxString {
		return nil, invalidf("waiter string too long")
	}
	if w.MsgID < 0 || w.MsgID > math.MaxInt32 {
		return nil, invalidf("waiter message id")
	}
	buf := make([]byte, 0, 1+3*binary.MaxVarintLen64+4+len(w.Name)+len(w.Lang))
	format := byte(waiterFormat)
	if w.MsgID != 0 {
		format = waiterFormat2
	}
	buf = append(buf, format)
	buf = binary.AppendVarint(buf, w.UserID)
	buf = binary.AppendVarint(buf, w.ChatID)
	buf = appendString(buf, w.Name)
	buf = appendString(buf, w.Lang)
	if format == waiterFormat2 {
		buf = binary.AppendVarint(buf, int64(w.MsgID))
	}
	return buf, nil
}

// decodeWaiter decodes what encodeWaiter wrote (either format); garbage yields an error
// wrapping ErrInvalid.
func decodeWaiter(data []byte) (game.Waiter, error) {
	if len(data) < 1 || data[0] != waiterFormat && data[0] != waiterFormat2 {
		return game.Waiter{}, invalidf("waiter format")
	}
	r := reader{b: data[1:]}
	w := game.Waiter{UserID: r.varint(), ChatID: r.varint(), Name: r.str(), Lang: r.str()}
	if data[0] == waiterFormat2 {
		id := r.varint()
		if r.err == nil && id <= 0 || id > math.MaxInt32 {
			return game.Waiter{}, invalidf("waiter message id")
		}
		w.MsgID = int(id)
	}
	if r.err != nil {
		return game.Waiter{}, r.err
	}
	if len(r.b) != 0 {
		return game.Waiter{}, invalidf("trailing bytes in waiter")
	}
	return w, nil
}
