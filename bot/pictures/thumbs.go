package pictures

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
)

// Inline results carry a thumbnail of the board they offer when the operator gives the bot a
// public base URL (Options.PublicURL): Telegram's clients fetch it from there, and the bot
// serves it with Pictures.Thumbnails. Without one the results have no thumbnail.

// ThumbnailPath is the path under Options.PublicURL where Pictures.Thumbnails serves the
// thumbnails: ThumbnailPath + "8.png" is the starting board of 8×8, and so on for every size
// players get (game.Sizes).
const ThumbnailPath = "/thumb/"

// ThumbnailSide is the width and height of a thumbnail, in pixels.
const ThumbnailSide = 128

// thumbnails draws each size's thumbnail once and keeps it.
type thumbnails struct {
	mu   sync.Mutex
	pngs map[int][]byte
}

// of returns the thumbnail of size (the starting position drawn by render.PNG, scaled down to
// ThumbnailSide), false for a size players do not get or one that could not be drawn.
func (th *thumbnails) of(size int) ([]byte, bool) {
	if !validSize(size) {
		return nil, false
	}
	th.mu.Lock()
	defer th.mu.Unlock()
	if b, ok := th.pngs[size]; ok {
		return b, true
	}
	pos, err := engine.Start(size)
	if err != nil {
		return nil, false
	}
	full, err := render.PNG(render.NewView(pos), render.ImageOptions{HideHints: true})
	if err != nil {
		return nil, false
	}
	src, err := png.Decode(bytes.NewReader(full))
	if err != nil {
		return nil, false
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, scaleDown(src, ThumbnailSide)); err != nil {
		return nil, false
	}
	if th.pngs == nil {
		th.pngs = map[int][]byte{}
	}
	th.pngs[size] = buf.Bytes()
	return th.pngs[size], true
}

// scaleDown draws src into a side×side picture by averaging the pixels each one covers.
func scaleDown(src image.Image, side int) *image.RGBA {
	b := src.Bounds()
	rgba := image.NewRGBA(b)
	draw.Draw(rgba, b, src, b.Min, draw.Src)
	dst := image.NewRGBA(image.Rect(0, 0, side, side))
	w, h := b.Dx(), b.Dy()
	for y := range side {
		y0, y1 := y*h/side, max((y+1)*h/side, y*h/side+1)
		for x := range side {
			x0, x1 := x*w/side, max((x+1)*w/side, x*w/side+1)
			var r, g, bl, a, n uint32
			for sy := y0; sy < y1 && sy < h; sy++ {
				for sx := x0; sx < x1 && sx < w; sx++ {
					i := rgba.PixOffset(b.Min.X+sx, b.Min.Y+sy)
					p := rgba.Pix[i : i+4 : i+4]
					r, g, bl, a, n = r+uint32(p[0]), g+uint32(p[1]), bl+uint32(p[2]), a+uint32(p[3]), n+1
				}
			}
			if n == 0 {
				continue
			}
			i := dst.PixOffset(x, y)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = uint8(r/n), uint8(g/n), uint8(bl/n), uint8(a/n)
		}
	}
	return dst
}

// Thumbnails serves the thumbnails of the inline results: GET (or HEAD)
// ThumbnailPath + "SIZE.png" answers the PNG of that size's starting board, cached by clients
// for a day; any other path under it, 404. Mount it at ThumbnailPath where Options.PublicURL
// reaches.
func (p *Pictures) Thumbnails() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !readOnly(w, r) {
			return
		}
		name, ok := strings.CutPrefix(r.URL.Path, ThumbnailPath)
		sz, isPNG := strings.CutSuffix(name, ".png")
		size, err := strconv.Atoi(sz)
		if !ok || !isPNG || err != nil || strconv.Itoa(size) != sz {
			http.NotFound(w, r)
			return
		}
		data, ok := p.thumbs.of(size)
		if !ok {
			http.NotFound(w, r)
			return
		}
		writeImage(w, r, "image/png", "public, max-age=86400", data)
	})
}

// readOnly answers a request that is neither GET nor HEAD with 405 and reports whether it
// was one: the bot's pictures are only ever read.
func readOnly(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

// writeImage answers r with the picture data of contentType, cached as cache says (no body
// for HEAD).
func writeImage(w http.ResponseWriter, r *http.Request, contentType, cache string, data []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Header().Set("Cache-Control", cache)
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(data)
}

// ThumbnailURL is the URL of size's thumbnail under the public base URL, "" without one.
func (p *Pictures) ThumbnailURL(size int) string {
	if p.publicURL == "" || !validSize(size) {
		return ""
	}
	return p.publicURL + ThumbnailPath + strconv.Itoa(size) + ".png"
}
