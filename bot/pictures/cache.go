package pictures

import (
	"container/list"
	"sync"
)

// DefaultCache is the bytes of drawn pictures kept when Options.CacheBytes is 0: about 60 pictures of 16×16 boards (130 KB each), the newest positions of the inline
// games in play, which Telegram may fetch again. (Under cmd/reversibot's GOGC=400 each byte
// kept costs about five of the process's memory.)
const DefaultCache = 8 << 20

// pictureCache keeps drawn pictures by name, within a bound on their bytes: the one used
// longest ago goes first. A picture larger than the bound is not kept.
type pictureCache struct {
	mu    sync.Mutex
	cap   int64
	bytes int64
	byKey map[string]*list.Element // of *cached
	order list.List                // most recently used first
}

// cached is one kept picture.
type cached struct {
	name string
	data []byte
}

func newPictureCache(capBytes int64) *pictureCache {
	return &pictureCache{cap: capBytes, byKey: map[string]*list.Element{}}
}

// get returns the picture kept under name, marking it used.
func (c *pictureCache) get(name string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[name]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).data, true
}

// put keeps data under name, forgetting the pictures used longest ago until the bytes kept
// are within the bound again. data must not change afterwards; its capacity counts.
func (c *pictureCache) put(name string, data []byte) {
	size := int64(cap(data))
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[name]; ok || size > c.cap {
		return
	}
	c.byKey[name] = c.order.PushFront(&cached{name: name, data: data})
	c.bytes += size
	for c.bytes > c.cap {
		old := c.order.Back()
		v := old.Value.(*cached)
		c.order.Remove(old)
		delete(c.byKey, v.name)
		c.bytes -= int64(cap(v.data))
	}
}

// size returns the bytes kept, the bound and how many pictures are kept.
func (c *pictureCache) size() (bytes, capBytes int64, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes, c.cap, len(c.byKey)
}
