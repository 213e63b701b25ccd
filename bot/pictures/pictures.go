// Package pictures draws and serves the bot's pictures: the boards' pictures that inline
// messages show (Pictures.Handler), the inline results' thumbnails (Pictures.Thumbnails),
// and, on the same few drawing workers, the replays and review charts of finished games
// (Pictures.DrawIdle). It knows the games through Games and nothing of Telegram's.
package pictures

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"image"
	"image/jpeg"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// An inline message cannot take an upload: editMessageMedia takes a picture there only by
// file_id or by a URL Telegram fetches. So with a public address (Options.PublicURL) the bot
// serves the picture of every position of its games at an address nobody can guess
// (Pictures.Handler): it names the game, the ply and a MAC, keyed by the bot token, of the
// moves up to that ply, so the address always shows the one position it was made for (an
// undone move makes it a 404, never another picture), and an invitation to a large board is
// posted as the picture of the starting board. Pictures are JPEG, the format Telegram asks of
// inline photo results.
//
// Every address is drawn by the drawing workers (draw.go), at most Options.Workers at once
// whatever the requests, and kept within Options.CacheBytes. An address the
// bot did not make costs a parse, or a parse and one store read, and is never drawn; two
// requests for one address in flight share one drawing.

// Path is the path under Options.PublicURL where Pictures.Handler serves the pictures:
// Path + "start/SIZE.jpg" the starting board of a size, Path + "GAME/PLY-MAC.jpg"
// the position of a game after PLY moves.
const Path = "/pic/"

// pictureLabel is what the bot token signs to make the pictures' key.
const pictureLabel = "reversibot board picture MAC v1"

// pictureMACLen is the length of a picture address's MAC: 16 base64url characters, 96 bits.
const pictureMACLen = 16

// pictureRetryAfter is the Retry-After, in seconds, of a picture request refused because the
// drawing workers are busy.
const pictureRetryAfter = "1"

// pictureQuality is the JPEG quality of the pictures: the board's flat colours and its
// labels stay crisp at it.
const pictureQuality = 90

// pictures draws and keeps the pictures the bot serves.
type pictures struct {
	key   []byte
	cache *pictureCache // the pictures drawn, so that fetching an address again costs no drawing
	draw  *drawer

	mu       sync.Mutex
	inflight map[string]*pictureCall // the names being drawn
}

// pictureCall is a drawing of one name, which other requests for it wait for.
type pictureCall struct {
	done chan struct{}
	data []byte // set before done is closed, nil on failure
	err  error
}

// newPictures returns the pictures keyed by the bot token, kept within cacheBytes and drawn
// by draw.
func newPictures(token string, cacheBytes int64, draw *drawer) *pictures {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte(pictureLabel))
	return &pictures{key: m.Sum(nil), cache: newPictureCache(cacheBytes), draw: draw,
		inflight: map[string]*pictureCall{}}
}

// mac is the MAC of the position of game id after the moves (the stored bytes of its first
// plies).
func (p *pictures) mac(id string, moves []byte) string {
	m := hmac.New(sha256.New, p.key)
	m.Write([]byte(id))
	m.Write([]byte{'/'})
	m.Write([]byte(hex.EncodeToString(moves)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:pictureMACLen]
}

// name is the path under Path of the picture of g after its first ply moves.
func (p *pictures) name(g *game.Game, ply int) string {
	return g.ID + "/" + strconv.Itoa(ply) + "-" + p.mac(g.ID, g.Moves[:ply]) + ".jpg"
}

// Games gives the games whose positions the pictures show (game.Service does).
type Games interface {
	Game(ctx context.Context, id string) (*game.Snapshot, error)
}

// Options configures Pictures.
type Options struct {
	// Token is the bot's token: it keys the pictures' addresses.
	Token string
	// PublicURL is the public base URL (https://host[/prefix]) under which Handler and
	// Thumbnails are mounted, without a trailing slash; "" means no addresses.
	PublicURL string
	// Games gives the games; required.
	Games Games
	// Logger gets the failures; nil discards.
	Logger *slog.Logger
	// Redact returns an error's text without secrets, for the log; nil means err.Error.
	Redact func(error) string
	// Workers bounds the drawings at once; 0 means DefaultWorkers.
	Workers int
	// OnDraw, when not nil, is called on a drawing worker's goroutine before each drawing.
	OnDraw func()
	// CacheBytes bounds the bytes of the drawn pictures kept; 0 means DefaultCache.
	CacheBytes int64
}

// Pictures serves the boards' pictures (Handler) and the inline results' thumbnails
// (Thumbnails), makes their addresses (URL, StartURL, ThumbnailURL), and draws the pictures,
// the replays and the review charts (DrawIdle) on its drawing workers, which run from Start
// to Stop. Its zero value is not usable: see New.
type Pictures struct {
	publicURL string
	games     Games
	log       *slog.Logger
	redact    func(error) string
	pics      *pictures
	draw      *drawer
	thumbs    thumbnails // the inline results' thumbnails, drawn once
}

// New returns the Pictures of o; no worker runs before Start.
func New(o Options) *Pictures {
	workers, cache := o.Workers, o.CacheBytes
	if workers <= 0 {
		workers = DefaultWorkers()
	}
	if cache <= 0 {
		cache = DefaultCache
	}
	log, redact := o.Logger, o.Redact
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if redact == nil {
		redact = func(err error) string { return err.Error() }
	}
	draw := newDrawer(workers, o.OnDraw)
	return &Pictures{publicURL: strings.TrimRight(o.PublicURL, "/"), games: o.Games, log: log, redact: redact,
		pics: newPictures(o.Token, cache, draw), draw: draw}
}

// Start starts the drawing workers.
func (p *Pictures) Start() {
	p.draw.mu.Lock()
	defer p.draw.mu.Unlock()
	if !p.draw.closed {
		p.draw.startOnce.Do(p.draw.start)
	}
}

// Stop stops the drawing workers once their drawings in progress are done (the drawings
// waiting are dropped, and later ones refused with ErrBusy); call it once nothing draws any
// more. It does not wait for ctx.
func (p *Pictures) Stop(context.Context) error {
	p.draw.close()
	return nil
}

// Workers returns the number of drawing workers.
func (p *Pictures) Workers() int { return p.draw.workers }

// DrawIdle runs draw on a drawing worker, after the pictures somebody is fetching, and
// returns once it has run: ErrBusy at once when the queue is full or the workers stopped,
// ctx's error when ctx ends first (draw then runs not at all, or to its end with nobody
// waiting: it must only write what its caller reads after a nil return).
func (p *Pictures) DrawIdle(ctx context.Context, draw func()) error {
	return p.draw.do(ctx, drawIdle, func(*drawScratch) { draw() })
}

// Stats returns the counters of the drawing workers and of the picture cache.
func (p *Pictures) Stats() Stats {
	st := p.draw.stats()
	st.CacheBytes, st.CacheCap, st.CachedCount = p.pics.cache.size()
	return st
}

// URL is the address of the picture of g's position as it stands, "" without a public
// address.
func (p *Pictures) URL(g *game.Game) string {
	if p.publicURL == "" {
		return ""
	}
	if g.Status == game.StatusLobby {
		return p.StartURL(g.Size)
	}
	return p.publicURL + Path + p.pics.name(g, len(g.Moves))
}

// StartURL is the address of the picture of size's starting board, "" without a public
// address or for a size players do not get.
func (p *Pictures) StartURL(size int) string {
	if p.publicURL == "" || !validSize(size) {
		return ""
	}
	return p.publicURL + Path + "start/" + strconv.Itoa(size) + ".jpg"
}

// validSize reports whether players get boards of size n.
func validSize(n int) bool { return slices.Contains(game.Sizes, n) }

// errNoPicture is a picture address that shows nothing: not made by the bot, or of a game or
// position that is gone.
var errNoPicture = errors.New("no such picture")

// Handler serves the boards' pictures: GET (or HEAD) Path + a name the bot made
// answers the JPEG of that position, to be cached for good (the name stands for one
// position); any other path under it, 404. When the drawing workers are all busy and their
// queue is full it answers 503 with Retry-After at once; a request in the queue waits until
// its picture is drawn or the client goes. Mount it at Path where Options.PublicURL
// reaches.
func (p *Pictures) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !readOnly(w, r) {
			return
		}
		name, _ := strings.CutPrefix(r.URL.Path, Path)
		data, err := p.picture(r.Context(), name)
		switch {
		case errors.Is(err, errNoPicture):
			http.NotFound(w, r)
		case errors.Is(err, ErrBusy), errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
			w.Header().Set("Retry-After", pictureRetryAfter)
			http.Error(w, "busy, try again", http.StatusServiceUnavailable)
		case err != nil:
			p.log.Warn("board picture", "err", p.redact(err))
			w.Header().Set("Retry-After", pictureRetryAfter)
			http.Error(w, "try again", http.StatusServiceUnavailable)
		default:
			writeImage(w, r, "image/jpeg", "public, max-age=604800, immutable", data)
		}
	})
}

// picture returns the JPEG named name (a path under Path), drawing it unless it is
// kept or being drawn: errNoPicture when the name shows nothing, ErrBusy when the drawing
// workers' queue is full, ctx's error when it ends first.
func (p *Pictures) picture(ctx context.Context, name string) ([]byte, error) {
	if len(name) > 64 {
		return nil, errNoPicture
	}
	if data, ok := p.pics.cache.get(name); ok {
		return data, nil
	}
	pn, ok := parsePictureName(name)
	if !ok {
		return nil, errNoPicture
	}
	pc := p.pics
	pc.mu.Lock()
	if c, ok := pc.inflight[name]; ok { // drawn for another request right now
		pc.mu.Unlock()
		select {
		case <-c.done:
			return c.data, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if pc.draw.full(drawUrgent) { // refused before it costs a store read
		pc.mu.Unlock()
		pc.draw.refused.Add(1)
		return nil, ErrBusy
	}
	c := &pictureCall{done: make(chan struct{})}
	pc.inflight[name] = c
	pc.mu.Unlock()
	defer func() {
		pc.mu.Lock()
		delete(pc.inflight, name)
		pc.mu.Unlock()
		close(c.done)
	}()
	c.data, c.err = p.drawPicture(ctx, pn)
	if c.err == nil {
		pc.cache.put(name, c.data)
	}
	return c.data, c.err
}

// drawPicture draws the picture pn names on a drawing worker.
func (p *Pictures) drawPicture(ctx context.Context, pn pictureName) ([]byte, error) {
	pos, hideHints, err := p.picturePosition(ctx, pn)
	if err != nil {
		return nil, err
	}
	// The drawing writes data and derr, which are read only once it is done: a worker may
	// still run it after do gave up waiting.
	var data []byte
	var derr error
	if err := p.pics.draw.do(ctx, drawUrgent, func(s *drawScratch) { data, derr = encodePicture(pos, hideHints, s) }); err != nil {
		return nil, err
	}
	return data, derr
}

// picturePosition reads the position a picture's name stands for (checking its MAC) and
// whether its legal moves go unmarked (a board before the game or after its end).
func (p *Pictures) picturePosition(ctx context.Context, pn pictureName) (pos *engine.Game, hideHints bool, err error) {
	if pn.start > 0 {
		eg, err := engine.NewGame(pn.start)
		if err != nil {
			return nil, false, errNoPicture
		}
		return eg, true, nil
	}
	id, ply, mac := pn.game, pn.ply, pn.mac
	res, err := p.games.Game(ctx, id)
	switch {
	case errors.Is(err, game.ErrNotFound), errors.Is(err, game.ErrSetAside):
		return nil, false, errNoPicture
	case err != nil:
		var corrupt *game.CorruptError
		if errors.As(err, &corrupt) {
			return nil, false, errNoPicture
		}
		return nil, false, err
	}
	g := res.Game
	if ply > len(g.Moves) || !hmac.Equal([]byte(mac), []byte(p.pics.mac(id, g.Moves[:ply]))) {
		return nil, false, errNoPicture
	}
	at := g.Clone()
	at.Moves = at.Moves[:ply]
	eg, err := present.Replay(at)
	if err != nil {
		return nil, false, errNoPicture
	}
	over := eg.Over() || g.Status == game.StatusFinished && ply == len(g.Moves)
	return eg, over, nil
}

// pictureName is what the name of a picture says: the starting board of size start, or the
// position of game after ply moves, made by the bot if mac is right.
type pictureName struct {
	start int
	game  string
	ply   int
	mac   string
}

// parsePictureName reads a picture's name (a path under Path): "start/SIZE.jpg" for a
// size players get, or "GAME/PLY-MAC.jpg" with a valid game ID, a ply in canonical decimal and
// a MAC of pictureMACLen characters. It never fails otherwise than by ok false.
func parsePictureName(name string) (pn pictureName, ok bool) {
	if sz, isStart := strings.CutPrefix(name, "start/"); isStart {
		sz, isJPEG := strings.CutSuffix(sz, ".jpg")
		size, err := strconv.Atoi(sz)
		if !isJPEG || err != nil || strconv.Itoa(size) != sz || !validSize(size) {
			return pn, false
		}
		return pictureName{start: size}, true
	}
	id, rest, hasID := strings.Cut(name, "/")
	rest, isJPEG := strings.CutSuffix(rest, ".jpg")
	plyText, mac, hasMAC := strings.Cut(rest, "-")
	ply, err := strconv.Atoi(plyText)
	if !hasID || !isJPEG || !hasMAC || err != nil || strconv.Itoa(ply) != plyText || ply < 0 ||
		!game.ValidID(id) || len(mac) != pictureMACLen {
		return pn, false
	}
	return pictureName{game: id, ply: ply, mac: mac}, true
}

// encodePicture draws the position of eg as the board's picture (render.Image: last move,
// flips, the legal moves labelled unless hideHints) and encodes it as JPEG, in s's memory;
// the result is a copy of its own, exactly as long as the JPEG.
func encodePicture(eg *engine.Game, hideHints bool, s *drawScratch) ([]byte, error) {
	img, err := render.ImageInto(s.pal, render.ViewOf(eg), render.ImageOptions{Flipped: true, HideHints: hideHints})
	if err != nil {
		return nil, err
	}
	s.pal, s.rgba = img, toRGBA(s.rgba, img)
	s.buf.Reset()
	if err := jpeg.Encode(&s.buf, s.rgba, &jpeg.Options{Quality: pictureQuality}); err != nil {
		return nil, err
	}
	out := make([]byte, s.buf.Len())
	copy(out, s.buf.Bytes())
	return out, nil
}

// toRGBA copies the paletted picture into RGBA, the layout the JPEG encoder reads fastest
// (draw.Draw takes the slow general path from a paletted picture), reusing dst's pixels when
// they are enough (dst may be nil).
func toRGBA(dst *image.RGBA, img *image.Paletted) *image.RGBA {
	var lut [256][4]uint8
	for i, c := range img.Palette {
		r, g, b, a := c.RGBA()
		lut[i] = [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	bounds := img.Bounds()
	var out *image.RGBA
	if n := 4 * bounds.Dx() * bounds.Dy(); dst != nil && cap(dst.Pix) >= n {
		out = &image.RGBA{Pix: dst.Pix[:n], Stride: 4 * bounds.Dx(), Rect: bounds}
	} else {
		out = image.NewRGBA(bounds)
	}
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		src := img.Pix[img.PixOffset(bounds.Min.X, y):][:bounds.Dx()]
		dst := out.Pix[out.PixOffset(bounds.Min.X, y):][:4*bounds.Dx()]
		for x, i := range src {
			copy(dst[4*x:4*x+4], lut[i][:])
		}
	}
	return out
}
