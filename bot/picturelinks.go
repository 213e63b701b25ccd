package bot

import (
	"github.com/reversibot/reversi/bot/pictures"
	"github.com/reversibot/reversi/game"
)

// The paths under Options.PublicURL where cmd/reversibot mounts the pictures
// (Parts.Pictures.Handler) and the thumbnails (Parts.Pictures.Thumbnails); see package
// pictures.
const (
	PicturePath   = pictures.Path
	ThumbnailPath = pictures.ThumbnailPath
	// ThumbnailSide is the width and height of a thumbnail, in pixels.
	ThumbnailSide = pictures.ThumbnailSide
)

// DefaultPictureCache is the bytes of drawn pictures a Bot keeps when Options.PictureCache is
// 0 (pictures.DefaultCache).
const DefaultPictureCache = pictures.DefaultCache

// DefaultDrawWorkers is the drawing workers of a Bot when Options.DrawWorkers is 0
// (pictures.DefaultWorkers).
func DefaultDrawWorkers() int { return pictures.DefaultWorkers() }

// DrawStats are the counters of the bot's drawing workers and picture cache, and of the
// replays waiting for them.
type DrawStats struct {
	pictures.Stats
	// ReplaysQueued are the finished games whose replays wait to be drawn and sent now;
	// ReplaysDropped those dropped because the queue was full (replays.go).
	ReplaysQueued  int
	ReplaysDropped int64
}

// links makes the public addresses (Options.PublicURL) of the bot's pictures and thumbnails.
type links struct {
	publicURL string // Options.PublicURL without a trailing slash; "" for none
	pics      *pictures.Pictures
}

// pictureURL is the address of the picture of g's position as it stands, "" without a public
// address.
func (l links) pictureURL(g *game.Game) string { return l.pics.URL(g) }

// startPictureURL is the address of the picture of size's starting board, "" without a
// public address or for a size players do not get.
func (l links) startPictureURL(size int) string { return l.pics.StartURL(size) }

// thumbnailURL is the URL of size's thumbnail under the public base URL, "" without one.
func (l links) thumbnailURL(size int) string { return l.pics.ThumbnailURL(size) }
