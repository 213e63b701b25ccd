package webapptest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Board is what the page shows, read from its DOM (see Page.Board).
type Board struct {
	// State is the page's state (body's data-state): "loading", "ready" or "refused".
	State string `json:"state"`
	// Size, Version and Ply are those of the game drawn (0, -1 and 0 before one is).
	Size    int   `json:"size"`
	Version int64 `json:"version"`
	Ply     int   `json:"ply"`
	// Discs is the board as webapp.State.Board has it: Size·Size characters row by row
	// from a1, 'X' black, 'O' white, '-' empty ("" when no board is drawn).
	Discs string `json:"discs"`
	// Legal lists the squares marked as the viewer's moves; Last the square marked as the
	// last move ("" for none).
	Legal []string `json:"legal"`
	Last  string   `json:"last"`
	// Status is the line that says whose move it is, or the result; StatusClass its classes
	// ("mine" on the viewer's move, "wait", "watch", "end win", …); Note the line under it.
	Status      string `json:"status"`
	StatusClass string `json:"statusClass"`
	Note        string `json:"note"`
	// Refusal is the text of the refusal the page shows instead of the board (State
	// "refused"); Toast the message shown at the bottom, while it shows.
	Refusal string `json:"refusal"`
	Toast   string `json:"toast"`
	// Black and White are the players' cards.
	Black, White Card    `json:"-"`
	Cards        [2]Card `json:"cards"`
	// BoardVisible reports that the board is on the screen; BoardPx is its width and CellPx
	// a square's, in CSS pixels; ViewportPx the viewport's width.
	BoardVisible bool    `json:"boardVisible"`
	BoardPx      float64 `json:"boardPx"`
	CellPx       float64 `json:"cellPx"`
	ViewportPx   float64 `json:"viewportPx"`
	// Info holds the texts of the line under the board: the board's size and the move, the
	// connection's state, the last move.
	Info [3]string `json:"info"`
	// Lang is the page's language (html's lang), Title its title.
	Lang  string `json:"lang"`
	Title string `json:"title"`
	// Text is all the text the page shows now, as the browser lays it out (body's innerText).
	Text string `json:"text"`
}

// Card is a player's card above the board.
type Card struct {
	Name  string `json:"name"`
	Tag   string `json:"tag"` // "You", the colour, …
	Count int    `json:"count"`
	Turn  bool   `json:"turn"`  // marked as the side to move
	Label string `json:"label"` // what the count says to a screen reader (its aria-label)
}

// At returns the disc on square sq ("d3") as Discs has it: 'X', 'O' or '-' (0 when sq is
// not on the board).
func (b Board) At(sq string) byte {
	if len(sq) < 2 || b.Size == 0 {
		return 0
	}
	c := int(sq[0] - 'a')
	r := 0
	for _, d := range sq[1:] {
		if d < '0' || d > '9' {
			return 0
		}
		r = r*10 + int(d-'0')
	}
	r--
	if c < 0 || c >= b.Size || r < 0 || r >= b.Size || len(b.Discs) != b.Size*b.Size {
		return 0
	}
	return b.Discs[r*b.Size+c]
}

// String is a short summary of b for failure messages.
func (b Board) String() string {
	return fmt.Sprintf("{state %s, size %d, version %d, ply %d, status %q, note %q, refusal %q, toast %q, info %q, legal %v, last %q, discs %s}",
		b.State, b.Size, b.Version, b.Ply, b.Status, b.Note, b.Refusal, b.Toast, b.Info, b.Legal, b.Last, b.Discs)
}

const boardJS = `(() => {
  const q = s => document.querySelector(s);
  const b = q('#board');
  const cells = b ? Array.from(b.querySelectorAll('.cell')) : [];
  const disc = {b: 'X', w: 'O'};
  const card = id => {
    const e = q(id);
    if (!e) return {name: '', tag: '', count: 0, turn: false, label: ''};
    const count = e.querySelector('.count');
    return {name: e.querySelector('.name').textContent, tag: e.querySelector('.tag').textContent,
      count: +(count.textContent || 0), turn: e.classList.contains('turn'), label: count.getAttribute('aria-label') || ''};
  };
  const last = cells.find(c => c.classList.contains('last'));
  const toast = q('#toast');
  const refused = document.body.dataset.state === 'refused';
  return {
    state: document.body.dataset.state || '',
    size: +((b && b.dataset.size) || 0),
    version: +((b && b.dataset.version) || -1),
    ply: +((b && b.dataset.ply) || 0),
    discs: cells.map(c => disc[c.dataset.disc] || '-').join(''),
    legal: cells.filter(c => c.classList.contains('legal')).map(c => c.dataset.sq),
    last: last ? last.dataset.sq : '',
    status: (q('#status-text') || {}).textContent || '',
    statusClass: (q('#status') || {}).className || '',
    note: (q('#note') || {}).textContent || '',
    refusal: refused ? q('#refusal-text').textContent : '',
    toast: toast && toast.classList.contains('show') ? toast.textContent : '',
    cards: [card('#p-black'), card('#p-white')],
    boardVisible: !!(b && b.offsetParent !== null && cells.length),
    boardPx: b ? b.getBoundingClientRect().width : 0,
    cellPx: cells.length ? cells[0].getBoundingClientRect().width : 0,
    viewportPx: window.innerWidth,
    info: ['#info-left', '#conn', '#info-right'].map(s => (q(s) || {}).textContent || ''),
    lang: document.documentElement.lang,
    title: document.title,
    text: document.body.innerText,
  };
})()`

func jsonUnmarshal(raw []byte, v any) error { return json.Unmarshal(raw, v) }

// Board reads what the page shows now.
func (p *Page) Board() (Board, error) {
	var b Board
	if err := p.Eval(boardJS, &b); err != nil {
		return Board{}, err
	}
	b.Black, b.White = b.Cards[0], b.Cards[1]
	return b, nil
}

// WaitFor reads the page's board every few milliseconds until cond holds, and returns that
// board; after WaitTimeout it gives up with an error that names what and the last board read.
func (p *Page) WaitFor(what string, cond func(Board) bool) (Board, error) {
	ctx, cancel := context.WithTimeout(p.ctx, WaitTimeout)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var last Board
	var lastErr error
	for {
		b, err := p.Board()
		if err == nil && cond(b) {
			return b, nil
		}
		if err == nil {
			last = b
		}
		lastErr = err
		select {
		case <-ctx.Done():
			if lastErr != nil {
				return last, fmt.Errorf("webapptest: %s: never happened (reading the page: %v)", what, lastErr)
			}
			return last, fmt.Errorf("webapptest: %s: never happened; the page shows %v", what, last)
		case <-tick.C:
		}
	}
}

// Until is WaitFor that fails tb when cond never holds, with the page's script errors.
func (p *Page) Until(tb testing.TB, what string, cond func(Board) bool) Board {
	tb.Helper()
	b, err := p.WaitFor(what, cond)
	if err != nil {
		tb.Fatalf("%v; script errors: %q", err, p.Errors())
	}
	return b
}

// Metrics are what the page measured of itself (Performance API), on this machine.
type Metrics struct {
	// FirstContentfulPaint is when the browser first painted anything (from the start of
	// the navigation); BoardDrawn when the page first drew a game's board (its
	// "reversi:board" mark). Zero when not (yet) there.
	FirstContentfulPaint time.Duration
	BoardDrawn           time.Duration
	// TapShown lists, for each move tapped, the time from the click to the next frame after
	// the server's answer was drawn (its "reversi:tap-shown" measures).
	TapShown []time.Duration
	// Transferred is the bytes of the page, its style and its script as they came over the
	// wire (Resource Timing's encodedBodySize: gzipped when served so).
	Transferred int
}

const metricsJS = `(() => {
  const one = (n, t) => { const e = performance.getEntriesByName(n, t)[0]; return e ? e.startTime : 0; };
  const nav = performance.getEntriesByType('navigation')[0];
  let bytes = nav ? nav.encodedBodySize : 0;
  for (const r of performance.getEntriesByType('resource')) {
    if (r.name.startsWith(location.origin) && /\.(js|css)(\?|$)/.test(r.name)) bytes += r.encodedBodySize;
  }
  return {fcp: one('first-contentful-paint', 'paint'), board: one('reversi:board', 'mark'),
    taps: performance.getEntriesByName('reversi:tap-shown', 'measure').map(m => m.duration), bytes};
})()`

// Metrics reads what the page measured so far.
func (p *Page) Metrics() (Metrics, error) {
	var m struct {
		FCP   float64   `json:"fcp"`
		Board float64   `json:"board"`
		Taps  []float64 `json:"taps"`
		Bytes int       `json:"bytes"`
	}
	if err := p.Eval(metricsJS, &m); err != nil {
		return Metrics{}, err
	}
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	out := Metrics{FirstContentfulPaint: ms(m.FCP), BoardDrawn: ms(m.Board), Transferred: m.Bytes}
	for _, t := range m.Taps {
		out.TapShown = append(out.TapShown, ms(t))
	}
	return out, nil
}

// Settle waits until the page's finite animations (a disc placed, discs flipped) have ended,
// so that a screenshot shows the board at rest. It gives up after WaitTimeout.
func (p *Page) Settle() error {
	ctx, cancel := context.WithTimeout(p.ctx, WaitTimeout)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		var n int
		if err := p.Eval(`document.getAnimations().filter(a => a.playState === 'running' &&
			a.effect && a.effect.getTiming().iterations !== Infinity).length`, &n); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("webapptest: %d animations still running after %v", n, WaitTimeout)
		case <-tick.C:
		}
	}
}

// WaitJS waits until the JavaScript expression is true in the page. It polls inside the page
// (chromedp.Poll), which disturbs the page less than WaitFor's reads of the DOM: use it while
// the page measures itself. It gives up after WaitTimeout.
func (p *Page) WaitJS(expr string) error {
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(5*time.Millisecond),
		chromedp.WithPollingTimeout(WaitTimeout)))
	if err != nil {
		return fmt.Errorf("webapptest: waiting for %s: %w", expr, err)
	}
	return nil
}
